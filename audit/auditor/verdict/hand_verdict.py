"""The verdict of a record *as a ledger publishes it*: the one audit the website and the
deal statistics run on a published record.

A published record is audited like any other (:func:`audit.auditor.verdict.verify.audit_record`) with two
facts only the ledger knows: the key its operator *registered* (trust basis ``ledger`` --
never the key the record names, which a forger sets to its own) and the operator's whole
log as evidence (a re-logged forgery is a ``log_duplicate``).  And it must be about the
hand it is published as: a record about another hand is a ``statement_mismatch`` fault,
put first.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from replay.faults import Fault, Reason

from .trust import TrustAnchor
from .verify import Verdict, audit_record

if TYPE_CHECKING:
    from ...tlog.policy import Policy
    from ..evidence.logcheck import LogView


def published_verdict(record: Any, *, hand_id: str, public_key: str, log: LogView | None = None,
                      policy: Policy | None = None) -> Verdict:
    """:func:`audit_record` of ``record`` published as hand ``hand_id`` under the operator's
    registered ``public_key``, with ``log`` (:class:`audit.auditor.evidence.ledger_log.LedgerLog`) as evidence
    (and a caller's pinned :class:`~audit.tlog.policy.Policy`, whose witness quorum it must meet)."""
    verdict = audit_record(record, trust=TrustAnchor(public_key, "ledger"), log=log, policy=policy)
    claimed = record.get("hand_id") if isinstance(record, dict) else None
    if claimed != hand_id:
        wrong = Fault(Reason.STATEMENT_MISMATCH, f"the record published as hand {hand_id!r} is about hand {claimed!r}")
        verdict = Verdict(verdict.hand_id, verdict.preset, (wrong,) + verdict.faults, verdict.table_id, verdict.replay,
                          verdict.timing)
    return verdict
