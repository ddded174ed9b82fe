"""Marriage's discard and joker signals: discards that avoid feeding the next player's hidden
sets, and draws that find the jokers in the hidden stock (``docs/collusion.md``;
:mod:`replay.signals`).  :func:`hidden_signals` is ``GAME.hidden_signals``: these two and
the pick signal of :mod:`.signals`.

* ``marriage.discard``: at a discard (not ``auto``, not a finish's) whose next seat (D-4) has
  **not moved yet** in the round, the score is minus the use of the discarded card to that
  seat's hand (:func:`~replay.marriage.signals.use_of`: how far it takes its tunnelas and
  pure sequences, MC-4, MC-5, MN-14; the next seat has not shown, so no trial and no joker
  counts).  Only the next seat may take the latest discard (MC-14).  An honest discard
  feeds the real next hand as much as a redealt one on average; a superuser's feeds it less.

  **Where the null is exact.** A seat's hidden hand stops being a fair redeal once it has
  acted on it (its draws, discards and shows say something about it, and an honest player
  may read them).  Before the seat's first move -- no draw, no tunnela laid at the deal, no
  dealt-hand show (MN-18..MN-21) -- nobody has acted on its cards: given every other hand,
  every move so far, the discards and the tiplu (drawn from the stock at a uniform
  position, D-5, so what is left of the stock and the unmoved hand are still one fair split),
  the seat's 21 cards and the stock are one random split of their union (a fair deal, MN-2,
  MN-4; no reshuffle has happened, D-6).  The null redeals that split.  It conditions on more
  than the discarder saw (the other hands, the stock's contents), which keeps it exact; the
  price is the window: about three discards a round at a table of four (the first turn of
  every seat but the last before the first player).

* ``marriage.joker``: at a draw where the seat may take either card (the windows of
  ``marriage.pick``), the score is ``+1`` when it took the stock and the stock's top card is
  a joker, ``-1`` when it took the discard and the top card is a joker, 0 otherwise.  A joker
  here is every card with a role under the **real** tiplu (MN-32, MN-26, MC-3) -- hidden from
  a seat that has not seen it (MN-17) -- and, before the first show, the putali and the master
  card (MN-28).  **Null world**: the stock's top card drawn from the stock's own cards, exact
  for the same reason as ``marriage.pick`` (nobody has seen the stock's order; given every
  hand, every move and the tiplu, its top card is any of its cards alike, D-6's new order
  included).  The tiplu being known to the null and not to the seat does not matter: what is
  redealt is the stock's order, never the tiplu, and an honest seat's draw does not depend on
  the order.  A seat that knows where the jokers are takes them; ``marriage.pick`` counts a
  joker only for a seat that has seen the tiplu and shown (a joker it cannot know is worth
  only its own rank and suit there), so this signal sees a joker hunter that one misses.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from ..cards import Card
from ..deal import left_of
from ..signals import Observation
from ..stream import Stream
from .jokers import joker_table
from .moves import STOCK, Discard, Draw
from .signals import pick_observation, use_of
from .state import DRAW, PLAY

DISCARD_SIGNAL = "marriage.discard"
JOKER_SIGNAL = "marriage.joker"
REDEALS = 2


def next_seat(engine: Any, state: Any, seat: int) -> int:
    """The seat that plays after ``seat`` (D-4, MC-33)."""
    return left_of(seat, state.n_seats, direction=engine.ruleset["direction"])


def has_moved(seat_state: Any) -> bool:
    """Whether a seat has made any move this round: a draw, a tunnela laid at the deal or a
    show (MN-18..MN-21)."""
    return bool(seat_state.has_drawn or seat_state.has_shown or seat_state.tunnelas_at_deal)


def redeal_hand(hand: Sequence[Card], stock: Sequence[Card], rng: Stream) -> tuple[Card, ...]:
    """An unmoved ``hand`` redealt with the ``stock``: one fair split of their union."""
    cards = rng.shuffle(list(hand) + list(stock))
    return tuple(cards[:len(hand)])


def in_discard_window(engine: Any, state: Any, move: Any) -> int | None:
    """The next seat when ``move`` is a real discard it may take and it has not moved yet
    (the exact window of ``marriage.discard`` and ``marriage.feed``), else ``None``."""
    if not isinstance(move, Discard) or move.auto or state.phase != PLAY or state.reshuffles:
        return None
    nxt = next_seat(engine, state, move.seat)
    if nxt == move.seat or has_moved(state.seat(nxt)):
        return None
    return nxt


def discard_observation(engine: Any, state: Any, move: Discard, rng: Stream, *,
                        redeals: int = REDEALS) -> Observation | None:
    """The observation of one discard (``None`` outside the exact window)."""
    nxt = in_discard_window(engine, state, move)
    if nxt is None:
        return None

    def score(hand: Sequence[Card]) -> int:
        return -use_of(Counter(hand), move.card, shown=False)

    hand = state.seat(nxt).hand
    null = tuple(score(redeal_hand(hand, state.stock, rng)) for _ in range(redeals))
    return Observation(DISCARD_SIGNAL, move.seat, score(hand), null)


def joker_observation(engine: Any, state: Any, move: Draw, rng: Stream, *,
                      redeals: int = REDEALS) -> Observation | None:
    """The observation of one draw against the real jokers (``None`` when it was not a
    choice between two cards)."""
    if move.auto or state.phase != DRAW or not state.stock or not engine.can_take_discard(state):
        return None
    jokers = joker_table(state.tiplu, engine.ruleset)
    sign = 1 if move.source == STOCK else -1
    stock = state.stock
    null = tuple(sign * jokers[stock[rng.randbelow(len(stock))].code] for _ in range(redeals))
    return Observation(JOKER_SIGNAL, move.seat, sign * jokers[stock[0].code], null)


def hidden_signals(engine: Any, state: Any, move: Any, rng: Stream) -> list[Observation]:
    """``GAME.hidden_signals`` for Marriage: the pick (:mod:`.signals`), joker and discard
    observations of ``move`` made in ``state`` (the pick's redeals drawn first)."""
    found: list[Observation | None] = []
    if isinstance(move, Draw):
        found.append(pick_observation(engine, state, move, rng))
        found.append(joker_observation(engine, state, move, rng))
    elif isinstance(move, Discard):
        found.append(discard_observation(engine, state, move, rng))
    return [obs for obs in found if obs is not None]
