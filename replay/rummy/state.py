"""The state of a Rummy deal: the frozen :class:`RummyState` and, for a replay that needs
only where a deal ends, its :class:`WorkingRummy`.

:class:`RummyState` is the value everyone sees (visitors, ``tiplu replay``, the website,
the bots): immutable, every move makes a new one.  :class:`WorkingRummy` holds the same
fields in lists that :meth:`replay.rummy.engine.RummyEngine.apply` changes in place -- one
state for a whole replay instead of a new frozen one per move.  It never leaves the
replay: :meth:`WorkingRummy.freeze` turns it back into the :class:`RummyState` with these
values.  The cards it holds are the same immutable :class:`~replay.cards.Card` values.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import final

from ..cards import Card
from ..fairness import HandRandomness

PLAYING = "playing"
PICK = "pick"
#: groups of cards as a declaration shows them (:class:`replay.rummy.moves.Declare`)
Groups = tuple[tuple[Card, ...], ...]


@final
@dataclass(frozen=True)
class RummyState:
    """Everything about a deal in progress.  ``open_pile`` is oldest first (top last);
    ``closed`` is top first.  ``phase``: ``pick``, ``discard`` (the seat has picked),
    ``timeout_drop`` (the table must drop the seat, D-23) or ``over``."""

    randomness: HandRandomness
    dealer: int
    indicator: Card
    wild: int | None
    hands: tuple[tuple[Card, ...], ...]
    closed: tuple[Card, ...]
    open_pile: tuple[Card, ...]
    turn: int
    phase: str = PICK
    picked: Card | None = None
    picked_auto: bool = False
    has_picked: tuple[bool, ...] = ()
    missed: tuple[int, ...] = ()
    status: tuple[str, ...] = ()
    shown: tuple[Groups | None, ...] = ()   # per seat, the groups it declared (None: none)
    finish: tuple[Card | None, ...] = ()
    reshuffles: int = 0
    turns: int = 0
    winner: int | None = None

    @property
    def n_seats(self) -> int:
        return len(self.hands)

    def active(self) -> list[int]:
        """Seats still playing."""
        return [s for s, st in enumerate(self.status) if st == PLAYING]


_FIELDS = tuple(f.name for f in fields(RummyState))
_values = attrgetter(*_FIELDS)


@final
class WorkingRummy:
    """A :class:`RummyState`'s values in lists a move changes in place (see the module)."""

    __slots__ = _FIELDS
    randomness: HandRandomness
    dealer: int
    indicator: Card
    wild: int | None
    hands: list[list[Card]]
    closed: list[Card]
    open_pile: list[Card]
    turn: int
    phase: str
    picked: Card | None
    picked_auto: bool
    has_picked: list[bool]
    missed: list[int]
    status: list[str]
    shown: list[Groups | None]
    finish: list[Card | None]
    reshuffles: int
    turns: int
    winner: int | None

    def __init__(self, state: RummyState) -> None:
        (self.randomness, self.dealer, self.indicator, self.wild, hands, closed, open_pile, self.turn,
         self.phase, self.picked, self.picked_auto, has_picked, missed, status, shown, finish,
         self.reshuffles, self.turns, self.winner) = _values(state)
        self.hands = [list(h) for h in hands]
        self.closed, self.open_pile = list(closed), list(open_pile)
        self.has_picked, self.missed, self.status = list(has_picked), list(missed), list(status)
        self.shown, self.finish = list(shown), list(finish)

    @property
    def n_seats(self) -> int:
        return len(self.hands)

    def active(self) -> list[int]:
        """Seats still playing."""
        return [s for s, st in enumerate(self.status) if st == PLAYING]

    def freeze(self) -> RummyState:
        """The frozen :class:`RummyState` with these values."""
        return RummyState(
            self.randomness, self.dealer, self.indicator, self.wild, tuple(map(tuple, self.hands)),
            tuple(self.closed), tuple(self.open_pile), self.turn, self.phase, self.picked, self.picked_auto,
            tuple(self.has_picked), tuple(self.missed), tuple(self.status), tuple(self.shown),
            tuple(self.finish), self.reshuffles, self.turns, self.winner)
