"""How one audit judges every record: :class:`AuditPolicy`, one immutable value.

An audit's options -- whose key it trusts, the pinned C2SP policy (its logs and witness
quorum), whether it stops at a record's first fault, whether it checks every statement's
signature, the operator's whole log it holds, the state it keeps between audits -- are
decided once, by the command (``tiplu audit``) or the caller, and travel as this one value:
``audit_command`` -> :func:`~audit.auditor.run.parallel.audit_parallel` (and, as this one value, to
each worker: :class:`~audit.auditor.run.task.Handoff`) or
:func:`~audit.auditor.run.runner.audit_items` -> :func:`~audit.auditor.run.runner.audit_one`
-> :func:`~audit.auditor.verdict.verify.audit_record`.  What belongs to one record (its JSON
``kind``) or to the whole source (the ``findings`` of its log) travels beside it.

The policy is frozen; its ``state`` (:class:`audit.auditor.run.auditstate.StateCheck`) is the
one thing an audit writes, and only through the state's own methods.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, Self

from ...tlog.policy import Policy, policy_of_witnesses
from .trust import TrustAnchor
from .witnesscheck import WitnessPolicy

if TYPE_CHECKING:
    from ...tlog.checkpoint import Checkpoint
    from ..evidence.logcheck import LogView
    from .verify import Verdict


class CheckpointState(Protocol):
    """What an audit asks of the auditor's state (``--state``): whether a verified checkpoint
    contradicts the one stored (in words, or ``None``), and each record's verdict; a parallel
    run gives each part a blank copy and absorbs the parts' findings in order.
    :class:`audit.auditor.run.auditstate.StateCheck` is the one the command line keeps."""

    def check(self, cp: Checkpoint) -> str | None: ...

    def note(self, verdict: Verdict) -> None:
        """Learn of a record's verdict (a contradiction found elsewhere stops the state advancing)."""
        ...

    def blank(self) -> Self:
        """A fresh state against the same stored checkpoint, for one part of a parallel run."""
        ...

    def absorb(self, other: Self) -> None:
        """Add what ``other`` (a part's state, of later records of the same run) found."""
        ...


@dataclass(frozen=True)
class AuditPolicy:
    """What an audit trusts and how strictly it judges (see the module docstring)."""

    #: the key the audit trusts, and why (``None``: the pinned policy's log, else each record's claim)
    trust: TrustAnchor | None = None
    #: the auditor's pinned C2SP tlog-policy: trusted logs and the witness quorum (``None``: none)
    policy: Policy | None = None
    #: stop each record at its first fault
    strict: bool = False
    #: verify every statement's Ed25519 signature (by default they are left to the log checkpoint)
    check_signatures: bool = False
    #: the operator's whole log, when the audit holds it (:class:`~audit.auditor.evidence.logcheck.LogView`)
    log: LogView | None = None
    #: the auditor's state check (``--state``): every checkpoint met is compared with the stored one
    state: CheckpointState | None = None
    #: a bare pinned key: the library's shorthand for ``trust=TrustAnchor(key, "pinned")``,
    #: checked as a key when a record is judged (a bad one is that record's fault, not the run's)
    public_key: str | None = None

    @classmethod
    def of(cls, *, public_key: str | None = None, trust: TrustAnchor | None = None,
           witnesses: Policy | WitnessPolicy | None = None, policy: Policy | WitnessPolicy | None = None,
           strict: bool = False, check_signatures: bool = False, log: LogView | None = None,
           state: CheckpointState | None = None) -> "AuditPolicy":
        """The policy from the options as callers name them: ``witnesses`` or ``policy`` is a
        :class:`~audit.tlog.policy.Policy` or the older
        :class:`~audit.auditor.verdict.witnesscheck.WitnessPolicy` of ``--witness``/``--quorum``."""
        if witnesses is not None and policy is not None:
            raise TypeError("give the witness policy once: witnesses= or policy=")
        return cls(trust=trust, policy=as_policy(witnesses if witnesses is not None else policy), strict=strict,
                   check_signatures=check_signatures, log=log, state=state, public_key=public_key)

    @property
    def key(self) -> str | None:
        """The pinned key, if any: the trust anchor's, else the bare one (hex in lower case,
        as the trust anchor's: either case names the same key)."""
        if self.trust is not None:
            return self.trust.public_key
        return self.public_key.lower() if isinstance(self.public_key, str) else self.public_key

    @property
    def origin(self) -> str | None:
        """The pinned log origin, if any."""
        return self.trust.origin if self.trust is not None else None


def as_policy(witnesses: object) -> Policy | None:
    """A :class:`Policy` from what a caller passes as ``witnesses`` (a policy, a
    :class:`WitnessPolicy`, or nothing)."""
    if witnesses is None or isinstance(witnesses, Policy):
        return witnesses
    if isinstance(witnesses, WitnessPolicy):
        return policy_of_witnesses(list(witnesses.witnesses), witnesses.quorum) if witnesses.active else None
    raise TypeError(f"not a witness policy: {type(witnesses).__name__}")


def options(terms: AuditPolicy | None, given: dict[str, Any]) -> AuditPolicy:
    """``terms``, or the policy made of the keyword options a caller gave instead (never both)."""
    if terms is None:
        return AuditPolicy.of(**given)
    if given:
        raise TypeError(f"an AuditPolicy, or options ({', '.join(sorted(given))}), not both")
    return terms
