"""Audit a whole source of records (file, database, URL) into one :class:`AuditReport`."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Callable, Iterable

from ..sources.reader import Item, iter_source
from ..sources.coverage import DEFAULT_GRACE, utc_now
from .report import AuditReport
from replay.faults import Fault, Reason

from ..verdict.trust import TrustAnchor
from ..verdict.verify import Verdict, audit_record
from ...tlog.policy import Policy, policy_of_witnesses
from ..verdict.witnesscheck import WitnessPolicy

Progress = Callable[[AuditReport], None]


def audit_one(data, *, public_key: str | None = None, strict: bool = False,
              witnesses: Policy | WitnessPolicy | None = None, trust: TrustAnchor | None = None,
              check_signatures: bool = False, log=None, state=None, kind: int | None = None,
              findings=None) -> Verdict:
    """:func:`audit_record`, but a crash of the auditor on one record becomes that record's
    ``INTERNAL_ERROR`` verdict instead of ending the run (the error type is kept, no traceback).
    ``witnesses``: the auditor's pinned :class:`~audit.tlog.policy.Policy` (or the older
    :class:`~audit.auditor.verdict.witnesscheck.WitnessPolicy` of ``--witness``/``--quorum``): a record whose
    checkpoint lacks its quorum gets ``WITNESS_QUORUM``, and a quorum met proves its timing.
    With ``findings`` (hand id -> faults, :mod:`audit.auditor.sources.logscan`), the record's hand gets what
    the whole log (or the whole archive) shows of it."""
    try:
        verdict = audit_record(data, public_key=public_key, strict=strict, trust=trust,
                               check_signatures=check_signatures, log=log, kind=kind,
                               policy=as_policy(witnesses))
        if state is not None and not (strict and verdict.faults):
            extra = state_faults(data, state, trust.public_key if trust else public_key,
                                 trust.origin if trust else None)
            if extra:
                verdict = replace(verdict, faults=verdict.faults + tuple(extra))
        extra = findings.get(verdict.hand_id) if findings and verdict.hand_id is not None else None
        if extra and not (strict and verdict.faults):
            verdict = replace(verdict, faults=verdict.faults + tuple(extra))
        if state is not None and Reason.LOG_INCONSISTENT in verdict.reasons:
            state.contradicted = True
        return verdict
    except Exception as exc:  # noqa: BLE001 - one bad record must not stop an archive audit
        hand_id = data.get("hand_id") if isinstance(data, dict) else None
        return Verdict(hand_id if isinstance(hand_id, str) else None, None,
                       (Fault(Reason.INTERNAL_ERROR, f"the auditor failed: {type(exc).__name__}"),))


def with_findings(status, findings):
    """A hand's status with what the whole log shows of it (``findings``, may be ``None``)."""
    return status.with_log_faults(findings.get(status.hand_id)) if findings else status


def as_policy(witnesses) -> Policy | None:
    """A :class:`Policy` from what a caller passes as ``witnesses`` (a policy, a
    :class:`WitnessPolicy`, or nothing)."""
    if witnesses is None or isinstance(witnesses, Policy):
        return witnesses
    if isinstance(witnesses, WitnessPolicy):
        return policy_of_witnesses(list(witnesses.witnesses), witnesses.quorum) if witnesses.active else None
    raise TypeError(f"not a witness policy: {type(witnesses).__name__}")


def state_faults(data, state, public_key: str | None, origin: str | None) -> list[Fault]:
    """The ``LOG_INCONSISTENT`` fault if the record's checkpoint contradicts ``state``
    (:class:`audit.auditor.run.auditstate.StateCheck`); nothing if it has no checkpoint that verifies
    (its own audit reports that)."""
    from ..evidence.logcheck import verified_checkpoint
    from ...tlog.proof import parse_tlog_proof

    try:
        if isinstance(data, (str, bytes)):  # a parallel audit's worker gets the record's JSON text
            import json

            data = json.loads(data)
        text = parse_tlog_proof(data["fairness"]["log_proofs"][0]).checkpoint_text
        cp = verified_checkpoint(text, public_key or data["table"]["public_key"], origin)
    except Exception:  # noqa: BLE001 - no usable checkpoint: the record's own audit says why
        return []
    message = state.check(cp)
    return [] if message is None else [Fault(Reason.LOG_INCONSISTENT, message)]


def audit_items(items: Iterable[Item], *, public_key: str | None = None, strict: bool = False,
                progress: Progress | None = None, every: int = 200,
                witnesses: Policy | WitnessPolicy | None = None, trust=None, check_signatures: bool = False,
                log=None, state=None, findings=None) -> AuditReport:
    """Audit every item; a malformed item is a failure of its own and the run goes on; a
    hand's status (no record to audit) is added as such.  ``findings`` (hand id -> faults:
    what the whole log or archive shows of each hand, :mod:`audit.auditor.sources.logscan`) are added to the
    hand's verdict or status."""
    report = AuditReport()
    for n, item in enumerate(items, 1):
        if item.status is not None:
            report.add_status(item.where, with_findings(item.status, findings))
        elif item.error is not None:
            report.add_error(item.where, str(item.error))
        else:
            report.add(item.where, audit_one(item.data, public_key=public_key, strict=strict, witnesses=witnesses,
                                             trust=trust, check_signatures=check_signatures, log=log,
                                             state=state, kind=item.kind, findings=findings))
        if progress and n % every == 0:
            progress(report)
    if progress:
        progress(report)
    return report


def audit_source(source: str, *, now: datetime | None = None, grace: timedelta = DEFAULT_GRACE,
                 **kwargs) -> AuditReport:
    """Audit every record of ``source`` and, for a ledger or URL, every hand without one
    (judged at ``now``, default: the start of the run, with ``grace``)."""
    return audit_items(iter_source(source, now=now or utc_now(), grace=grace), **kwargs)
