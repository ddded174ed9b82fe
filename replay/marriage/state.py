"""The state of a Marriage round: immutable values the engine replaces move by move.

Terms (the rule files' words):

* **stock** -- the face-down cards to draw, top first.  The tiplu is never in it: in
  ``marriage/nepal`` it is out of play (MN-15); in ``marriage/classic`` it lies face down
  under the stock and is never drawn (MC-15, MC-24), which :attr:`RoundState.tiplu_under_stock`
  records.
* **discards** -- the face-up pile, oldest first; only the last (latest) may be taken (MC-14).
* **tunnelas at the deal** -- tunnelas laid before the player's first draw (MN-19, MC-13).
* **shown** -- the sets laid at the show (three pure sets less the tunnelas at the deal,
  MN-14 / MC-15; or seven dublees, MN-16 / MC-18).  ``has_shown`` is the "seen" mark
  (MN-17: set at once) that payments read; ``sees_maal`` says whether the player knows the
  tiplu yet (``see_maal = after_discard``: only after the discard that follows the show).
* **phase** -- ``draw`` (the player to move has not drawn this turn; the two moves before
  the first draw live here, MN-18) or ``play`` (drawn: show, finish or discard).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import MISSING, dataclass, field, fields
from itertools import chain
from operator import attrgetter
from typing import Any, Iterable

from ..cards import Card
from ..fairness import HandRandomness
from ..dataclass_replace import replace

DRAW = "draw"
PLAY = "play"
OVER = "over"

VOID_STOCK = "stock"        # D-6: even a reshuffle leaves no card to draw
VOID_TURN_CAP = "turn_cap"  # D-10: the table's turn cap was reached

_CODE = attrgetter("code")


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """A hand as a canonical multiset: cards sorted by code."""
    return tuple(sorted(cards, key=_CODE))


def insert_card(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``hand`` with ``card`` added: ``sort_cards(hand + (card,))``, by bisection when
    ``hand`` is sorted already (as the engine keeps every hand)."""
    codes = [c.code for c in hand]
    if codes != sorted(codes):
        return sort_cards(hand + (card,))
    i = bisect_right(codes, card.code)
    return hand[:i] + (card,) + hand[i:]


def remove_cards(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...] | None:
    """``hand`` less ``cards`` (as multisets), sorted, or ``None`` if the hand lacks one of them."""
    rest = list(hand)
    codes = [c.code for c in rest]     # found by code: int comparisons, not Card.__eq__ calls
    ordered = codes == sorted(codes)   # then what is left is sorted too
    for card in cards:
        try:
            i = codes.index(card.code)
        except ValueError:
            return None
        del rest[i], codes[i]
    return tuple(rest) if ordered else sort_cards(rest)


@dataclass(frozen=True, slots=True)
class SeatState:
    """One player's cards and marks."""

    hand: tuple[Card, ...]
    tunnelas_at_deal: tuple[tuple[Card, ...], ...] = ()
    shown: tuple[tuple[Card, ...], ...] = ()
    dublee: bool = False        # showed seven dublees
    has_shown: bool = False     # the "seen" mark (MN-17)
    sees_maal: bool = False     # knows the tiplu
    has_drawn: bool = False     # drew at least once this round (MN-18)

    @property
    def table(self) -> tuple[Card, ...]:
        """Every card this player has laid on the table (tunnelas at the deal included)."""
        return tuple(chain.from_iterable(self.tunnelas_at_deal + self.shown))

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": [str(c) for c in self.hand],
            "tunnelas_at_deal": [[str(c) for c in g] for g in self.tunnelas_at_deal],
            "shown": [[str(c) for c in g] for g in self.shown],
            "dublee": self.dublee, "has_shown": self.has_shown, "sees_maal": self.sees_maal,
            "has_drawn": self.has_drawn,
        }


@dataclass(frozen=True, slots=True)
class FinishRecord:
    """How the winner finished: the groups laid, the last discard, dublees or not."""

    groups: tuple[tuple[Card, ...], ...]
    discard: Card
    dublee: bool


