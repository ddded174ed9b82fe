"""Audit one hand record: is everything the operator published true?  -> :class:`Verdict`.

The checks, in order (each failure is a :class:`~replay.faults.Fault` with a
:class:`~replay.faults.Reason`):

1. the record parses (schema, types, seeds, amounts) -- ``MALFORMED``;
2. the revealed server seed matches its commitment, every seat seed its seat commitment;
3. the resolved ruleset hashes to the committed ruleset hash (D-1);
4. every signed statement is under the trusted operator key, says what the record says,
   and the statements come in the protocol's order (see :mod:`audit.auditor.verdict.statement_check`); with
   ``check_signatures=True`` each statement's Ed25519 signature is verified too;
5. the replay is clean (:mod:`replay.replayer`);
6. the claimed outcome equals the recomputed one, and the claimed payouts and commission
   equal the recomputed settlement to the last 0.01 HT;
7. the hand is in the operator's log (:mod:`audit.auditor.evidence.logcheck`): one checkpoint, verified under
   the trusted key, and every statement the leaf at its index, in the protocol's order --
   ``NOT_LOG_BOUND`` for a ``tiplu.hand/1`` record.  Given the whole log (``log``), the
   checkpoint must be the log's and the log must hold no second statement set of the hand.

The trusted key (``trust``, a :class:`~audit.auditor.verdict.trust.TrustAnchor`, or ``public_key``) is the
auditor's, never the record's own ``table.public_key`` -- without one, the audit falls back
to that claimed key and :func:`trust_of` says so (basis ``record``: not a trust anchor).

Last, :func:`audit.auditor.verdict.timing.judge_timing` says what proved the timing (``Verdict.timing``):
``whole-log`` given ``log``, ``witnessed`` when the pinned ``policy``'s witness quorum cosigned
the checkpoint, else ``unproven``; under a policy that requires witnesses a missing quorum is
``WITNESS_QUORUM``.  ``Verdict.status`` is ``fail``, ``unproven`` or ``pass``.

``strict=True`` stops at the first fault; the default report mode collects them all.

A :class:`Verdict` groups its faults (:func:`replay.faults.group_faults`): root causes
first, each consequence marked with ``caused_by``; :attr:`Verdict.reason` and
:attr:`Verdict.first_bad_move` come from the root causes only, so a changed seed is reported
as the seed, not as "first bad move 0".
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from replay.canonical import JSON_WITH_FLOATS, PLAIN_JSON, json_kind
from replay.errors import CommitmentMismatchError, MalformedError
from replay.fairness import verify_player_seed, verify_server_seed
from replay.faults import Fault, Reason, group_faults
from replay.record_text import refuse_non_integers
from replay.records import HandRecord, load_json_kind, parse_record
from replay.replayer import ReplayResult, replay_record

from ..evidence.logcheck import LogView, check_log_evidence, verified_checkpoint
from .audit_policy import AuditPolicy, options
from ...schema import validate_record
from .statement_check import check_statements
from ...tlog.policy import Policy
from ...timecheck import witnessed_future
from .timing import Timing, checkpoint_text_of, judge_timing
from .trust import TrustAnchor
from ...consttime import same_text


@dataclass(frozen=True)
class Verdict:
    """The audit's answer for one record."""

    hand_id: str | None
    preset: str | None
    faults: tuple[Fault, ...] = ()
    table_id: str | None = None
    replay: ReplayResult | None = field(default=None, repr=False, compare=False)
    timing: Timing | None = None  # what proved the timing (audit.auditor.verdict.timing); None: no record that parses

    def __post_init__(self) -> None:
        object.__setattr__(self, "faults", group_faults(self.faults))

    @property
    def ok(self) -> bool:
        return not self.faults

    @property
    def root_causes(self) -> tuple[Fault, ...]:
        """The faults nothing else explains, in the order to read them."""
        return tuple(f for f in self.faults if f.caused_by is None)

    @property
    def consequences(self) -> tuple[Fault, ...]:
        """The faults that follow from a root cause (each names it with ``caused_by``)."""
        return tuple(f for f in self.faults if f.caused_by is not None)

    @property
    def reason(self) -> Reason | None:
        """The reason of the first root cause (``None`` when the record is clean)."""
        return self.faults[0].reason if self.faults else None

    @property
    def first_bad_move(self) -> int | None:
        """The first move a root cause names (``None`` when the root causes name none)."""
        indices = [f.move_index for f in self.root_causes if f.move_index is not None]
        return min(indices) if indices else None

    @property
    def proven(self) -> bool:
        """Whether something proved the timing (a witness quorum or the whole log)."""
        return self.timing is not None and self.timing.proven

    @property
    def status(self) -> str:
        """``fail`` (a fault), ``unproven`` (no fault, timing unproven) or ``pass``."""
        return "fail" if self.faults else "pass" if self.proven else "unproven"

    @property
    def reasons(self) -> tuple[Reason, ...]:
        return tuple(dict.fromkeys(f.reason for f in self.faults))

    def to_json(self) -> dict[str, Any]:
        return {
            "hand_id": self.hand_id, "table_id": self.table_id, "preset": self.preset, "ok": self.ok,
            "reason": self.reason.value if self.reason else None,
            "first_bad_move": self.first_bad_move, "root_causes": len(self.root_causes),
            "faults": [f.to_json() for f in self.faults],
            "timing": self.timing.to_json() if self.timing is not None else None,
        }


