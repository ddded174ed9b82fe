"""A partition's audit in a worker (:func:`audit_partition`), and the parent's merge of the
partial reports in partition order (:class:`InOrder`).

The run's :class:`~audit.auditor.verdict.audit_policy.AuditPolicy` travels to the workers as
the one value it is (:class:`Handoff`): it pickles (for worker processes and Dask), with the
whole log's view (a shippable one: a ledger's file and size, or every leaf hash) sent to
each worker once and each task's audit state a fresh copy of the run's.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..sources.splits import Split, Wire
from ..verdict.audit_policy import AuditPolicy, CheckpointState
from .partitions import StatusWire
from .report import AuditReport
from .runner import audit_one, with_findings

if TYPE_CHECKING:
    from ..evidence.ledger_log import LedgerLogRef
    from ..evidence.logcheck import LogView
    from ..sources.logscan import Findings

Progress = Callable[[AuditReport], None]

@dataclass
class PartialReport(AuditReport):
    """A partition's report, with what its records' checkpoints did to the audit state."""

    state: CheckpointState | None = None

#: the log view a worker process judges records against (set by the pool's initializer)
_INSTALLED: dict[str, LogView | LedgerLogRef | None] = {"log": None}

def install(log: LogView | LedgerLogRef | None) -> None:
    _INSTALLED["log"] = log

def _resolve(log: LogView | LedgerLogRef | None) -> LogView | None:
    from ..evidence.ledger_log import LedgerLogRef

    return log.open() if isinstance(log, LedgerLogRef) else log

def _add(report: AuditReport, wire: Wire | StatusWire, terms: AuditPolicy, findings: Findings | None = None) -> None:
    """One partition entry into ``report``: a hand's status, an unreadable item, or a record."""
    if len(wire) == 2:  # (where, HandStatus): built only by the auditor, never read from a record
        report.add_status(wire[0], with_findings(wire[1], findings))
        return
    where, data, error = wire
    if error is not None:
        report.add_error(where, error)
    else:
        report.add(where, audit_one(data, terms, findings=findings))

def audit_partition(items: Sequence[Wire | StatusWire] | Split, terms: AuditPolicy | None = None, *,
                    log: LogView | LedgerLogRef | None = None, findings: Findings | None = None) -> AuditReport:
    """Audit one partition's items (read from the archive first if given a split) into a
    partial report (runs in the worker), under ``terms``, the run's :class:`AuditPolicy`
    (default: the default policy).  The whole log's view is ``log``, else the policy's, else
    the one this worker process was given (:func:`install`), if any; a shippable view (a
    :class:`~audit.auditor.evidence.ledger_log.LedgerLogRef`) is opened here.  The policy's
    ``state`` (a fresh :class:`StateCheck` per task) comes back in the report
    (:class:`PartialReport`)."""
    if isinstance(items, Split):
        items = items.read()
    terms = terms if terms is not None else AuditPolicy()
    shipped = log if log is not None else terms.log if terms.log is not None else _INSTALLED["log"]
    terms = replace(terms, log=_resolve(shipped))
    report = PartialReport(state=terms.state) if terms.state is not None else AuditReport()
    for wire in items:
        _add(report, wire, terms, findings or None)
    return report

@dataclass(frozen=True)
class Handoff:
    """What a run gives its workers: ``terms``, the run's :class:`AuditPolicy`; ``findings``
    (hand id -> faults the whole log or archive shows: small, only hands with faults); and
    ``shipped``, the whole log's view as the workers get it
    (:func:`audit.auditor.run.parallel.shippable_log`: a ledger's file and size, or every
    leaf hash) -- beside the policy, whose ``log`` is a view to judge by, not a reference to
    one (a policy whose ``log`` is already a :class:`LogIndex` ships that)."""

    terms: AuditPolicy = AuditPolicy()
    findings: Findings | None = None
    #: the shippable log view, when the policy's own is not one (:func:`audit.auditor.run.parallel.shippable_log`)
    shipped: LogView | LedgerLogRef | None = None

    @property
    def log(self) -> LogView | LedgerLogRef | None:
        """The shippable log view, sent to each worker once (a pool's initializer, a Dask broadcast)."""
        return self.shipped if self.shipped is not None else self.terms.log

    def task(self, items: Sequence[Wire | StatusWire] | Split, **extra: Any
             ) -> tuple[tuple[Sequence[Wire | StatusWire] | Split, AuditPolicy], dict[str, Any]]:
        """One task's positional and keyword arguments: its items and the policy -- without
        the log (each worker has it already) and with a fresh copy of the run's audit state
        (``blank()``) -- and, as keywords, the findings if any and ``extra`` where not ``None``."""
        state = self.terms.state.blank() if self.terms.state is not None else None
        kwargs = {"findings": self.findings} if self.findings else {}
        kwargs.update({k: v for k, v in extra.items() if v is not None})
        return (items, replace(self.terms, log=None, state=state)), kwargs

class InOrder:
    """Merge partial reports in partition order, whatever order they finish in (and their
    audit-state results into ``state``)."""

    def __init__(self, progress: Progress | None, state: CheckpointState | None = None) -> None:
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
            part_state = getattr(part, "state", None)  # a PartialReport's (a task may return another report)
            if self.state is not None and part_state is not None:
                self.state.absorb(part_state)
            self.next += 1
            if self.progress:
                self.progress(self.report)
