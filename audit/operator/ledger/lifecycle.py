"""A hand's lifecycle as a state machine, declared once as data.

::

    created --commit--> committed --seed_commit (each seat once)--> seeds-committed
      |                    |                                            |
      |                    |                        seed_reveal (each seat once, checked)
      |                    |                                            v
      +------cancel--------+--------------cancel-------------- seeds-revealed (all seats)
      v                                                                 |
    cancelled                                                         deal
                                                                        v
                                   revealed <--reveal-- finished <--finish-- dealt

``seeds-committed`` lasts while reveals come in: a seat may reveal only once every seat has
committed (so no seat can choose its seed after seeing another's).  ``cancel`` is allowed
only before the deal and only while some seat has not revealed.  The state is derived from
which append-only rows exist; it is never stored as a mutable column.
"""
from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

from sqlite_utils import Database

from ...errors import LedgerStateError, NotFoundError


class HandState(str, Enum):
    CREATED = "created"
    COMMITTED = "committed"
    SEEDS_COMMITTED = "seeds-committed"
    SEEDS_REVEALED = "seeds-revealed"
    DEALT = "dealt"
    FINISHED = "finished"
    REVEALED = "revealed"
    CANCELLED = "cancelled"

    def __str__(self) -> str:
        return self.value


#: verb -> the states it is allowed in (and, below, the state it leads to in one step)
ALLOWED: dict[str, frozenset[HandState]] = {
    "commit": frozenset({HandState.CREATED}),
    "seed_commit": frozenset({HandState.COMMITTED}),
    "seed_reveal": frozenset({HandState.SEEDS_COMMITTED}),
    "deal": frozenset({HandState.SEEDS_REVEALED}),
    "move": frozenset({HandState.DEALT}),
    "finish": frozenset({HandState.DEALT}),
    "reveal": frozenset({HandState.FINISHED}),
    "cancel": frozenset({HandState.CREATED, HandState.COMMITTED, HandState.SEEDS_COMMITTED}),
}

_WHY = {
    "commit": "the server seed is committed once, right after the hand is created",
    "seed_commit": "seat seeds are committed after the server commitment and before any reveal",
    "seed_reveal": "a seat reveals its seed only after every seat has committed, and before the deal",
    "deal": "the deal needs every seat's seed revealed",
    "move": "moves are played after the deal and before the record is attached",
    "finish": "a hand record is attached once, after the deal",
    "reveal": "the server seed is revealed once, after the hand is finished",
    "cancel": "a hand can be cancelled only before the deal, while a seat has not revealed",
}

_STATE_COLUMNS = """h.n_seats,
  EXISTS(SELECT 1 FROM hand_cancels WHERE hand_id = h.id),
  EXISTS(SELECT 1 FROM hand_reveals WHERE hand_id = h.id),
  EXISTS(SELECT 1 FROM hand_records WHERE hand_id = h.id),
  EXISTS(SELECT 1 FROM hand_deals WHERE hand_id = h.id),
  (SELECT count(*) FROM seat_reveals WHERE hand_id = h.id),
  (SELECT count(*) FROM seat_commitments WHERE hand_id = h.id),
  EXISTS(SELECT 1 FROM hand_commitments WHERE hand_id = h.id)"""
_STATE_SQL = f"SELECT {_STATE_COLUMNS} FROM hands h WHERE h.id = ?"
#: the state and, in the same read, what a verb needs next: the server commitment, and one
#: seat's commitment and whether it has revealed (``seat`` -1 for a verb of no seat)
_STEP_SQL = (f"SELECT {_STATE_COLUMNS},"
             " (SELECT commitment FROM hand_commitments WHERE hand_id = h.id),"
             " (SELECT commitment FROM seat_commitments WHERE hand_id = h.id AND seat = ?2),"
             " EXISTS(SELECT 1 FROM seat_reveals WHERE hand_id = h.id AND seat = ?2)"
             " FROM hands h WHERE h.id = ?1")


def _state_of(row: tuple[Any, ...]) -> HandState:
    n, cancelled, revealed, finished, dealt, n_rev, n_com, committed = row[:8]
    if cancelled:
        return HandState.CANCELLED
    if revealed:
        return HandState.REVEALED
    if finished:
        return HandState.FINISHED
    if dealt:
        return HandState.DEALT
    if n_rev == n:
        return HandState.SEEDS_REVEALED
    if n_com == n:
        return HandState.SEEDS_COMMITTED
    if committed:
        return HandState.COMMITTED
    return HandState.CREATED


def hand_state(db: Database, hand_id: str) -> HandState:
    """The hand's current state (NotFoundError for an unknown hand)."""
    row = db.execute(_STATE_SQL, [hand_id]).fetchone()
    if row is None:
        raise NotFoundError(f"no hand {hand_id!r}")
    return _state_of(row)


class Step(NamedTuple):
    """What :func:`require_step` read: the state, the server seed's commitment (``None``
    before the commit), and for a seat verb that seat's seed commitment and whether the
    seat has revealed."""

    state: HandState
    commitment: str | None
    seat_commitment: str | None
    seat_revealed: bool


def require_step(db: Database, hand_id: str, verb: str, seat: int = -1) -> Step:
    """:func:`require`, and in the same single read the rows the verb needs next (:class:`Step`)."""
    row = db.conn.execute(_STEP_SQL, (hand_id, seat)).fetchone()
    if row is None:
        raise NotFoundError(f"no hand {hand_id!r}")
    state = _state_of(row)
    if state not in ALLOWED[verb]:
        raise _refused(hand_id, verb, state)
    return Step(state, row[8], row[9], bool(row[10]))


def _refused(hand_id: str, verb: str, state: HandState) -> LedgerStateError:
    return LedgerStateError(f"hand {hand_id!r} is {state.value}: cannot {verb.replace('_', '-')} "
                            f"({_WHY[verb]})")


def require(db: Database, hand_id: str, verb: str) -> HandState:
    """The hand's state, or LedgerStateError when ``verb`` is not allowed in it."""
    state = hand_state(db, hand_id)
    if state not in ALLOWED[verb]:
        raise _refused(hand_id, verb, state)
    return state
