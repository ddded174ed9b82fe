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
from dataclasses import dataclass, field, fields
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Iterable

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
        made = [SeatState(hand=sort_cards(h)) for h in hands]
        n = len(made)
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


# --- the replay's own state: the same values, changed in place ----------------------------

_seat_values = attrgetter(*(f.name for f in fields(SeatState)))
_round_values = attrgetter(*(f.name for f in fields(RoundState)))
_SEATS_AT = [f.name for f in fields(RoundState)].index("seats")


class WorkingSeat(SeatState):
    """A :class:`SeatState` that one replay owns: the same fields and the same values
    (the hand a tuple sorted by code), which :class:`~replay.marriage.turns.Turns` assigns
    in place instead of making a new seat per move.  Made by :meth:`WorkingRound.thaw`;
    never seen outside the engine (:meth:`freeze` gives the value back).

    Beside the hand it keeps ``codes``, its cards' codes in the same order (a list), so a
    card's place is found by bisecting ints; every change of the hand goes through the
    methods below, which keep the two in step."""

    __slots__ = ("codes",)
    # the frozen dataclass's checks lifted (both: CPython keeps one slot for setting and
    # deleting, which is the plain one only when neither is overridden in Python)
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    if TYPE_CHECKING:   # what the engine assigns (the fields are read-only on SeatState)
        hand: tuple[Card, ...]
        tunnelas_at_deal: tuple[tuple[Card, ...], ...]
        shown: tuple[tuple[Card, ...], ...]
        dublee: bool
        has_shown: bool
        sees_maal: bool
        has_drawn: bool
    codes: list[int]

    def __hash__(self) -> int:
        raise TypeError("a working seat changes in place: it has no hash")

    @classmethod
    def dealt(cls, hand: tuple[Card, ...]) -> WorkingSeat:
        """``WorkingSeat.of(SeatState(hand=hand))`` for a hand sorted by code, built at once."""
        own = cls.__new__(cls)
        own.hand, own.codes = hand, [c.code for c in hand]
        own.tunnelas_at_deal = own.shown = ()
        own.dublee = own.has_shown = own.sees_maal = own.has_drawn = False
        return own

    @classmethod
    def of(cls, seat: SeatState) -> WorkingSeat:
        """A working copy of ``seat``, its hand sorted by code (as the engine keeps every
        hand; only a hand-made position can hold another order)."""
        own = cls.__new__(cls)
        # the fields of SeatState, in order (one unpacking; a field added to SeatState and
        # not here fails loudly)
        (hand, own.tunnelas_at_deal, own.shown, own.dublee, own.has_shown, own.sees_maal,
         own.has_drawn) = _seat_values(seat)
        codes = [c.code for c in hand]
        if codes != sorted(codes):
            hand = sort_cards(hand)
            codes.sort()
        own.hand, own.codes = hand, codes
        return own

    def find(self, card: Card) -> int | None:
        """Where ``card`` is in the hand (its first copy), or ``None``."""
        code = card.code
        codes = self.codes
        i = bisect_left(codes, code)
        return i if i < len(codes) and codes[i] == code else None

    def add(self, card: Card) -> None:
        """Put ``card`` into the hand, in its place."""
        code = card.code
        i = bisect_right(self.codes, code)
        self.codes.insert(i, code)
        hand = self.hand
        self.hand = hand[:i] + (card,) + hand[i:]

    def remove_at(self, i: int) -> None:
        """Take the card at ``i`` (from :meth:`find`) out of the hand."""
        del self.codes[i]
        hand = self.hand
        self.hand = hand[:i] + hand[i + 1:]

    def take(self, cards: Iterable[Card]) -> bool:
        """Take ``cards`` out of the hand (as multisets) if it holds them all: ``True``;
        else ``False``, the seat unchanged."""
        hand, codes = list(self.hand), self.codes[:]
        for card in cards:
            code = card.code
            i = bisect_left(codes, code)
            if i == len(codes) or codes[i] != code:
                return False
            del hand[i], codes[i]
        self.hand, self.codes = tuple(hand), codes
        return True

    def freeze(self) -> SeatState:
        return SeatState(*_seat_values(self))


class WorkingRound(RoundState):
    """A :class:`RoundState` that one replay owns: the same fields and the same values,
    which :class:`~replay.marriage.turns.Turns` assigns in place.

    :meth:`MarriageEngine.apply <replay.marriage.engine.MarriageEngine.apply>` works on
    one of these: a replay that only needs the final state -- an audit -- is dealt into one
    (:meth:`~replay.marriage.engine.MarriageEngine.start_working`) and every move changes
    it in place; a frozen :class:`RoundState` given to ``apply`` is copied into one
    (:meth:`of`), and the result frozen again (:meth:`freeze`).  A seat stays the frozen
    :class:`SeatState` until a move changes it (:meth:`thaw`).  Every handler raises before
    it changes anything, so a refused move leaves the working state as it was (report mode
    goes on from it).
    """

    __slots__ = ()
    # the frozen dataclass's checks lifted (both: CPython keeps one slot for setting and
    # deleting, which is the plain one only when neither is overridden in Python)
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    if TYPE_CHECKING:   # what the engine assigns (the fields are read-only on RoundState)
        n_seats: int
        dealer: int
        seats: tuple[SeatState, ...]
        stock: tuple[Card, ...]
        discards: tuple[Card, ...]
        turn_seat: int
        phase: str
        tiplu: Card | None
        tiplu_under_stock: bool
        taken: Card | None
        drawn: Card | None
        auto_turn: bool
        shown_this_turn: bool
        must_finish: bool
        turns: int
        reshuffles: int
        winner: int | None
        finish: FinishRecord | None
        void_reason: str | None
        moves: int
        randomness: HandRandomness | None

    def __hash__(self) -> int:
        raise TypeError("a working round changes in place: it has no hash")

    @classmethod
    def of(cls, state: RoundState) -> WorkingRound:
        """A working copy of ``state`` (its seats thawed when a move first changes them)."""
        own = cls.__new__(cls)
        # the fields of RoundState, in order (one unpacking: ``apply`` copies frozen states)
        (own.n_seats, own.dealer, own.seats, own.stock, own.discards, own.turn_seat, own.phase, own.tiplu,
         own.tiplu_under_stock, own.taken, own.drawn, own.auto_turn, own.shown_this_turn, own.must_finish,
         own.turns, own.reshuffles, own.winner, own.finish, own.void_reason, own.moves,
         own.randomness) = _round_values(state)
        return own

    def thaw(self, i: int) -> WorkingSeat:
        """Seat ``i``, as a :class:`WorkingSeat` a move may change in place."""
        seat = self.seats[i]
        if type(seat) is WorkingSeat:
            return seat
        own = WorkingSeat.of(seat)
        seats = self.seats
        self.seats = seats[:i] + (own,) + seats[i + 1:]
        return own

    def freeze(self) -> RoundState:
        """The frozen :class:`RoundState` with these values."""
        values = list(_round_values(self))
        values[_SEATS_AT] = tuple([s.freeze() if type(s) is WorkingSeat else s for s in self.seats])
        return RoundState(*values)
