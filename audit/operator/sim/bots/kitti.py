"""A seeded, reproducible Kitti bot for simulations and tests.

``choose_move(engine, state, rng)`` needs only ``rng.randbelow(n)`` -- pass a
:class:`replay.stream.Stream` (``randomness.stream("bot:3")``) and the same seeds give the
same moves, bit for bit.  It never touches :mod:`random`.

Policy (scores are the integer shares of :mod:`replay.kitti.strategy`):

* with probability :data:`TIMEOUT_PER_MILLE`/1000 it "times out": the move is the default
  arrangement flagged ``auto`` -- what the operator records for an absent seat;
* a very weak hand (best score below :data:`FOLD_BELOW` of the maximum, about the weakest
  3 % of hands) folds half the time (K-5: folding only saves the salami);
* otherwise it plays the best-scoring arrangement, or one time in four the second best,
  so bot tables are not all alike.
"""
from __future__ import annotations

from typing import Protocol

from replay.kitti.engine import KittiEngine, KittiState
from replay.kitti.moves import Arrange, Fold, Move
from replay.kitti.signals import reference_keys, rounds_won
from replay.kitti.strategy import N_SETS, default_arrangement, scored_splits, sets_of

from ..collude import kitti_colluding as choose_colluding  # noqa: F401 - the bot's colluding move (bot_for, role colluding)

TIMEOUT_PER_MILLE = 20
FOLD_BELOW = 2.2 * 2 * N_SETS  # score of a hand whose best sets win ~2.2 rounds' worth of shares
FOLD_BELOW_INT = int(FOLD_BELOW)


class RandBelow(Protocol):
    def randbelow(self, n: int) -> int: ...


def choose_move(engine: KittiEngine, state: KittiState, rng: RandBelow) -> Move:
    """The bot's move for the seat to act (see the module docstring)."""
    seat = engine.to_move(state)
    if seat is None:
        raise ValueError("the deal is over: no seat to move")
    hand = state.hands[seat]
    if rng.randbelow(1000) < TIMEOUT_PER_MILLE:
        return Arrange(seat, default_arrangement(hand, engine.ranker), auto=True)
    ranked = sorted(scored_splits(hand, engine.ranker), key=lambda t: (t[0], t[1]), reverse=True)
    if ranked[0][0] < FOLD_BELOW_INT and rng.randbelow(2) == 0:
        return Fold(seat)
    pick = ranked[1] if rng.randbelow(4) == 0 else ranked[0]
    return Arrange(seat, sets_of(hand, pick[2], engine.ranker))


def choose_peeking(engine: KittiEngine, state: KittiState, rng: RandBelow) -> Move:
    """A superuser's move (``docs/collusion.md``): it sees every other hand, guesses each is
    played as its default arrangement, and plays the split that wins the most rounds against
    them (the best-scoring split among equals).  It never folds: it knows when it wins."""
    seat = engine.to_move(state)
    if seat is None:
        raise ValueError("the deal is over: no seat to move")
    hand = state.hands[seat]
    others = [reference_keys(state.hands[s], engine.ranker) for s in range(state.n_seats) if s != seat]
    best = max(scored_splits(hand, engine.ranker), key=lambda t: (rounds_won(t[1], others), t[0], t[1]))
    return Arrange(seat, sets_of(hand, best[2], engine.ranker))