@dataclass(frozen=True, slots=True)
class RoundState:
    """Everything about a round in progress or over.  Never mutated: the engine returns a
    new value for every move (:func:`replay.dataclass_replace.replace`)."""

    n_seats: int
    dealer: int
    seats: tuple[SeatState, ...]
    stock: tuple[Card, ...]
    discards: tuple[Card, ...]
    turn_seat: int
    phase: str = DRAW
    tiplu: Card | None = None
    tiplu_under_stock: bool = False
    taken: Card | None = None        # the discard taken this turn (MC-14)
    drawn: Card | None = None        # the card drawn this turn
    auto_turn: bool = False          # this turn's draw was an auto-play (timeout)
    shown_this_turn: bool = False
    must_finish: bool = False        # MC-19: a dublee player took a discard to finish
    turns: int = 0                   # completed turns (discards)
    reshuffles: int = 0              # D-6 reshuffles so far
    winner: int | None = None
    finish: FinishRecord | None = None
    void_reason: str | None = None
    moves: int = 0                   # moves applied
    randomness: HandRandomness | None = field(default=None, repr=False, compare=False)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def to_move(self) -> int | None:
        return None if self.phase == OVER else self.turn_seat

    def seat(self, i: int) -> SeatState:
        return self.seats[i]

    @classmethod
    def position(cls, hands: Iterable[Iterable[Card]], *, stock: Iterable[Card], discards: Iterable[Card],
                 turn_seat: int = 0, dealer: int | None = None, randomness: HandRandomness | None = None,
                 seats: dict[int, dict[str, Any]] | None = None, **changes: Any) -> "RoundState":
        """A chosen position (for tests, examples and puzzles): the given hands, stock (top
        first) and discards (oldest first); ``seats`` maps a seat to :class:`SeatState`
        fields to set (``{1: {"has_drawn": True}}``); ``changes`` sets round fields."""
        hands = [sort_cards(h) for h in hands]
        n = len(hands)
        made = [SeatState(hand=h) for h in hands]
        for i, seat_fields in (seats or {}).items():
            made[i] = replace(made[i], **seat_fields)
        return cls(n_seats=n, dealer=(turn_seat - 1) % n if dealer is None else dealer, seats=tuple(made),
                   stock=tuple(stock), discards=tuple(discards), turn_seat=turn_seat,
                   randomness=randomness, **changes)

    def to_json(self) -> dict[str, Any]:
        """The whole state, for debugging and for the website (the stock included)."""
        return {
            "n_seats": self.n_seats, "dealer": self.dealer, "turn_seat": self.turn_seat,
            "phase": self.phase, "turns": self.turns, "reshuffles": self.reshuffles,
            "tiplu": str(self.tiplu) if self.tiplu else None,
            "tiplu_under_stock": self.tiplu_under_stock,
            "stock": [str(c) for c in self.stock], "discards": [str(c) for c in self.discards],
            "taken": str(self.taken) if self.taken else None,
            "seats": [s.to_json() for s in self.seats],
            "winner": self.winner, "void_reason": self.void_reason,
        }


# --- working state: confined to one replay ------------------------------------------------

_SEAT_FIELDS = tuple(f.name for f in fields(SeatState))
_ROUND_FIELDS = tuple(f.name for f in fields(RoundState))
_seat_values = attrgetter(*_SEAT_FIELDS)
_round_values = attrgetter(*_ROUND_FIELDS)
_SEATS_AT = _ROUND_FIELDS.index("seats")
_STOCK_AT = _ROUND_FIELDS.index("stock")
_ROUND_AT = {name: i for i, name in enumerate(_ROUND_FIELDS)}
#: the defaults of the fields (None where a field has none: the caller gives those)
_ROUND_DEFAULTS = tuple(None if f.default is MISSING else f.default for f in fields(RoundState))
_SEAT_DEFAULTS = tuple(None if f.default is MISSING else f.default for f in fields(SeatState))
_DISCARDS_AT = _ROUND_FIELDS.index("discards")


