"""The outcome of a finished Marriage round: each player's maal, the net points, the detail.

Maal is counted by :func:`replay.marriage.maal.count_maal` (MN-29, D-8) and the nets by
:mod:`replay.marriage.payments` (streamlined through the winner, or D-10 when void).
"""
from __future__ import annotations

from typing import Any

from ..cards import card_texts
from ..game import Outcome
from ..rulesets import Ruleset
from . import maal, payments
from .state import RoundState

__all__ = ["round_outcome"]


def round_outcome(state: RoundState, ruleset: Ruleset) -> Outcome:
    """Maal points, net points (streamlined through the winner, or D-10 when void) of a
    round that is over."""
    counts = []
    for s in state.seats:
        counts.append(maal.count_maal(hand=s.hand, table=s.table, tunnelas_at_deal=s.tunnelas_at_deal,
                                      tiplu=state.tiplu, seen=s.has_shown, ruleset=ruleset))
    scores = tuple(m.points for m in counts)
    seen = tuple(s.has_shown for s in state.seats)
    if state.winner is not None:
        assert state.finish is not None, "a round with a winner holds its finish (Turns._finish sets both)"
        nets = payments.nets_streamlined(scores, winner=state.winner, seen=seen,
                                         dublee_finish=state.finish.dublee, ruleset=ruleset)
    else:
        nets = payments.void_nets(scores)
    breakdown = []
    for s, m in zip(state.seats, counts):
        breakdown.append({
            "maal": [i.to_json() for i in m.items], "points": m.points, "seen": s.has_shown,
            "dublee": s.dublee,
            "tunnelas_at_deal": [card_texts(g) for g in s.tunnelas_at_deal],
            "shown": [card_texts(g) for g in s.shown],
            "hand": card_texts(s.hand),
        })
    detail: dict[str, Any] = {
        "tiplu": str(state.tiplu) if state.tiplu else None, "turns": state.turns,
        "reshuffles": state.reshuffles, "void_reason": state.void_reason, "dealer": state.dealer,
    }
    if state.finish is not None:
        detail["finish"] = {"groups": [card_texts(g) for g in state.finish.groups],
                            "discard": str(state.finish.discard), "dublee": state.finish.dublee}
    return Outcome(points=scores, net_points=tuple(nets), winner=state.winner,
                   breakdown=tuple(breakdown), detail=detail)
