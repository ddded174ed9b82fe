"""Audit a whole source of records (file, database, URL) into one :class:`AuditReport`."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..sources.item import Item
from ..sources.reader import iter_source
from ..sources.coverage import DEFAULT_GRACE, utc_now
from .report import AuditReport
from replay.faults import Fault, Reason

from ..verdict.audit_policy import AuditPolicy, options
from ..verdict.verify import Verdict, audit_record

if TYPE_CHECKING:
    from ..sources.coverage import HandStatus
    from ..sources.logscan import Findings
    from ..sources.source import Source

Progress = Callable[[AuditReport], None]


def audit_one(data: Any, terms: AuditPolicy | None = None, *, kind: int | None = None,
              findings: Findings | None = None, **given: Any) -> Verdict:
    """:func:`audit_record` under ``terms`` (an :class:`AuditPolicy`, or its options as
    keywords: :meth:`AuditPolicy.of`), but a crash of the auditor on one record becomes that
    record's ``INTERNAL_ERROR`` verdict instead of ending the run (the error type is kept, no
    traceback).  The policy's ``policy`` (a :class:`~audit.tlog.policy.Policy`, or as
    ``witnesses=`` the older :class:`~audit.auditor.verdict.witnesscheck.WitnessPolicy` of
    ``--witness``/``--quorum``): a record whose checkpoint lacks its quorum gets
    ``WITNESS_QUORUM``, and a quorum met proves its timing.  With ``findings`` (hand id ->
    faults, :mod:`audit.auditor.sources.logscan`), the record's hand gets what the whole log
    (or the whole archive) shows of it.  The policy's ``state`` learns of the verdict
    (:meth:`~audit.auditor.run.auditstate.StateCheck.note`)."""
    terms = options(terms, given)
    try:
        verdict = audit_record(data, terms, kind=kind)
        extra = findings.get(verdict.hand_id) if findings and verdict.hand_id is not None else None
        if extra and not (terms.strict and verdict.faults):
            verdict = replace(verdict, faults=verdict.faults + tuple(extra))
        if terms.state is not None:
            terms.state.note(verdict)
        return verdict
    except Exception as exc:  # noqa: BLE001 - one bad record must not stop an archive audit
        hand_id = data.get("hand_id") if isinstance(data, dict) else None
        return Verdict(hand_id if isinstance(hand_id, str) else None, None,
                       (Fault(Reason.INTERNAL_ERROR, f"the auditor failed: {type(exc).__name__}"),))


def with_findings(status: HandStatus, findings: Findings | None) -> HandStatus:
    """A hand's status with what the whole log shows of it (``findings``, may be ``None``)."""
    return status.with_log_faults(findings.get(status.hand_id)) if findings else status


def audit_items(items: Iterable[Item], terms: AuditPolicy | None = None, *, progress: Progress | None = None,
                every: int = 200, findings: Findings | None = None, **given: Any) -> AuditReport:
    """Audit every item under ``terms`` (an :class:`AuditPolicy`, or its options as keywords);
    a malformed item is a failure of its own and the run goes on; a hand's status (no record
    to audit) is added as such.  ``findings`` (hand id -> faults: what the whole log or
    archive shows of each hand, :mod:`audit.auditor.sources.logscan`) are added to the hand's
    verdict or status."""
    terms = options(terms, given)
    report = AuditReport()
    for n, item in enumerate(items, 1):
        if item.status is not None:
            report.add_status(item.where, with_findings(item.status, findings))
        elif item.error is not None:
            report.add_error(item.where, str(item.error))
        else:
            report.add(item.where, audit_one(item.data, terms, kind=item.kind, findings=findings))
        if progress and n % every == 0:
            progress(report)
    if progress:
        progress(report)
    return report


def audit_source(source: str | Source, *, now: datetime | None = None, grace: timedelta = DEFAULT_GRACE,
                 **kwargs: Any) -> AuditReport:
    """Audit every record of ``source`` and, for a ledger or URL, every hand without one
    (judged at ``now``, default: the start of the run, with ``grace``)."""
    return audit_items(iter_source(source, now=now or utc_now(), grace=grace), **kwargs)
