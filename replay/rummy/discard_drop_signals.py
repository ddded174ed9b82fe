"""13-card Rummy's discard and drop signals: discards that avoid feeding the next player's
hidden melds, and first drops against the opponents' hidden strength (``docs/collusion.md``;
:mod:`replay.signals`).

**Where the null is exact.** An opponent's hidden hand stops being a fair redeal once that
opponent has acted on it: its picks and discards say something about it, and an honest
player may read them.  Before an opponent's first move, though, nobody has acted on their
cards: given every other hand and every move so far, that opponent's 13 cards and the closed
stock are one random split of their union (a fair deal, D-3; no reshuffle can have happened
before every seat has moved).  So both signals redeal only opponents **who have not moved
yet in the deal** (no pick, D-23 auto picks included), together with the closed stock, and
keep every other hand as it is (conditioning on more than the player saw keeps the null
exact; conditioning on less would not).

* ``rummy13.discard``: at a discard (not ``auto``), when the next seat to play has not moved
  yet, the score is minus the points the discarded card would save that seat
  (:func:`~replay.rummy.signals.use_of`, the exact solver: R-12..R-15): an honest discard
  feeds the real next hand as much as a redealt one, a superuser's feeds it less.
* ``rummy13.drop``: at a seat's first pick (its first-drop decision, R-16: drop for 20 or
  play on), when some opponent has not moved yet, the *danger* is minus the least points
  among those opponents' hands (R-12: the strongest of them); the score is ``+danger`` for a
  first drop and ``-danger`` for playing on -- a superuser drops against strong hands and
  plays on against weak ones.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..cards import Card
from ..signals import Observation
from ..stream import Stream
from .moves import Discard, Drop, Pick
from .engine import DISCARD
from .signals import pick_signals, use_of
from .solver import min_points
from .state import PICK, PLAYING

if TYPE_CHECKING:
    from ..game import Move
    from .engine import RummyEngine
    from .state import RummyState

DISCARD_SIGNAL = "rummy13.discard"
DROP_SIGNAL = "rummy13.drop"
REDEALS = 2


def next_seat(state: RummyState, seat: int) -> int:
    """The seat that plays after ``seat`` (D-4: clockwise, skipping who left)."""
    n = state.n_seats
    nxt = (seat + 1) % n
    while state.status[nxt] != PLAYING:
        nxt = (nxt + 1) % n
    return nxt


def unmoved(state: RummyState, seat: int) -> list[int]:
    """The opponents of ``seat`` still playing who have not moved yet in the deal."""
    return [s for s in range(state.n_seats)
            if s != seat and state.status[s] == PLAYING and not state.has_picked[s] and not state.missed[s]]


def redeal(state: RummyState, seats: list[int], rng: Stream) -> list[tuple[Card, ...]]:
    """``seats``' hands redealt with the closed stock: one fair split of their union."""
    sizes = [len(state.hands[s]) for s in seats]
    pool = [c for s in seats for c in state.hands[s]] + list(state.closed)
    cards = rng.shuffle(pool)
    out, at = [], 0
    for size in sizes:
        out.append(tuple(cards[at:at + size]))
        at += size
    return out


def discard_observation(engine: RummyEngine, state: RummyState, move: Discard, rng: Stream, *,
                        redeals: int = REDEALS) -> Observation | None:
    """The observation of one discard (``None`` outside the exact window)."""
    if move.auto or state.phase != DISCARD or state.reshuffles:
        return None
    nxt = next_seat(state, move.seat)
    if nxt == move.seat or nxt not in unmoved(state, move.seat):
        return None
    high = engine.ruleset["high_card_points"]

    def score(hand: tuple[Card, ...]) -> int:
        return -use_of(hand, move.card, state.wild, high=high)

    null = tuple(score(redeal(state, [nxt], rng)[0]) for _ in range(redeals))
    return Observation(DISCARD_SIGNAL, move.seat, score(tuple(state.hands[nxt])), null)


def drop_observation(engine: RummyEngine, state: RummyState, move: Pick | Drop, rng: Stream, *,
                     redeals: int = REDEALS) -> Observation | None:
    """The observation of one first-drop decision (``None`` outside the exact window)."""
    seat = move.seat
    if move.auto or state.phase != PICK or state.has_picked[seat] or state.missed[seat] or state.reshuffles:
        return None
    others = unmoved(state, seat)
    if not others:
        return None
    high = engine.ruleset["high_card_points"]
    sign = 1 if isinstance(move, Drop) else -1

    def score(hands: Sequence[tuple[Card, ...]]) -> int:
        return sign * -min(min_points(h, state.wild, high=high) for h in hands)

    null = tuple(score(redeal(state, others, rng)) for _ in range(redeals))
    return Observation(DROP_SIGNAL, seat, score([tuple(state.hands[s]) for s in others]), null)


def hidden_signals(engine: RummyEngine, state: RummyState, move: Move, rng: Stream) -> list[Observation]:
    """``GAME.hidden_signals`` for 13-card Rummy: the pick (:mod:`.signals`), discard and
    drop observations of ``move`` made in ``state`` (the pick's redeals drawn first)."""
    found = pick_signals(engine, state, move, rng)
    if isinstance(move, Discard):
        obs = discard_observation(engine, state, move, rng)
    elif isinstance(move, (Pick, Drop)):
        obs = drop_observation(engine, state, move, rng)
    else:
        obs = None
    return found + ([obs] if obs is not None else [])
