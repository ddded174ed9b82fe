"""A colluding pair for the simulator: two seats that see each other's hands and play on it
(``docs/collusion.md``, "Pairs"; ``tiplu simulate --collude-seats A,B --collude-rate K``).

Each game's bot module exports its ``choose_colluding(engine, state, rng, partner)`` from here
(:func:`audit.operator.sim.bots.bot_for` finds it, role ``colluding``, by the game's name):
the move of the seat to act when it knows ``partner``'s hand.  What a real pair would do
with that knowledge, per game:

* **Kitti** -- the pair wins a round when the stronger of its two sets does.  The seat takes
  its partner to play the default arrangement and picks the split whose sets, round by
  round, add most to the pair's stronger set (the sum over rounds of the share of the
  pair's best set, :func:`replay.kitti.strategy.share_table`; its own score breaks ties):
  strong sets where the partner is weak, weak ones where the partner is strong.  It never
  folds.
* **13-card Rummy** -- at a discard, among the cards whose loss costs the seat no more than
  :data:`RUMMY_SLACK` points over its best discard, it throws the one most useful to its
  partner when the partner picks next (feeding), and the one least useful to the partner
  otherwise (holding what the partner needs for later).  At its first pick, while the partner
  has not moved yet, it stands aside (soft play): it drops (R-16) when the partner's hand
  counts at most :data:`SOFT_PARTNER` points and its own at least :data:`SOFT_OWN`.  Every
  other move is the honest bot's.
"""
from __future__ import annotations

from typing import Any, Callable

from replay.cards import Card
from replay.kitti.moves import Arrange
from replay.kitti.signals import reference_keys
from replay.kitti.strategy import scored_splits, sets_of, share_table
from replay.rummy.discard_drop_signals import unmoved
from replay.rummy.engine import DISCARD, PICK, RummyEngine
from replay.rummy.state import PLAYING, RummyState
from replay.rummy.moves import Declare, Discard, Drop, Move
from replay.rummy.signals import use_of
from replay.rummy.solver import min_points

#: Points over its best discard a colluding Rummy seat gives up to feed (or starve) its partner.
RUMMY_SLACK = 5
#: A colluding Rummy seat drops at its first pick when its unmoved partner's hand counts at
#: most this many points ...
SOFT_PARTNER = 40
#: ... and its own at least this many (a poor hand it would only play against the partner).
SOFT_OWN = 50

ChooseColluding = Callable[[Any, Any, Any, int], Any]


def kitti_colluding(engine: Any, state: Any, rng: Any, partner: int) -> Any:
    seat = engine.to_move(state)
    hand, ranker = state.hands[seat], engine.ranker
    theirs = reference_keys(state.hands[partner], ranker)
    shares = share_table(ranker)

    rivals = len(state.hands) - 2

    def value(split: tuple[int, tuple[int, ...], tuple[int, ...]]) -> tuple[int, int, tuple[int, ...]]:
        score, keys, _pos = split
        return sum(shares[max(k, p)] ** rivals for k, p in zip(keys, theirs) if k != p), score, keys

    best = max(scored_splits(hand, ranker), key=value)
    return Arrange(seat, sets_of(hand, best[2], ranker))


def _next_to_pick(state: Any, seat: int) -> int | None:
    n = len(state.hands)
    for step in range(1, n):
        s = (seat + step) % n
        if state.status[s] == PLAYING:
            return s
    return None


def _soft_drop(engine: RummyEngine, state: RummyState, partner: int, honest: Move) -> Move:
    """At the seat's first pick, with the partner not moved yet: drop when the partner is
    strong and the seat is not (soft play); otherwise the honest move."""
    seat = state.turn
    if (getattr(honest, "auto", False) or state.has_picked[seat] or state.missed[seat]
            or partner not in unmoved(state, seat)):
        return honest
    high = engine.ruleset["high_card_points"]
    if (min_points(state.hands[partner], state.wild, high=high) <= SOFT_PARTNER
            and min_points(state.hands[seat], state.wild, high=high) >= SOFT_OWN):
        return Drop(seat)
    return honest


def rummy_colluding(engine: RummyEngine, state: RummyState, partner: int, honest: Move) -> Move:
    """The move of a seat playing for ``partner``, given the ``honest`` bot's move
    (``audit.operator.sim.bots.rummy13.choose_colluding`` passes it)."""
    if state.phase == PICK:
        return _soft_drop(engine, state, partner, honest)
    if state.phase != DISCARD or not isinstance(honest, Discard) or honest.auto or isinstance(honest, Declare):
        return honest
    seat, high = state.turn, engine.ruleset["high_card_points"]
    if state.status[partner] != PLAYING:
        return honest
    hand = tuple(state.hands[seat])
    mate = tuple(state.hands[partner])
    feeding = _next_to_pick(state, seat) == partner
    costs: dict[Card, int] = {}
    for i, card in enumerate(hand):
        if card not in costs:
            costs[card] = min_points(hand[:i] + hand[i + 1:], state.wild, high=high)
    least = min(costs.values())
    near = [c for c in sorted(costs, key=lambda c: c.code) if costs[c] <= least + RUMMY_SLACK]
    use = {c: use_of(mate, c, state.wild, high=high) for c in near}
    if feeding:
        pick = max(near, key=lambda c: (use[c], -costs[c]))
    else:
        pick = min(near, key=lambda c: (use[c], costs[c]))
    if use[pick] == use.get(honest.card, None):
        return honest
    return Discard(seat, pick)

