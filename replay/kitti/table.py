"""A Kitti table: a sequence of deals, the carried pot, the dealer's seat and the money.

Each deal's points (:class:`~replay.game.Outcome` or
:class:`~replay.kitti.showdown.DealResult`) become house tokens with
:func:`replay.settlement.settle`, the carried pot counting as a party (D-2, D-14)::

    players' nets + house commission + change of the pot (in HT) == 0

After every deal the pot carries over (zero after a win, grown after a kitti or a void)
and the deal passes to the left (D-4: seat ``dealer + 1``).  A K-21 redeal happens inside
the hand (:mod:`replay.kitti.engine`), so it does not move the dealer.

Over a whole table: ``sum(balances) + commission + (pot - pot_start) * point_value == 0``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Callable, Sequence

from ..deal import left_of
from ..errors import MalformedError
from ..fairness import HandRandomness
from ..game import Move
from ..settlement import (ZERO, Settlement, check_commission_pct, check_point_value, format_amount,
                          parse_commission_pct, parse_point_value, settle)
from .engine import KittiEngine, KittiState


@dataclass(frozen=True, slots=True)
class TableState:
    """A table between deals.  Money in HT (Decimal), the pot in points."""

    n_seats: int
    dealer: int
    pot: int
    point_value: Decimal
    commission_pct: Decimal
    balances: tuple[Decimal, ...]
    commission: Decimal = ZERO
    pot_start: int = 0
    deals: int = 0

    @classmethod
    def open(cls, n_seats: int, *, point_value: Decimal | str = "1", commission_pct: Decimal | str = "0",
             dealer: int = 0, pot: int = 0) -> "TableState":
        """A fresh table: balances zero, ``pot`` points already carried (usually 0)."""
        if not isinstance(n_seats, int) or not 2 <= n_seats <= 5:
            raise MalformedError(f"a Kitti table has 2-5 seats (D-12), not {n_seats!r}")
        if not isinstance(dealer, int) or not 0 <= dealer < n_seats:
            raise MalformedError(f"dealer seat {dealer!r} is not at a table of {n_seats}")
        if isinstance(pot, bool) or not isinstance(pot, int) or pot < 0:
            raise MalformedError("the pot is a non-negative whole number of points")
        pv = check_point_value(point_value) if isinstance(point_value, Decimal) else parse_point_value(point_value)
        pct = (check_commission_pct(commission_pct) if isinstance(commission_pct, Decimal)
               else parse_commission_pct(commission_pct))
        return cls(n_seats, dealer, pot, pv, pct, tuple(ZERO for _ in range(n_seats)), ZERO, pot, 0)

    @property
    def pot_ht(self) -> Decimal:
        return self.pot * self.point_value

    def record(self, net_points: Sequence[int], pot_delta_points: int, *,
               pot_before: int | None = None) -> tuple["TableState", Settlement]:
        """Book one deal's points; the next table state and the deal's settlement in HT."""
        if len(net_points) != self.n_seats:
            raise MalformedError(f"a deal at this table has {self.n_seats} seats, not {len(net_points)}")
        if pot_before is not None and pot_before != self.pot:
            raise MalformedError(f"the deal started with a pot of {pot_before}, the table carries {self.pot} (D-14)")
        s = settle(list(net_points), point_value=self.point_value, commission_pct=self.commission_pct,
                   pot_delta_points=pot_delta_points)
        nxt = replace(self, dealer=left_of(self.dealer, self.n_seats), pot=self.pot + pot_delta_points,
                      balances=tuple(b + n for b, n in zip(self.balances, s.nets)),
                      commission=self.commission + s.commission, deals=self.deals + 1)
        return nxt, s

    def check_zero_sum(self) -> None:
        """Raise :class:`AssertionError` unless the table's money sums to zero."""
        total = sum(self.balances, ZERO) + self.commission + (self.pot - self.pot_start) * self.point_value
        if total != 0:
            raise AssertionError(f"table money does not sum to zero: {total}")

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.n_seats, "dealer": self.dealer, "pot": self.pot,
                "pot_ht": format_amount(self.pot_ht), "deals": self.deals,
                "balances": [format_amount(b) for b in self.balances],
                "commission": format_amount(self.commission)}


Chooser = Callable[[KittiEngine, KittiState], Move]


def play_deal(engine: KittiEngine, table: TableState, randomness: HandRandomness,
              choose: Chooser) -> tuple[TableState, KittiState, Settlement]:
    """Play one deal at ``table`` (its dealer, its pot) with ``choose(engine, state) -> move``."""
    if randomness.n_seats != table.n_seats:
        raise MalformedError(f"the randomness is for {randomness.n_seats} seats, the table has {table.n_seats}")
    state = engine.start(randomness, dealer=table.dealer, pot_before=table.pot)
    while not engine.is_over(state):
        state = engine.apply(state, choose(engine, state))
    out = engine.outcome(state)
    nxt, s = table.record(out.net_points, out.pot_delta_points, pot_before=state.pot_before)
    return nxt, state, s
