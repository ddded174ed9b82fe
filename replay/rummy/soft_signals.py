"""13-card Rummy's soft-play pair signal ``rummy13.soft_drop``: first drops that line up with
another seat's hidden strength (``docs/collusion.md``, "Pairs"; :mod:`replay.pair_signals`).

Two players who share their cards need not feed each other to gain: a seat that knows its
partner holds a strong hand can stand aside -- drop for 20 (R-16) rather than play a poor
hand against it -- and play on when the partner is weak.  At a seat's first pick (its
first-drop decision, R-16) the score against a target seat is the target's *strength*,
minus the least points of its hand (R-12, the solver), taken ``+`` for a first drop and
``-`` for playing on (as ``rummy13.drop`` scores the strongest opponent): a seat that drops
when the target is strong and plays on when it is weak scores above its redeals.

**Null world.**  Only a target that has not moved yet in the deal is scored (no pick, a D-23
auto pick included): nobody has acted on its cards, so given every other hand and every move
so far, the target's 13 cards and the closed stock are one random split of their union (a
fair deal, D-3; no reshuffle before every seat has moved).  The target's hand is redealt
with the closed stock and every other hand is kept (conditioning on more than the seat saw
keeps the null exact) -- the window of ``rummy13.drop``
(:mod:`replay.rummy.discard_drop_signals`), scored against one seat instead of the strongest.
Only real choices count: a timed-out pick or drop (``auto``) gives nothing.

A seat that sees *every* hand (a superuser, ``rummy13.drop``) drops against the strongest
opponent, so it scores here against each of them a little: a superuser can show as pairs
with the seats it played against, and the account's own ``rummy13.drop`` is the place to
read that.
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from ..cards import Card
from ..pair_signals import PairObservation
from .discard_drop_signals import REDEALS, redeal, unmoved
from .moves import Drop, Pick
from .solver import min_points
from .state import PICK

if TYPE_CHECKING:
    from ..game import Move
    from ..stream import Stream
    from .engine import RummyEngine
    from .state import RummyState

SIGNAL = "rummy13.soft_drop"


def soft_drop_observations(engine: RummyEngine, state: RummyState, move: Move, rng: Stream, *,
                           redeals: int = REDEALS) -> list[PairObservation]:
    """The observations of one first-drop decision, one per target that has not moved (none
    outside the exact window)."""
    if not isinstance(move, (Pick, Drop)) or move.auto:
        return []
    seat = move.seat
    if state.phase != PICK or state.has_picked[seat] or state.missed[seat] or state.reshuffles:
        return []
    high, wild = engine.ruleset["high_card_points"], state.wild
    sign = 1 if isinstance(move, Drop) else -1

    def score(hand: tuple[Card, ...]) -> Fraction:
        return Fraction(-sign * min_points(hand, wild, high=high))

    out = []
    for target in unmoved(state, seat):
        null = tuple(score(redeal(state, [target], rng)[0]) for _ in range(redeals))
        out.append(PairObservation(SIGNAL, seat, target, score(tuple(state.hands[target])), null))
    return out
