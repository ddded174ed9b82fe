"""The settlement, worked: every term that turns a replayed hand into each seat's HT.

:func:`work_settlement` gives :attr:`replay.replayer.ReplayResult.worked` of every settled
hand (from the replay's own outcome and :class:`~replay.settlement.Settlement`, when first
read) -- what the hand page, ``tiplu replay`` and the verdict API show.  It has two parts:

* **points** -- the game's own terms (the engine's ``work_points(outcome)``):

  - Marriage (MC-31, MC-28..MC-30, D-9, D-10): ``T`` the sum of all scores, ``n`` the
    seats, each opponent's ``w`` (3 seen / 10 unseen, + 5 when the winner finished on
    dublees) and its payment to the winner ``T + w - n*S``, beside the pairwise payments
    (each pair settles its difference, then ``w`` to the winner) that must come to the same
    net; a void round: ``n*S - T``;
  - Kitti (K-1, D-13, D-14): the pot in, the stakes, the rounds won, who takes the pot,
    salami, the pot out;
  - Rummy (R-20, D-2): each loser's points, the winner's sum of them.

* **money** (D-2): each seat's net points x the table's ``point_value`` = gross HT,
  the commission on each positive gain (rounded half up to 0.01), and the net.

The point terms are recomputed from the score and the rules and must give exactly the
engine's net points; the money terms are :func:`replay.settlement.settle`'s own.  A
mismatch raises :class:`~replay.errors.MalformedError` (the replayer reports it).
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Sequence

from .errors import MalformedError
from .game import Engine, Outcome
from .settlement import Settlement, format_amount


def signed(x: int | Decimal) -> str:
    """``"+3"``, ``"-12"``, ``"0"``: a term as the worked sums print it."""
    return f"+{x}" if x > 0 else str(x)


def work_money(net_points: Sequence[int], settlement: Settlement, *, point_value: Decimal,
               commission_pct: Decimal, players: Sequence[str]) -> list[dict[str, Any]]:
    """Per seat: net points x point value = gross, the commission on a gain, the net (D-2)."""
    rows = []
    for i, (pts, gross, net) in enumerate(zip(net_points, settlement.gross, settlement.nets)):
        fee = gross - net
        rows.append({
            "seat": i, "player": players[i] if i < len(players) else str(i), "net_points": pts,
            "gross": format_amount(gross), "commission": format_amount(fee), "net": format_amount(net),
            "sum": f"{signed(pts)} × {point_value} = {format_amount(gross)}"
                   + (f"; − {commission_pct}% commission {format_amount(fee)} = {format_amount(net)}" if fee else ""),
        })
    return rows


def work_settlement(engine: Engine, outcome: Outcome, settlement: Settlement, *, point_value: Decimal,
                    commission_pct: Decimal, players: Sequence[str]) -> dict[str, Any]:
    """The worked settlement of a hand (module doc); raises if the terms do not add up."""
    points = engine.work_points(outcome)
    if tuple(points["net_points"]) != tuple(outcome.net_points):
        raise MalformedError(f"the worked points {points['net_points']} are not the engine's nets "
                             f"{list(outcome.net_points)}")
    return {
        "game": engine.game, "points": points,
        "money": {"point_value": str(point_value), "commission_pct": str(commission_pct),
                  "rows": work_money(outcome.net_points, settlement, point_value=point_value,
                                     commission_pct=commission_pct, players=players),
                  "commission": format_amount(settlement.commission),
                  "pot_delta": format_amount(settlement.pot_delta)},
    }
