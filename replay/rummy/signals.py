"""13-card Rummy's hidden-information signal: picks from the closed stock that line up with
how useful its hidden top card was (``docs/collusion.md``; :mod:`replay.signals`).

At a pick the seat chooses the closed stock's top card (hidden) or the open pile's top card
(seen) (R-6).  The **use** of a card to the seat is how many points it saves: the least
points of the seat's 13 cards now, less the least points of its 14 cards with that card
after the best discard (the solver, R-12..R-15: :func:`~replay.rummy.solver.solve`).  The
score of the choice against the hidden top card is ``+use`` when the seat took the closed
card and ``-use`` when it took the open one -- a seat that sees the stock takes it when it
helps and leaves it when it does not.

**Null world.** Nobody has seen the order of the closed stock, so given everything at the
table (the seat's cards, every visible card, every move so far) and the stock's contents,
its top card is equally likely to be any card of the stock.  Redealing the top card from
the stock's own cards (known after the reveal) is exact for an honest seat, whatever its
strategy or the other seats' hands.

Only real choices count: a pick the table made for an absent seat (``auto``), a pick when
the open card may not be taken (D-24) or the stock is empty, gives nothing.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Card
from ..signals import Observation
from ..stream import Stream
from .moves import Pick
from .solver import best_discard, min_points
from .state import PICK

if TYPE_CHECKING:
    from ..game import Move
    from .engine import RummyEngine
    from .state import RummyState

SIGNAL = "rummy13.pick"
REDEALS = 2


def use_of(hand: tuple[Card, ...], card: Card, wild: int | None, *, high: int) -> int:
    """The points ``card`` saves the seat: least points of ``hand`` now, less the least of
    ``hand + card`` after its best discard (R-12; :func:`~replay.rummy.solver.best_discard`,
    whose points are memoised)."""
    return min_points(hand, wild, high=high) - best_discard(hand + (card,), wild, high=high)[0]


def pick_observation(engine: RummyEngine, state: RummyState, move: Pick, rng: Stream, *,
                     redeals: int = REDEALS) -> Observation | None:
    """The observation of one pick (``None`` when it was not a choice between two cards)."""
    if move.auto or state.phase != PICK or not state.closed or not engine.can_pick_open(state):
        return None
    seat, high = move.seat, engine.ruleset["high_card_points"]
    hand = tuple(state.hands[seat])
    sign = 1 if move.source == "closed" else -1
    memo: dict[Card, int] = {}

    def score(card: Card) -> int:
        if card not in memo:
            memo[card] = use_of(hand, card, state.wild, high=high)
        return sign * memo[card]

    stock = list(state.closed)
    null = tuple(score(stock[rng.randbelow(len(stock))]) for _ in range(redeals))
    return Observation(SIGNAL, seat, score(stock[0]), null)


def pick_signals(engine: RummyEngine, state: RummyState, move: Move, rng: Stream) -> list[Observation]:
    """The pick observation of ``move`` (``GAME.hidden_signals`` adds the discard and drop
    signals: :mod:`.discard_drop_signals`)."""
    if not isinstance(move, Pick):
        return []
    obs = pick_observation(engine, state, move, rng)
    return [obs] if obs is not None else []