class _Stop(Exception):
    pass


def _amount(x: Any) -> Decimal | None:
    try:
        return Decimal(str(x)) if isinstance(x, (str, int)) and not isinstance(x, bool) else None
    except InvalidOperation:
        return None


def compare_outcome(claimed: Mapping[str, Any] | None, result: ReplayResult) -> list[Fault]:
    """Faults where the operator's claimed outcome differs from the replay's."""
    if result.outcome is None or result.settlement is None:
        return []
    if not isinstance(claimed, Mapping):
        return [Fault(Reason.OUTCOME_MISMATCH, "the record claims no outcome")]
    faults = []
    mine = result.outcome.to_json()
    differing = [k for k, v in mine.items() if claimed.get(k) != v]
    if differing:
        faults.append(Fault(Reason.OUTCOME_MISMATCH, f"claimed {', '.join(differing)} differ from the replay"))
    pay = claimed.get("payouts")
    if not isinstance(pay, Mapping):
        return faults + [Fault(Reason.PAYOUT_MISMATCH, "the record claims no payouts")]
    if _amount(pay.get("commission")) != result.settlement.commission:
        faults.append(Fault(Reason.COMMISSION_MISMATCH,
                            f"claimed commission {pay.get('commission')!r}, recomputed {result.settlement.commission}"))
    nets = pay.get("nets")
    ours = result.settlement.nets
    if not isinstance(nets, list) or len(nets) != len(ours) or any(_amount(a) != b for a, b in zip(nets, ours)):
        bad = [i for i, b in enumerate(ours) if not isinstance(nets, list) or i >= len(nets) or _amount(nets[i]) != b]
        faults.append(Fault(Reason.PAYOUT_MISMATCH,
                            f"claimed HT nets differ from the recomputed settlement at seats {bad}"))
    gross = pay.get("gross")
    if not isinstance(gross, list) or [_amount(a) for a in gross] != list(result.settlement.gross):
        faults.append(Fault(Reason.PAYOUT_MISMATCH, "claimed gross HT amounts differ from the recomputed settlement"))
    if _amount(pay.get("pot_delta")) != result.settlement.pot_delta:
        faults.append(Fault(Reason.PAYOUT_MISMATCH, "claimed pot change differs from the recomputed one"))
    if set(pay) - {"gross", "nets", "commission", "pot_delta"}:
        faults.append(Fault(Reason.PAYOUT_MISMATCH, "the payouts claim fields the settlement does not have"))
    return faults


def trust_of(record: HandRecord | None, *, trust: TrustAnchor | None = None,
             public_key: str | None = None, policy: Policy | None = None) -> TrustAnchor | None:
    """The key an audit of ``record`` trusts: ``trust``, else ``public_key`` (basis
    ``pinned``), else the log of ``policy`` named as the record's checkpoint origin (basis
    ``policy``; its first log when none is), else the record's own claim (basis ``record``,
    not a trust anchor)."""
    if trust is not None:
        return trust
    if public_key is not None:
        return TrustAnchor(public_key, "pinned")
    if policy is not None and policy.logs:
        text = checkpoint_text_of(record)
        log = policy.log_for(text.split("\n", 1)[0]) if text else None
        log = log or policy.logs[0]
        return TrustAnchor(log.vkey.public_hex, "policy", log.origin)
    if record is None:
        return None
    try:
        return TrustAnchor(record.table.public_key, "record")
    except MalformedError:
        return None


