"""13-card Rummy's pair signal ``rummy13.feed``: discards that help the seat that picks next
more than they would help a hand redealt from the cards the discarder could not see
(``docs/collusion.md``, "Pairs"; :mod:`replay.pair_signals`).

A discard goes on the open pile, where only the next seat to pick may take it (R-6).  The
**use** of a card to a hand is the points it saves after that hand's best discard
(:func:`replay.rummy.signals.use_of`, the solver).  The score of a discard against the
receiver's hidden hand is measured against the discarder's own **reference discard** (the
card whose loss leaves it the fewest points, :func:`reference_discard`, a function of its own
cards only): ``use(discard) - use(reference)`` to the receiver's hand.  A seat that sees its
partner's hand throws it a card it needs instead of its own best discard; a seat that throws
its reference scores exactly 0 in every world.

**Null world.**  What the discarder knows of the receiver's hand are the cards the receiver
took from the open pile and still holds; the rest of the receiver's hand is redealt from
the cards the discarder cannot see (every other hand's unknown cards and the closed stock).
That is exact at the deal; later the receiver's hand is also shaped by its own keeps and
discards, which makes a real hand more connected than a redealt one.  Measuring against the
discarder's own reference cancels most of that (both cards meet the same hand);
``docs/collusion.md`` says what is left and what was measured.  Only real choices count: a
timed-out turn's discard (``auto``), a discard the receiver may not pick (a joker under
D-24), or a discard that ends the deal gives nothing.
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Sequence

from ..cards import Card
from ..pair_signals import PairObservation
from .solver import best_discard
from .moves import Discard, Pick
from .signals import REDEALS, use_of
from .soft_signals import soft_drop_observations
from .state import PICK

if TYPE_CHECKING:
    from ..game import Move
    from ..stream import Stream
    from .engine import RummyEngine
    from .state import RummyState

SIGNAL = "rummy13.feed"


def reference_discard(hand: Sequence[Card], wild: int | None, *, high: int) -> Card:
    """The discard that leaves the seat the fewest points (the solver); among equals the card
    worth the most points, then the lowest code.  A function of the seat's own cards only
    (:func:`~replay.rummy.solver.best_discard`)."""
    return best_discard(hand, wild, high=high)[1]


def feed_observation(engine: RummyEngine, state: RummyState, move: Discard, after: RummyState,
                     known: dict[int, list[Card]], rng: Stream, *, redeals: int = REDEALS) -> PairObservation | None:
    """The observation of one discard (``None`` when no seat may take it as a choice)."""
    if move.auto or after.phase != PICK or after.turn == move.seat or not engine.can_pick_open(after):
        return None
    seat, receiver, high, wild = move.seat, after.turn, engine.ruleset["high_card_points"], after.wild
    reference = reference_discard(state.hands[seat], wild, high=high)
    if reference == move.card:   # the seat threw its own reference: 0 in every world
        return PairObservation(SIGNAL, seat, receiver, Fraction(0), (Fraction(0),) * redeals)
    hand = tuple(after.hands[receiver])
    sure = list(known.get(receiver, []))
    pool = [c for s, h in enumerate(after.hands) if s != seat for c in h] + list(after.closed)
    for s, cards in known.items():
        if s != seat:
            for c in cards:
                if c in pool:
                    pool.remove(c)     # the discarder knows where these are (equal cards are alike)
    missing = len(hand) - len(sure)
    if missing > len(pool) or missing < 0:
        return None

    def score(cards: tuple[Card, ...]) -> Fraction:
        return Fraction(use_of(cards, move.card, wild, high=high) - use_of(cards, reference, wild, high=high))

    null = tuple(score(tuple(sure) + tuple(rng.shuffle(pool)[:missing])) for _ in range(redeals))
    return PairObservation(SIGNAL, seat, receiver, score(hand), null)


def hand_pair_signals(engine: RummyEngine, steps: Sequence[tuple[int, RummyState, Move]],
                      rng_for: Callable[[int], Stream]) -> list[PairObservation]:
    """Every ``rummy13.feed`` and ``rummy13.soft_drop`` (:mod:`.soft_signals`) observation of
    one hand (found by :func:`replay.pair_signals.decision_pair_signals`)."""
    out: list[PairObservation] = []
    known: dict[int, list[Card]] = {}   # seat -> cards it took from the open pile, still held
    for n, (index, state, move) in enumerate(steps):
        after = steps[n + 1][1] if n + 1 < len(steps) else engine.apply(state, move)
        out.extend(soft_drop_observations(engine, state, move, rng_for(index)))   # rummy13.soft_drop
        if isinstance(move, Pick) and move.source == "open":
            known.setdefault(move.seat, []).append(state.open_pile[-1])
        elif isinstance(move, Discard):
            obs = feed_observation(engine, state, move, after, known, rng_for(index))
            if obs is not None:
                out.append(obs)
            held = known.get(move.seat, [])
            if move.card in held:
                held.remove(move.card)
    return out