class WorkingSeat:
    """One seat of a :class:`WorkingRound`: the fields of :class:`SeatState`, changed in place.

    The hand is a list here (a tuple again in :meth:`freeze`), with ``codes``, its cards'
    codes in the same order; ``ordered`` says both are sorted by code (as the engine keeps
    every hand; checked once when the seat is copied), so :meth:`add` and :meth:`remove`
    find a card's place by bisection and change the two lists in place."""

    __slots__ = _SEAT_FIELDS + ("codes", "ordered")

    @classmethod
    def dealt(cls, hand: tuple[Card, ...]) -> "WorkingSeat":
        """``WorkingSeat(SeatState(hand=hand))`` for a hand sorted by code (checked),
        every other field at :class:`SeatState`'s default."""
        seat = cls.__new__(cls)
        (_, seat.tunnelas_at_deal, seat.shown, seat.dublee, seat.has_shown, seat.sees_maal,
         seat.has_drawn) = _SEAT_DEFAULTS
        seat.hand = list(hand)
        codes = seat.codes = [c.code for c in hand]
        seat.ordered = codes == sorted(codes)
        return seat

    def __init__(self, seat: SeatState) -> None:
        # the fields of SeatState, in order (one unpacking: a replay copies seats often)
        (hand, self.tunnelas_at_deal, self.shown, self.dublee, self.has_shown, self.sees_maal,
         self.has_drawn) = _seat_values(seat)
        self.hand = list(hand)
        codes = self.codes = [c.code for c in hand]
        self.ordered = codes == sorted(codes)

    def hand_with(self, card: Card) -> tuple[Card, ...]:
        """The hand with ``card`` added (:func:`insert_card`), the seat unchanged."""
        if not self.ordered:
            return insert_card(tuple(self.hand), card)
        hand = self.hand
        i = bisect_right(self.codes, card.code)
        return (*hand[:i], card, *hand[i:])

    def hand_without(self, card: Card) -> tuple[Card, ...] | None:
        """The hand less one ``card``, or ``None`` if it lacks it (:func:`remove_cards`),
        the seat unchanged."""
        if not self.ordered:
            return remove_cards(self.hand, (card,))
        i = self.find(card)
        if i is None:
            return None
        hand = self.hand
        return (*hand[:i], *hand[i + 1:])

    def find(self, card: Card) -> int | None:
        """Where ``card`` is in a sorted hand (the first copy), or ``None``."""
        code = card.code
        codes = self.codes
        i = bisect_left(codes, code)
        return i if i < len(codes) and codes[i] == code else None

    def add(self, card: Card) -> None:
        """Put ``card`` into the hand, in its place: ``hand_with``, in place."""
        if not self.ordered:
            self.set_hand(insert_card(tuple(self.hand), card))
            return
        code = card.code
        i = bisect_right(self.codes, code)
        self.codes.insert(i, code)
        self.hand.insert(i, card)

    def take(self, cards: Iterable[Card]) -> bool:
        """Take ``cards`` out of the hand (as multisets, :func:`remove_cards`) if it holds
        them all: ``True``; else ``False``, the seat unchanged."""
        if not self.ordered:
            hand = remove_cards(self.hand, cards)
            if hand is None:
                return False
            self.set_hand(hand)
            return True
        hand, codes = self.hand[:], self.codes[:]
        for card in cards:
            code = card.code
            i = bisect_left(codes, code)
            if i == len(codes) or codes[i] != code:
                return False
            del hand[i], codes[i]
        self.hand, self.codes = hand, codes
        return True

    def remove_at(self, i: int) -> None:
        """Take the card at ``i`` (from :meth:`find`) out of a sorted hand."""
        del self.hand[i], self.codes[i]

    def set_hand(self, hand: Iterable[Card]) -> None:
        """Set a sorted hand (what the methods above and the module's functions give)."""
        self.hand = list(hand)
        self.codes = [c.code for c in self.hand]
        self.ordered = True

    table = SeatState.table

    def freeze(self) -> SeatState:
        return SeatState(tuple(self.hand), self.tunnelas_at_deal, self.shown, self.dublee, self.has_shown,
                         self.sees_maal, self.has_drawn)