def audit_record(data: Any, terms: AuditPolicy | None = None, *, kind: int | None = None, **given: Any) -> Verdict:
    """Audit one record (JSON text, a dict, or a parsed :class:`HandRecord`) under ``terms``
    (:class:`~audit.auditor.verdict.audit_policy.AuditPolicy`; or its options as keywords,
    :meth:`AuditPolicy.of`: ``public_key``, ``trust``, ``strict``, ``check_signatures``,
    ``log``, ``policy``, ``state``).  ``kind``: the dict's :func:`~replay.canonical.json_kind`
    when the caller knows it (a source that decoded it: :func:`replay.records.load_json_kind`).
    The policy's ``policy``, the auditor's pinned C2SP tlog-policy (:mod:`audit.tlog.policy`):
    its logs are the trusted keys when nothing else is pinned, and its witness quorum, when it
    asks one, must have cosigned the record's checkpoint (``WITNESS_QUORUM``).  The verdict's
    ``timing`` (:mod:`audit.auditor.verdict.timing`) says what proved the timing: ``log`` (the
    whole log), the policy's quorum, or nothing.  With a ``state``, a checkpoint of the record
    that contradicts the auditor's stored one is ``LOG_INCONSISTENT`` (:func:`state_faults`)."""
    terms = options(terms, given)
    strict, log, policy = terms.strict, terms.log, terms.policy
    try:
        if isinstance(data, HandRecord):
            record = data
        else:
            if isinstance(data, (str, bytes)):
                data, kind = load_json_kind(data)
            elif kind is None:
                kind = json_kind(data)  # the one walk of the record's values
            if kind == JSON_WITH_FLOATS:  # integers written as integers: 1.0 is not the seat 1
                refuse_non_integers(data)
            validate_record(data, kind=kind)
            record = parse_record(data, plain=kind == PLAIN_JSON)
    except MalformedError as exc:
        hand_id = data.get("hand_id") if isinstance(data, Mapping) else None
        malformed = [Fault(Reason.MALFORMED, str(exc))]
        if terms.state is not None and not strict:  # a record that does not parse: its raw checkpoint
            malformed += state_faults(data, terms.state, terms.key, terms.origin)
        return Verdict(hand_id if isinstance(hand_id, str) else None, None, tuple(malformed))
    faults: list[Fault] = []

    def add(new: list[Fault] | Fault) -> None:
        faults.extend(new if isinstance(new, list) else [new])
        if strict and faults:
            raise _Stop

    result = None
    try:
        f = record.fairness
        if f.server_seed is None:
            add(Fault(Reason.NOT_REVEALED, "the server seed is not revealed yet"))
        else:
            try:
                verify_server_seed(f.server_seed, f.server_commitment)
            except CommitmentMismatchError as exc:
                add(Fault(Reason.SERVER_SEED_MISMATCH, str(exc)))
        for seat, (seed, commitment) in enumerate(zip(f.player_seeds, f.seat_commitments)):
            try:
                verify_player_seed(record.hand_id, seat, seed, commitment)
            except CommitmentMismatchError as exc:
                add(Fault(Reason.SEAT_SEED_MISMATCH, str(exc)))
        if not same_text(record.ruleset.hash, f.ruleset_hash):
            add(Fault(Reason.RULESET_MISMATCH, "the resolved ruleset does not hash to the committed ruleset hash"))
        anchor = trust_of(record, trust=terms.trust, public_key=terms.public_key, policy=policy)
        key = anchor.public_key if anchor is not None else record.table.public_key
        add(check_statements(record, public_key=key if anchor is not None and anchor.is_pinned else None,
                             check_signatures=terms.check_signatures))
        if f.server_seed is not None:
            result = replay_record(record, strict=strict)
            add(list(result.faults))
            add(compare_outcome(record.outcome, result))
        if anchor is None:
            add(Fault(Reason.BAD_CHECKPOINT, "the record's operator key is not a key: nothing to check its log "
                                             "checkpoint with"))
        else:
            add(check_log_evidence(record, anchor.public_key, origin=anchor.origin, log=log))
    except _Stop:
        pass
    timing, extra = judge_timing(record, faults, policy=policy, whole_log=whole_log_name(log))
    if not (strict and faults):
        faults.extend(extra)
        # a statement dated after a witness cosigned the tree that holds it (issue 27)
        faults.extend(witnessed_future(record.fairness.statements, timing.witnesses))
    if terms.state is not None and not (strict and faults):
        faults.extend(state_faults(record, terms.state, terms.key, terms.origin))
    return Verdict(record.hand_id, record.preset, tuple(faults), record.table.table_id, result, timing)


def state_faults(record: Any, state: Any, public_key: str | None, origin: str | None) -> list[Fault]:
    """The ``LOG_INCONSISTENT`` fault if the record's checkpoint contradicts ``state`` (an
    :class:`audit.auditor.run.auditstate.StateCheck`), verified under ``public_key`` (else the
    record's own claimed key) and ``origin``; nothing if it has no checkpoint that verifies (its
    own audit reports that).  ``record``: the parsed :class:`HandRecord`, or -- for a record that
    does not parse, the only form it has -- its raw JSON value."""
    from ...tlog.proof import parse_tlog_proof

    try:
        if isinstance(record, HandRecord):
            proof, claimed = (record.fairness.log_proofs or ())[0], record.table.public_key  # none: IndexError, below
        else:
            if isinstance(record, (str, bytes)):
                import json

                record = json.loads(record)
            proof, claimed = record["fairness"]["log_proofs"][0], record["table"]["public_key"]
        cp = verified_checkpoint(parse_tlog_proof(proof).checkpoint_text, public_key or claimed, origin)
    except Exception:  # noqa: BLE001 - no usable checkpoint: the record's own audit says why
        return []
    message = state.check(cp)
    return [] if message is None else [Fault(Reason.LOG_INCONSISTENT, message)]


def whole_log_name(log: LogView | None) -> str | None:
    """How a verdict names the whole log a record was judged against (``None``: none).  One
    name for a ledger, a served log and a worker's copy of either, so that a parallel audit
    says exactly what one process says."""
    return None if log is None else "its ledger or its served log, read by the auditor"
