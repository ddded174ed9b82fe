"""A seeded, reproducible rummy bot for simulations.

``choose_move(engine, state, rng)`` picks the move of the seat to act.  ``rng`` is anything
with ``randbelow(n)`` -- use :class:`replay.stream.Stream` (never :mod:`random`) so a
simulation replays exactly.  The bot plays sensibly enough that most deals end with a
valid declaration, and now and then does everything else the engine must handle:

* it keeps the cards that lower its solver points and discards the one whose loss costs
  least (ties: the card worth most points); it takes the open card when that lowers its
  points; it declares as soon as 13 of its 14 cards make a valid hand (R-7);
* it drops a bad hand on its first turn sometimes (R-16) and, in a deal that drags on, in
  the middle (R-17);
* now and then it lets the clock run out (the table auto-plays the turn, D-23), and a
  chair that has started missing turns tends to keep missing them, so the table drops it
  (R-19);
* very rarely it declares a hand that is nearly but not quite complete (R-18).
"""
from __future__ import annotations

from typing import Protocol

from replay.cards import Card
from replay.rummy.engine import DISCARD, PICK, TIMEOUT, RummyEngine, RummyState
from replay.rummy.groups import card_points
from replay.rummy.moves import Declare, Discard, Drop, Move, Pick
from replay.rummy.signals import use_of
from replay.rummy.solver import Solution, best_discard, min_points, solve

from ..collude import rummy_colluding

TIMEOUT_ODDS = 40        # 1 in 40 turns the clock runs out
COME_BACK_ODDS = 4       # a chair that missed a turn comes back 1 time in 4
FIRST_DROP_POINTS = 75   # a first hand this bad is dropped one time in three
LONG_DEAL_TURNS = 150    # after this many turns a poor hand may drop in the middle
HASTY_DECLARE_ODDS = 40  # 1 in 40 when one card short of complete: declare anyway


class RandomSource(Protocol):
    def randbelow(self, n: int) -> int: ...


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def _best_discard(engine: RummyEngine, hand: tuple[Card, ...], wild: int | None) -> tuple[int, Card, Solution]:
    """(points after, discard, solution) of the discard that leaves the fewest points."""
    high = engine.ruleset["high_card_points"]
    points, card = best_discard(hand, wild, high=high)
    return points, card, solve(_without(hand, card), wild, high=high)


def choose_move(engine: RummyEngine, state: RummyState, rng: RandomSource) -> Move:
    """The bot's move for the seat to act (see the module docstring)."""
    seat = state.turn
    hand = state.hands[seat]
    high = engine.ruleset["high_card_points"]
    if state.phase == TIMEOUT:
        return Drop(seat, auto=True)
    if state.phase == DISCARD:
        if state.picked_auto and state.picked is not None:  # an automatic pick is discarded at once
            return Discard(seat, state.picked, auto=True)
        points, card, sol = _best_discard(engine, hand, state.wild)
        if sol.is_complete:
            return Declare(seat, card, sol.groups)
        if points <= 10 and sol.case == "two_sequences" and rng.randbelow(HASTY_DECLARE_ODDS) == 0:
            shown = sol.groups + ((sol.loose,) if sol.loose else ())
            return Declare(seat, card, shown)  # a wrong declaration: not every card is grouped
        return Discard(seat, card)
    assert state.phase == PICK
    if state.missed[seat] > 0:
        times_out = rng.randbelow(COME_BACK_ODDS) != 0
    else:
        times_out = rng.randbelow(TIMEOUT_ODDS) == 0
    if times_out:
        auto = engine.auto_pick(state)
        if auto is not None:
            return auto
    now = solve(hand, state.wild, high=high)
    if not state.has_picked[seat] and now.points >= FIRST_DROP_POINTS and rng.randbelow(3) == 0:
        return Drop(seat)
    if state.turns > LONG_DEAL_TURNS and now.points >= 40 and rng.randbelow(8) == 0:
        return Drop(seat)
    if engine.can_pick_open(state):
        top = state.open_pile[-1]
        after, _card, _sol = _best_discard(engine, hand + (top,), state.wild)
        if after < now.points:
            return Pick(seat, "open", top)
    if state.closed:
        return Pick(seat, "closed")
    if engine.can_pick_open(state):
        return Pick(seat, "open", state.open_pile[-1])
    return Drop(seat)


def choose_peeking(engine: RummyEngine, state: RummyState, rng: RandomSource) -> Move:
    """A superuser's move (``docs/collusion.md``): it sees every hidden card.

    * at a pick where it may take either card, it takes whichever of the two top cards saves
      it more points (the open one on a tie);
    * at its first pick it drops (R-16) when its hand is poor (``PEEK_DROP_OWN`` points or
      more) and some opponent's is strong (``PEEK_DROP_THEIRS`` points or fewer), and never
      drops otherwise;
    * of the discards that leave it the fewest points, it throws the one that would save the
      next player the fewest points (the exact solver on that player's real hand);

    every other move is the honest bot's."""
    seat = state.turn
    hand, high = state.hands[seat], engine.ruleset["high_card_points"]
    if state.phase == DISCARD:
        return _peeking_discard(engine, state, rng)
    if state.phase != PICK:
        return choose_move(engine, state, rng)
    first = not state.has_picked[seat] and not state.missed[seat]
    if first:
        own = min_points(hand, state.wild, high=high)
        theirs = min(min_points(state.hands[s], state.wild, high=high)
                     for s in state.active() if s != seat)
        if own >= PEEK_DROP_OWN and theirs <= PEEK_DROP_THEIRS:
            return Drop(seat)
    if not state.closed or not engine.can_pick_open(state):
        move = choose_move(engine, state, rng)
        if first and isinstance(move, Drop) and state.closed:
            return Pick(seat, "closed")          # it plays on: the others are not that strong
        return move
    top, open_top = state.closed[0], state.open_pile[-1]
    if use_of(hand, top, state.wild, high=high) > use_of(hand, open_top, state.wild, high=high):
        return Pick(seat, "closed")
    return Pick(seat, "open", open_top)


PEEK_DROP_OWN = 60
PEEK_DROP_THEIRS = 40


def _peeking_discard(engine: RummyEngine, state: RummyState, rng: RandomSource) -> Move:
    move = choose_move(engine, state, rng)
    if not isinstance(move, Discard) or move.auto:
        return move
    from replay.rummy.discard_drop_signals import next_seat

    seat = state.turn
    hand, high, wild = state.hands[seat], engine.ruleset["high_card_points"], state.wild
    nxt = state.hands[next_seat(state, seat)]
    points = {card: min_points(_without(hand, card), wild, high=high) for card in set(hand)}
    least = min(points.values())
    tied = [c for c, p in points.items() if p == least]
    if len(tied) < 2:
        return move
    feed = {c: use_of(nxt, c, wild, high=high) for c in tied}
    best = min(tied, key=lambda c: (feed[c], -card_points(c, wild, high=high), c.code))
    return Discard(seat, best)


def choose_colluding(engine: RummyEngine, state: RummyState, rng: RandomSource, partner: int) -> Move:
    """The move of a seat that sees ``partner``'s hand (:mod:`audit.operator.sim.collude`):
    the honest move, or at a discard the near-best card that feeds or starves the partner."""
    return rummy_colluding(engine, state, partner, choose_move(engine, state, rng))
