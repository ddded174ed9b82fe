"""When a statement may say it was made: never later than what bounds it.

A statement's ``time`` is the operator's claim.  What bounds it from above is evidence the
operator does not control: a witness's cosignature timestamp on a checkpoint whose tree
holds the statement (the witness saw the tree then, so the statement was logged by then),
or else the auditor's own clock.  Clocks disagree a little, so a statement may be dated up
to :data:`DEFAULT_SKEW` after the bound; later than that it is ``future_time``.  Without
this check a hand whose last statement is dated 2099 would wait "within the grace period"
forever (:mod:`audit.auditor.sources.coverage`).

Statement times must also run forward in log order: leaf ``i + 1`` is appended after leaf
``i``, so it may not be dated before it (``time_order``; equal times are fine).
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from replay.faults import Fault, Reason
from replay.record_text import is_statement_time

#: how far a statement may be dated past what bounds it (clocks drift; a record's
#: checkpoint is cosigned a little after its statements are made): five minutes
DEFAULT_SKEW = timedelta(minutes=5)


def parse_time(text: Any) -> datetime | None:
    """A statement's time, written exactly ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (docs/records.md:
    :func:`replay.record_text.is_statement_time`), or ``None`` if it is not one -- no other
    ISO-8601 spelling (an offset, the basic format, no milliseconds) is read as a time."""
    if not is_statement_time(text):
        return None
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def parse_clock(text: Any) -> datetime | None:
    """An auditor's clock given on the command line (``--now``): any ISO-8601 time with its
    zone (``2026-12-01T20:00:00Z``), or ``None``.  Not a statement's time: that has one
    spelling (:func:`parse_time`)."""
    if not isinstance(text, str):
        return None
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo is not None else None


def stamp(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def format_skew(skew: timedelta) -> str:
    s = int(skew.total_seconds())
    return f"{s // 60}m" if s and s % 60 == 0 else f"{s}s"


def future_fault(what: str, time_text: str, bound: datetime, skew: timedelta, *, by: str = "the auditor's clock",
                 statement: int | None = None) -> Fault:
    """The ``future_time`` fault of ``what`` (a statement's name), dated ``time_text``."""
    return Fault(Reason.FUTURE_TIME, f"{what} is dated {time_text}, later than {by} ({stamp(bound)}) plus the "
                                     f"{format_skew(skew)} clock skew: a statement may not be dated in the future",
                 statement=statement)


def is_future(when: datetime | None, bound: datetime | None, skew: timedelta = DEFAULT_SKEW) -> bool:
    return when is not None and bound is not None and when > bound + skew


def witnessed_future(statements: Any, witnesses: Any, skew: timedelta = DEFAULT_SKEW) -> list[Fault]:
    """A ``future_time`` fault for each of a record's signed statements dated later than the
    earliest cosignature (``witnesses``: :class:`audit.tlog.policy.Cosigned`, timestamps in Unix
    seconds) of the checkpoint that holds it, plus ``skew``: a witness that cosigned the tree
    at ``T`` saw every statement in it by ``T``."""
    stamps = [w.timestamp for w in witnesses if isinstance(getattr(w, "timestamp", None), int)]
    if not stamps:
        return []
    first = min(stamps)
    bound = datetime.fromtimestamp(first, timezone.utc)
    who = next(w.name for w in witnesses if w.timestamp == first)
    faults = []
    for number, signed in enumerate(statements or (), start=1):
        st = signed.get("statement") if isinstance(signed, dict) else None
        if not isinstance(st, dict):
            continue
        text = st.get("time")
        if isinstance(text, str) and is_future(parse_time(text), bound, skew):
            kind = st.get("kind") if isinstance(st.get("kind"), str) else "?"
            faults.append(future_fault(f"statement {number} ({kind})", text, bound, skew,
                                       by=f"witness {who}'s cosignature of the checkpoint that holds it",
                                       statement=number))
    return faults
