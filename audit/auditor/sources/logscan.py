"""What the whole log says of every hand: order, time and seeds, read from the log entries.

An auditor holding the operator's whole log (a ledger, an operator's URL, a monitor) reads
every entry in log order -- the log's own entries, never a side column of the operator's
database -- and checks, for every hand, published or not:

* its statements follow the protocol (:class:`audit.auditor.sources.protocol_steps.HandSteps`):
  ``event_order`` -- a cancel after the deal, a reveal before the record, a second set of
  statements after the hand was closed, ...;
* statement times run forward in log order, across the whole log (``time_order``), and
  none is dated later than the auditor's clock plus the skew (``future_time``,
  :mod:`audit.timecheck`);
* no two hands share a server commitment or server seed (``seed_reuse``,
  :mod:`audit.auditor.sources.seed_reuse`).

:class:`LogScan` is fed one entry at a time (the monitor feeds each poll's new entries and
keeps the scan's state in its state file); :func:`scan_log` reads a whole
:class:`~audit.auditor.evidence.logcheck.LogView` that holds entries.  :meth:`LogScan.findings` gives each
hand's faults; the audit adds them to the hand's verdict or status.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any

from replay.faults import Fault, Reason

from .protocol_steps import HandSteps
from .seed_reuse import SeedIndex
from ...timecheck import DEFAULT_SKEW, future_fault, is_future, parse_time

#: hand id -> the faults the log shows of it (``None``: entries that name no hand)
Findings = Mapping[Any, tuple[Fault, ...]]


class LogScan:
    """The log read in order: each hand's protocol state, the last time, every seed."""

    def __init__(self, *, now: datetime | None = None, skew: timedelta = DEFAULT_SKEW,
                 keep_closed: bool = True) -> None:
        self.now, self.skew = now, skew
        #: keep the steps of closed hands (a whole-log read); the monitor forgets them
        self.keep_closed = keep_closed
        self.steps: dict[str, HandSteps] = {}
        #: hands closed (revealed or cancelled) whose steps were forgotten (``keep_closed=False``)
        self.closed: set[str] = set()
        self.seeds = SeedIndex()
        self.last_time: tuple[int, str] | None = None  # (leaf index, time text) of the latest-dated entry so far
        self.faults: dict[Any, list[Fault]] = {}

    def feed(self, index: int, statement: Any) -> list[tuple[Any, Fault]]:
        """Read leaf ``index``'s statement; the ``(hand id, fault)`` pairs it shows (also kept)."""
        if not isinstance(statement, Mapping):
            return []
        hand_id = statement.get("hand_id") if isinstance(statement.get("hand_id"), str) else None
        kind = statement.get("kind")
        what = f"leaf {index} ({kind if isinstance(kind, str) else 'no kind'}" + (
            f" of hand {hand_id})" if hand_id is not None else ")")
        new: list[Fault] = []
        if hand_id in self.closed:
            new.append(Fault(Reason.EVENT_ORDER, f"{what}: a {kind} statement after the hand was closed (revealed "
                                                 "or cancelled): nothing may follow"))
        elif hand_id is not None:
            steps = self.steps.get(hand_id)
            if steps is None:
                steps = self.steps[hand_id] = HandSteps()
            refused = steps.step(statement)
            if refused is not None:
                new.append(Fault(Reason.EVENT_ORDER, f"{what}: {refused}"))
            elif steps.is_closed and not self.keep_closed:
                del self.steps[hand_id]
                self.closed.add(hand_id)
            elif steps.state is None:
                del self.steps[hand_id]  # a hand the log never opened is not followed
        if hand_id is not None:
            self.seeds.add_statement(statement)
        text = statement.get("time")
        when = parse_time(text) if isinstance(text, str) else None
        if isinstance(text, str) and when is not None:
            if self.now is not None and is_future(when, self.now, self.skew):
                new.append(future_fault(what, text, self.now, self.skew))
            latest = self.last_time
            last = parse_time(latest[1]) if latest is not None else None
            if latest is not None and last is not None and when < last:
                new.append(Fault(Reason.TIME_ORDER, f"{what} is dated {text}, before leaf {latest[0]} "
                                                    f"({latest[1]}): statement times must run forward "
                                                    "in log order"))
            else:
                self.last_time = (index, text)
        for fault in new:
            self.faults.setdefault(hand_id, []).append(fault)
        return [(hand_id, f) for f in new]

    def new_reuse(self, before: set[tuple[str, str]]) -> list[tuple[str, Fault]]:
        """``(hand id, seed_reuse fault)`` of each value shared by hands that was not shared
        in ``before`` (:meth:`shared`, taken before the new entries were fed)."""
        out = []
        for what, value, hands in self.seeds.reused():
            if (what, value) not in before:
                one = SeedIndex()
                for h in hands:
                    one.add(h, **{what: value})
                out += [(h, f) for h, fs in sorted(one.faults().items()) for f in fs]
        return out

    def shared(self) -> set[tuple[str, str]]:
        return {(what, value) for what, value, _ in self.seeds.reused()}

    def findings(self) -> dict[Any, tuple[Fault, ...]]:
        """Every hand's faults: what :meth:`feed` found, and the seed reuse of the whole scan."""
        out = {h: list(fs) for h, fs in self.faults.items()}
        for hand_id, faults in self.seeds.faults().items():
            out.setdefault(hand_id, []).extend(faults)
        return {h: tuple(fs) for h, fs in out.items()}

    def to_json(self) -> dict[str, Any]:
        """The state to carry to the next poll (the open hands, the last time, the seeds)."""
        return {"steps": {h: s.to_json() for h, s in sorted(self.steps.items())}, "closed": sorted(self.closed),
                "last_time": list(self.last_time) if self.last_time else None,
                "seeds": self.seeds.to_json()}

    @classmethod
    def from_json(cls, data: Any, *, now: datetime | None = None, skew: timedelta = DEFAULT_SKEW) -> "LogScan":
        scan = cls(now=now, skew=skew, keep_closed=False)
        if data:
            scan.steps = {str(h): HandSteps.from_json(s) for h, s in data.get("steps", {}).items()}
            scan.closed = {str(h) for h in data.get("closed", [])}
            last = data.get("last_time")
            scan.last_time = (int(last[0]), str(last[1])) if last else None
            scan.seeds = SeedIndex.from_json(data.get("seeds", []))
        return scan


def log_entries(log: Any) -> Iterator[tuple[int, Any]] | None:
    """``(leaf index, statement)`` of every entry of ``log``, read from the log entries
    themselves; ``None`` for a view that holds no entries (a :class:`~audit.auditor.evidence.log_index.LogIndex`)."""
    entries = getattr(log, "entries", None)
    if entries is None:
        return None
    return ((i, _statement(e)) for i, e in entries())


def _statement(entry: bytes | str) -> Any:
    try:
        signed = json.loads(entry)
    except ValueError:
        return None
    return signed.get("statement") if isinstance(signed, Mapping) else None


def scan_entries(entries: Iterable[tuple[int, Any]], *, now: datetime | None = None,
                 skew: timedelta = DEFAULT_SKEW) -> LogScan:
    scan = LogScan(now=now, skew=skew)
    for index, statement in entries:
        scan.feed(index, statement)
    return scan


def scan_log(log: Any, *, now: datetime | None = None, skew: timedelta = DEFAULT_SKEW) -> dict[Any, tuple[Fault, ...]]:
    """The findings of the whole ``log`` at ``now`` (``{}`` for a view without entries)."""
    entries = log_entries(log)
    return {} if entries is None else scan_entries(entries, now=now, skew=skew).findings()
