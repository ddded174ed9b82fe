"""The protocol's order, checked by the audit from a hand's logged statements.

The ledger refuses an out-of-order step (:mod:`audit.operator.ledger.lifecycle`), but an operator
that writes its own database, or serves its own log, is not held by its ledger: the audit
must check the order itself, from what the log says.  :class:`HandSteps` follows one hand's
statements in log order through the same state machine the ledger enforces and says, for
each statement, why it may not come there (``event_order``) -- ``None`` when it may:

==================  =========================================================
statement           allowed when the hand (as its earlier statements leave it) is
==================  =========================================================
``hand``            not yet opened (the first statement of the hand)
``commitment``      created
``seat-receipt``    committed, that seat not yet committed, and no seat revealed
``seat-reveal``     every seat committed, that seat not yet revealed
``deal``            every seat revealed
``record``          dealt
``reveal``          finished (its record attached)
``cancel``          created, committed or seeds committed -- before the deal, while a
                    seat has not revealed
==================  =========================================================

A hand is closed by its ``reveal`` or ``cancel``: nothing of it may follow.  A hand is
followed from its ``hand`` statement: statements of a hand the log never opened are not
judged here (a record's own audit checks its statements).  A statement
refused leaves the state as it was, so one bad step is one fault, not a cascade.  Pure: no
clock, no storage.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: the states (named as :class:`audit.operator.ledger.HandState` names them)
CREATED, COMMITTED, SEATS_IN, SEATS_OPEN = "created", "committed", "seeds-committed", "seeds-revealed"
DEALT, FINISHED, REVEALED, CANCELLED = "dealt", "finished", "revealed", "cancelled"
CLOSED = frozenset({REVEALED, CANCELLED})

#: why each kind is refused out of its place (the ledger's own words)
WHY = {
    "hand": "a hand is opened once, by its first statement",
    "commitment": "the server seed is committed once, right after the hand is created",
    "seat-receipt": "seat seeds are committed after the server commitment and before any reveal",
    "seat-reveal": "a seat reveals its seed only after every seat has committed, and before the deal",
    "deal": "the deal needs every seat's seed revealed",
    "record": "a hand record is attached once, after the deal",
    "reveal": "the server seed is revealed once, after the hand is finished",
    "cancel": "a hand can be cancelled only before the deal, while a seat has not revealed",
}


def _seat(statement: Mapping[str, Any]) -> int | None:
    seat = statement.get("seat")
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


class HandSteps:
    """One hand's place in the protocol, moved on by each of its statements in log order."""

    __slots__ = ("state", "n_seats", "committed", "revealed")

    def __init__(self) -> None:
        self.state: str | None = None  # None: no statement of the hand yet
        self.n_seats = 0
        self.committed: set[int] = set()
        self.revealed: set[int] = set()

    @property
    def is_closed(self) -> bool:
        return self.state in CLOSED

    def step(self, statement: Mapping[str, Any]) -> str | None:
        """Take the hand's next logged statement: ``None`` if it may come here (the state
        moves on), else why not (the state stays)."""
        kind = statement.get("kind")
        if not isinstance(kind, str) or kind not in WHY:
            return None  # an unknown kind is not an order question (the statement check names it)
        state = self.state
        if state in CLOSED:
            return f"a {kind} statement after the hand was {state}: nothing may follow a hand's {state} statement"
        if state is None and kind != "hand":
            return None  # a hand not opened in this log is not followed (its record's audit checks its statements)
        refused = self._refusal(kind, state, statement)
        if refused is not None:
            return f"a {kind} statement while the hand is {state}: {refused}"
        return None

    def _refusal(self, kind: str, state: str | None, st: Mapping[str, Any]) -> str | None:
        seat = _seat(st)
        if kind == "hand":
            if state is not None:
                return WHY[kind]
            seats = st.get("seats")
            self.n_seats = len(seats) if isinstance(seats, list) else 0
            self.state = CREATED
        elif kind == "commitment":
            if state != CREATED:
                return WHY[kind]
            self.state = COMMITTED
        elif kind == "seat-receipt":
            if state not in (COMMITTED, SEATS_IN) or self.revealed or seat in self.committed:
                return WHY[kind] + ("" if seat not in self.committed else f" (seat {seat} committed already)")
            if seat is not None:
                self.committed.add(seat)
            if len(self.committed) >= self.n_seats:
                self.state = SEATS_IN
        elif kind == "seat-reveal":
            if state != SEATS_IN or seat in self.revealed:
                return WHY[kind] + ("" if seat not in self.revealed else f" (seat {seat} revealed already)")
            if seat is not None:
                self.revealed.add(seat)
            if len(self.revealed) >= self.n_seats:
                self.state = SEATS_OPEN
        elif kind == "deal":
            if state != SEATS_OPEN:
                return WHY[kind]
            self.state = DEALT
        elif kind == "record":
            if state != DEALT:
                return WHY[kind]
            self.state = FINISHED
        elif kind == "reveal":
            if state != FINISHED:
                return WHY[kind]
            self.state = REVEALED
        else:  # cancel
            if state not in (CREATED, COMMITTED, SEATS_IN) or len(self.revealed) >= max(self.n_seats, 1):
                return WHY[kind]
            self.state = CANCELLED
        return None

    def to_json(self) -> list[Any]:
        return [self.state, self.n_seats, sorted(self.committed), sorted(self.revealed)]

    @classmethod
    def from_json(cls, data: Any) -> "HandSteps":
        steps = cls()
        state, n, committed, revealed = data
        steps.state = state if state is None or isinstance(state, str) else None
        steps.n_seats = int(n)
        steps.committed = {int(s) for s in committed}
        steps.revealed = {int(s) for s in revealed}
        return steps
