"""A partition's audit in a worker (:func:`audit_partition`), and the parent's merge of the
partial reports in partition order (:class:`InOrder`).

The task's arguments are the run's :class:`~audit.auditor.verdict.audit_policy.AuditPolicy`
spelled out for the trip to a worker process (:func:`task_args`, :class:`Checks`): the
positional ``(items, public_key, strict[, witnesses])`` every task takes, and keyword
arguments only for what is set.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..sources.splits import Split, Wire
from ..verdict.audit_policy import AuditPolicy
from .partitions import StatusWire
from .report import AuditReport
from .runner import audit_one, with_findings

Progress = Callable[[AuditReport], None]

@dataclass
class PartialReport(AuditReport):
    """A partition's report, with what its records' checkpoints did to the audit state."""

    state: Any = None

#: the log view a worker process judges records against (set by the pool's initializer)
_INSTALLED: dict[str, Any] = {"log": None}

def install(log: Any) -> None:
    _INSTALLED["log"] = log

def _resolve(log: Any) -> Any:
    from ..evidence.ledger_log import LedgerLogRef

    return log.open() if isinstance(log, LedgerLogRef) else log

def _add(report: AuditReport, wire: Any, terms: AuditPolicy, findings: Any = None) -> None:
    """One partition entry into ``report``: a hand's status, an unreadable item, or a record."""
    if len(wire) == 2:  # (where, HandStatus): built only by the auditor, never read from a record
        report.add_status(wire[0], with_findings(wire[1], findings))
        return
    where, data, error = wire
    if error is not None:
        report.add_error(where, error)
    else:
        report.add(where, audit_one(data, terms, findings=findings))

def audit_partition(items: Sequence[Wire | StatusWire] | Split, public_key: str | None = None, strict: bool = False,
                    witnesses: Any = None, *, log: Any = None, state: Any = None, trust: Any = None,
                    check_signatures: bool = False, findings: Any = None) -> AuditReport:
    """Audit one partition's items (read from the archive first if given a split) into a
    partial report (runs in the worker).  The arguments are the run's :class:`AuditPolicy`
    spelled out for the trip to a worker process; ``log`` is the whole log's view (default:
    the one this worker process was given, if any); ``state`` a fresh :class:`StateCheck`
    whose result comes back in the report (:class:`PartialReport`)."""
    if isinstance(items, Split):
        items = items.read()
    view = _resolve(log if log is not None else _INSTALLED["log"])
    report = PartialReport(state=state) if state is not None else AuditReport()
    terms = AuditPolicy.of(public_key=public_key, strict=strict, witnesses=witnesses, log=view, state=state,
                           trust=trust, check_signatures=check_signatures)
    for wire in items:
        _add(report, wire, terms, findings or None)
    return report

def task_args(items: Any, public_key: str | None, strict: bool, witnesses: Any) -> tuple:
    """A partition task's arguments; the witness policy only when there is one (so tasks of
    three parameters keep working)."""
    return (items, public_key, strict) if witnesses is None else (items, public_key, strict, witnesses)

@dataclass(frozen=True)
class Checks:
    """What every task of a run gets besides its items: keyword arguments, only those set."""

    state: Any = None  # the parent's StateCheck; each task gets a fresh copy (``blank()``)
    trust: Any = None
    check_signatures: bool = False
    findings: Any = None  # hand id -> faults the whole log or archive shows (small: only hands with faults)

    def kwargs(self, **extra: Any) -> dict[str, Any]:
        out = {k: v for k, v in (("trust", self.trust), ("check_signatures", self.check_signatures),
                                 ("findings", self.findings)) if v}
        if self.state is not None:
            out["state"] = self.state.blank()
        out.update({k: v for k, v in extra.items() if v is not None})
        return out

class InOrder:
    """Merge partial reports in partition order, whatever order they finish in (and their
    audit-state results into ``state``)."""

    def __init__(self, progress: Progress | None, state: Any = None) -> None:
        self.report = AuditReport()
        self.waiting: dict[int, AuditReport] = {}
        self.next = 0
        self.progress = progress
        self.state = state

    def put(self, index: int, partial: AuditReport) -> None:
        self.waiting[index] = partial
        while self.next in self.waiting:
            part = self.waiting.pop(self.next)
            self.report.merge(part)
            if self.state is not None and getattr(part, "state", None) is not None:
                self.state.absorb(part.state)
            self.next += 1
            if self.progress:
                self.progress(self.report)