class WorkingRound:
    """A round's state confined to one replay: the engine changes it in place.

    :meth:`MarriageEngine.apply <replay.marriage.engine.MarriageEngine.apply>` works on
    one of these: a replay that only needs the final state -- an audit -- gets one from
    :meth:`~replay.marriage.engine.MarriageEngine.working` and every move changes it in
    place; a frozen :class:`RoundState` given to ``apply`` is copied into one, and the
    result frozen again.  It never leaves the replay: :meth:`freeze` turns it back into a
    :class:`RoundState`.  The stock and the discards are lists here (top first, oldest
    first, as the tuples of the frozen state), changed in place; the other values are the
    frozen state's own immutable ones.  A seat stays the frozen :class:`SeatState` until a
    move changes it (:meth:`thaw`).  Every handler raises before it changes anything, so a
    move that is refused leaves the working state as it was (report mode goes on from it).
    """

    __slots__ = _ROUND_FIELDS

    def __init__(self, state: RoundState) -> None:
        self._load(_round_values(state))
        self.seats = list(self.seats)

    def _load(self, values: tuple[Any, ...]) -> None:
        # the fields of RoundState, in order (one unpacking: ``apply`` copies frozen states)
        (self.n_seats, self.dealer, self.seats, stock, discards, self.turn_seat, self.phase,
         self.tiplu, self.tiplu_under_stock, self.taken, self.drawn, self.auto_turn, self.shown_this_turn,
         self.must_finish, self.turns, self.reshuffles, self.winner, self.finish, self.void_reason,
         self.moves, self.randomness) = values
        self.stock = list(stock)
        self.discards = list(discards)

    @classmethod
    def dealt(cls, *, n_seats: int, dealer: int, hands: Iterable[tuple[Card, ...]], stock: Iterable[Card],
              discards: Iterable[Card], turn_seat: int, randomness: HandRandomness | None) -> "WorkingRound":
        """``WorkingRound(RoundState(n_seats=..., seats=(SeatState(hand=h) for h in hands), ...))``
        built at once, every other field at :class:`RoundState`'s default and each seat a
        :class:`WorkingSeat` already (``hands`` sorted by code, as the engine deals them)."""
        state = cls.__new__(cls)
        values = list(_ROUND_DEFAULTS)
        values[_SEATS_AT] = [WorkingSeat.dealt(h) for h in hands]
        values[_STOCK_AT], values[_DISCARDS_AT] = stock, discards
        for name, value in (("n_seats", n_seats), ("dealer", dealer), ("turn_seat", turn_seat),
                            ("randomness", randomness)):
            values[_ROUND_AT[name]] = value
        state._load(values)
        return state

    is_over = RoundState.is_over
    to_move = RoundState.to_move

    def seat(self, i: int) -> "SeatState | WorkingSeat":
        return self.seats[i]

    def thaw(self, i: int) -> WorkingSeat:
        """Seat ``i``, as a :class:`WorkingSeat` a move may change in place."""
        seat = self.seats[i]
        if type(seat) is not WorkingSeat:
            seat = self.seats[i] = WorkingSeat(seat)
        return seat

    def freeze(self) -> RoundState:
        """The frozen :class:`RoundState` with these values."""
        values = list(_round_values(self))
        values[_SEATS_AT] = tuple([s.freeze() if type(s) is WorkingSeat else s for s in self.seats])
        values[_STOCK_AT] = tuple(self.stock)
        values[_DISCARDS_AT] = tuple(self.discards)
        return RoundState(*values)
