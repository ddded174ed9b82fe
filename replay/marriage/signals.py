"""Marriage's pick signal: draws from the stock or the discards that line up
with how useful the stock's hidden top card was (``docs/collusion.md``; :mod:`replay.signals`).

At a draw the seat takes the stock's top card (hidden) or the latest discard (seen)
(MC-14).  The **use** of a card to the seat is how far it takes the seat's sets, as the seat
knows them (:func:`use_of`): the most cards of the hand already in one tunnela (MC-4) or
pure sequence (MC-5, MC-9) through the card -- the sets of the show (MN-14, MC-15) -- and,
once the seat has shown, in one trial through it (MC-7, a finishing combination, MC-20),
capped at 2 (the card completes the set); a card the seat knows is a joker (it sees the
maal) is worth 2 once it has shown (a joker completes a dirty combination, MC-6, MC-8).  The score of a draw against the hidden
top card is ``+use`` of that card when the seat took the stock and ``-use`` of it when it
took the discard: a seat that sees the stock takes it when it helps and leaves it when it
does not.

**Null world.** Nobody has seen the order of the stock (the tiplu, once drawn, is out of it:
MN-15, MC-15), so given everything at the table -- every hand, every visible card, every move
so far -- the stock's top card is equally likely to be any of its cards, a reshuffle's new
order included (D-6).  Redealing the top card from the stock's own cards (known after the
reveal) is exact for an honest seat, whatever its strategy.

Only real choices count: an ``auto`` draw (a timed-out turn), a draw where the discard may
not be taken (MC-17, MC-19, D-11) or the stock is empty, and the moves before the first draw
give nothing.  ``GAME.hidden_signals`` adds the discard and joker signals
(:mod:`.discard_joker_signals`).
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Callable

from ..cards import RANK_OF, SUIT_OF, Card
from ..melds import RUNS_OF_THREE
from ..signals import Observation
from ..stream import Stream
from .jokers import is_joker
from .moves import STOCK, Draw
from .state import DRAW, RoundState

if TYPE_CHECKING:
    from .engine import MarriageEngine

SIGNAL = "marriage.pick"
REDEALS = 2


def use_of(hand: Counter[Card], card: Card, *, shown: bool, joker: bool = False) -> int:
    """How far ``card`` takes the seat's sets (0, 1 or 2): the most cards of ``hand`` (a
    :class:`~collections.Counter`) already in one tunnela or pure sequence through the card,
    and once ``shown``, in one trial through it; a card the seat knows is a ``joker`` is
    worth 2 once shown."""
    if shown and joker:
        return 2
    code = card.code
    if code >= 52:
        return 0
    best = min(2, hand[card])                                   # a tunnela: the same card
    rank, suit = RANK_OF[code], SUIT_OF[code]
    for window in RUNS_OF_THREE:                                # a pure sequence through it
        if rank in window:
            have = sum(1 for r in window if r != rank and hand[Card(suit * 13 + r - 1)] > 0)
            best = max(best, have)
    if shown:                                                   # a trial: other suits, same rank
        suits = sum(1 for s in range(4) if s != suit and hand[Card(s * 13 + rank - 1)] > 0)
        best = max(best, min(2, suits))
    return best


def seat_use(engine: MarriageEngine, state: RoundState, seat: int) -> Callable[[Card], int]:
    """The use function of ``seat`` in ``state``: its hand, whether it has shown, the jokers it knows."""
    me = state.seat(seat)
    hand = Counter(me.hand)
    tiplu = state.tiplu if me.sees_maal else None
    shown = me.has_shown
    memo: dict[Card, int] = {}

    def use(card: Card) -> int:
        if card not in memo:
            joker = tiplu is not None and is_joker(card, tiplu, engine.ruleset)
            memo[card] = use_of(hand, card, shown=shown, joker=joker)
        return memo[card]
    return use


def pick_observation(engine: MarriageEngine, state: RoundState, move: Draw, rng: Stream, *, redeals: int = REDEALS) -> Observation | None:
    """The observation of one draw (``None`` when it was not a choice between two cards)."""
    if move.auto or state.phase != DRAW or not state.stock or not engine.can_take_discard(state):
        return None
    use = seat_use(engine, state, move.seat)
    sign = 1 if move.source == STOCK else -1
    stock = state.stock
    null = tuple(sign * use(stock[rng.randbelow(len(stock))]) for _ in range(redeals))
    return Observation(SIGNAL, move.seat, sign * use(stock[0]), null)
