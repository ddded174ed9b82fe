"""Every hand, not only the published ones: what an audit reports for a hand with no record.

An audit of a ledger (or of an operator's URL, or a monitor following its log) sees every
hand the operator started.  A hand with a published record is audited as a record; every
other hand gets a :class:`HandStatus`:

===============  ==================================================  ==================
status           when                                                counts as
===============  ==================================================  ==================
``cancelled``    cancelled before the deal (its seed revealed)        listed, not a failure
``in_progress``  not yet published, its last statement within grace   listed, not a failure
``stalled``      created, committed, seeds in or dealt, and its last  a failure: ``STALLED``
                 statement older than the grace period
``unpublished``  finished or revealed, no published record, and its   a failure: ``UNPUBLISHED``
                 last statement older than the grace period
``future_time``  its last statement dated later than ``now`` plus    a failure: ``FUTURE_TIME``
                 the clock skew (:mod:`audit.timecheck`)
===============  ==================================================  ==================

A hand's status may also carry the faults the whole log shows of it (:mod:`audit.auditor.sources.logscan`:
a cancel after the deal, a statement dated backwards, a server seed another hand uses):
any such fault makes the status a failure, whatever its status.

The *grace period* (:data:`DEFAULT_GRACE`, one hour; ``tiplu audit --grace``, ``tiplu
monitor --grace``) is how long a hand may sit between two of its steps -- or between its
reveal and its publication -- before it is reported.  It is measured from the time of the
hand's last signed statement to ``now`` (injectable; the audit's start by default).  A last
statement dated after ``now`` (plus :data:`~audit.timecheck.DEFAULT_SKEW`) does not wait
"within the grace period": it is ``future_time``, so no hand hides behind a date in 2099.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any, Iterator

from replay.errors import MalformedError
from replay.faults import Fault, Reason

from ...timecheck import DEFAULT_SKEW, format_skew, parse_time

#: how long a hand may wait between two steps (or from its reveal to its publication)
DEFAULT_GRACE = timedelta(hours=1)

#: statuses that are not failures (the report lists them apart)
NOT_FAILURES = ("cancelled", "in_progress")
_STALLS = ("created", "committed", "seeds-committed", "seeds-revealed", "dealt")
_UNPUBLISHED = ("finished", "revealed")
_GRACE_RE = re.compile(r"([0-9]{1,9})([smhd]?)")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_grace(text: str) -> timedelta:
    """A grace period: whole seconds, or a number with ``s``, ``m``, ``h`` or ``d``."""
    m = _GRACE_RE.fullmatch(text.strip()) if isinstance(text, str) else None
    if m is None:
        raise MalformedError("a grace period is a whole number of seconds, or a number with s, m, h or d (90m, 2h)")
    return timedelta(seconds=int(m.group(1)) * _UNITS[m.group(2)])


def format_grace(grace: timedelta) -> str:
    s = int(grace.total_seconds())
    for unit, n in (("d", 86400), ("h", 3600), ("m", 60)):
        if s and s % n == 0:
            return f"{s // n}{unit}"
    return f"{s}s"


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True, slots=True)
class HandStatus:
    """What an audit says of a hand that has no published record to audit."""

    hand_id: str
    table_id: str | None
    preset: str | None
    state: str  # the hand's lifecycle state (``audit.operator.ledger.HandState`` value)
    status: str  # cancelled, in_progress, stalled, unpublished
    last_kind: str | None
    last_time: str | None
    message: str
    #: what the whole log shows of the hand besides its status (:mod:`audit.auditor.sources.logscan`)
    log_faults: tuple[Fault, ...] = ()

    @property
    def is_failure(self) -> bool:
        return self.status not in NOT_FAILURES or bool(self.log_faults)

    def fault(self) -> Fault | None:
        """The fault of a failing status (``STALLED`` / ``UNPUBLISHED`` / ``FUTURE_TIME``); ``None`` otherwise."""
        reason = _STATUS_REASONS.get(self.status)
        return None if reason is None else Fault(reason, self.message)

    def faults(self) -> tuple[Fault, ...]:
        """Every fault of the hand: its status's, then the log's (one of a reason the status has already dropped)."""
        own = self.fault()
        return ((own,) if own else ()) + tuple(f for f in self.log_faults if own is None or f.reason is not own.reason)

    def with_log_faults(self, faults: "tuple[Fault, ...] | list[Fault] | None") -> "HandStatus":
        return replace(self, log_faults=self.log_faults + tuple(faults)) if faults else self

    def to_json(self) -> dict[str, Any]:
        return {"hand_id": self.hand_id, "table_id": self.table_id, "preset": self.preset, "state": self.state,
                "status": self.status, "last_statement": self.last_kind, "last_time": self.last_time,
                "message": self.message}


_STATUS_REASONS = {"stalled": Reason.STALLED, "unpublished": Reason.UNPUBLISHED, "future_time": Reason.FUTURE_TIME}


def classify(hand_id: str, *, state: str, last_kind: str | None, last_time: str | None, now: datetime,
             grace: timedelta = DEFAULT_GRACE, table_id: str | None = None, preset: str | None = None,
             skew: timedelta = DEFAULT_SKEW) -> HandStatus:
    """The status of a hand with no published record, from its state and its last statement.

    ``state`` ``"revealed"`` means revealed *and not published* (a published hand is audited
    as a record, not classified).  A last statement without a readable time counts as old."""
    def status(kind: str, message: str) -> HandStatus:
        return HandStatus(hand_id, table_id, preset, state, kind, last_kind, last_time, message)

    if state == "cancelled":
        return status("cancelled", "the hand was cancelled before the deal")
    when = parse_time(last_time)
    waited = now - when if when is not None else None
    if waited is not None and -waited > skew:
        return status("future_time", f"the hand is {state}, its last statement ({last_kind}) dated {last_time}, "
                                     f"later than {now.astimezone(timezone.utc):%Y-%m-%dT%H:%M:%SZ} plus the "
                                     f"{format_skew(skew)} clock skew: a statement may not be dated in the future")
    if waited is not None and waited <= grace:
        what = "publication" if state in _UNPUBLISHED else "its next step"
        return status("in_progress", f"the hand is {state}, waiting for {what} (last statement {last_kind} "
                                     f"at {last_time}, within the {format_grace(grace)} grace period)")
    since = (f"since its {last_kind} statement at {last_time}" if when is not None
             else f"and its last statement ({last_kind}) has no readable time")
    past = f"more than {format_grace(grace)} before {now.astimezone(timezone.utc):%Y-%m-%dT%H:%M:%SZ}"
    if state in _UNPUBLISHED:
        never = "revealed nor published" if state == "finished" else "published"
        return status("unpublished", f"the hand is {state} {since}, {past}, but its record was never {never}")
    if state not in _STALLS:
        raise MalformedError(f"hand {hand_id!r} is in an unknown state {state!r}")
    return status("stalled", f"the hand stopped at {state} {since}, {past}: it was never finished and revealed")


_UNPUBLISHED_SQL = """
SELECT h.id, h.table_id, h.preset,
       (SELECT s.kind FROM statements s WHERE s.hand_id = h.id ORDER BY s.seq DESC LIMIT 1),
       (SELECT s.created_at FROM statements s WHERE s.hand_id = h.id ORDER BY s.seq DESC LIMIT 1)
FROM hands h
WHERE NOT EXISTS (SELECT 1 FROM published_records p WHERE p.hand_id = h.id)
ORDER BY h.rowid
"""


def ledger_statuses(db: Any, *, now: datetime, grace: timedelta = DEFAULT_GRACE) -> Iterator[HandStatus]:
    """A :class:`HandStatus` for every hand of the ledger ``db`` that has no published record,
    in the order the hands were created (one query, then one light state query per hand)."""
    from ...operator.ledger.lifecycle import hand_state

    for hand_id, table_id, preset, kind, time in db.execute(_UNPUBLISHED_SQL).fetchall():
        state = hand_state(db, hand_id).value
        yield classify(hand_id, state=state, last_kind=kind, last_time=time, now=now, grace=grace,
                       table_id=table_id, preset=preset)
