"""The monitor: watch an operator's transparency log and report every way it can misbehave.

One :func:`poll` does, against the operator's ``/api/v1/log`` API:

1. fetch the checkpoint and verify its signature -- under the pinned public key, or, on
   first use (TOFU), under the key the operator publishes, which is then recorded;
2. compare it with the last checkpoint accepted (kept in the state file): a smaller size
   is a ROLLBACK, the same size with another root or a consistency proof that does not
   verify is a FORK (history was rewritten, removed or reordered);
3. fetch every new entry, recompute its leaf hash from the signed statement and verify
   its inclusion proof against the new root (MISSING_ENTRY, BAD_INCLUSION), and check the
   statement's own signature (BAD_STATEMENT);
4. follow every hand (:mod:`audit.auditor.monitor.hands`): its open state (STALLED,
   UNPUBLISHED, FUTURE_TIME past the grace period), each new entry's protocol order, time
   and seeds (EVENT_ORDER, TIME_ORDER, FUTURE_TIME, SEED_REUSE), and -- when an audit hook
   is given -- the audit of every revealed hand's record, fetched from
   ``/api/v1/hands/<hand_id>/record`` as soon as the operator serves it (AUDIT_FAILED).

The new checkpoint is accepted into the state when the *log* checks pass (1-3): a problem
about a hand is reported but never stops the log being followed, so a stalled hand does not
blind the monitor to a later fork.  Each hand check keeps its own state (open hands, the
log scan, the pending audits) in the state file.
:func:`compare` gossips: two monitors' checkpoints of one log must be consistent; if not,
the operator showed them different logs (SPLIT_VIEW), and the two signed checkpoints are
the evidence.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from datetime import datetime, timedelta

from audit.auditor.sources.coverage import DEFAULT_GRACE, utc_now
from audit.auditor.sources.logscan import LogScan
from audit.errors import ProofError, SignatureError
from audit.signing import verify_statement
from replay.canonical import canonical_json
from replay.errors import MalformedError

from ...tlog import merkle
from ...tlog.checkpoint import Checkpoint, parse_checkpoint, verify_checkpoint
from ...tlog.cosignature import WitnessQuorumError, check_quorum
from .hands import (AuditHook, Problem, audit_pending, check_open_hands, follow, report_reuse,
                            scan_entry)
from ...tlog.note import Vkey
from ..sources.operator_api import LogClient, OperatorError, proof_hashes

STATE_VERSION = 2


@dataclass(frozen=True, slots=True)
class MonitorState:
    """What a monitor remembers between polls (a small JSON file)."""

    url: str
    public_key: str | None = None
    origin: str | None = None
    trust: str = "tofu"  # "pinned" (given on the command line) or "tofu" (first use)
    checkpoint: str | None = None
    #: hands not yet closed (revealed and published, or cancelled): (hand_id, last kind, last time)
    open_hands: tuple[tuple[str, str, str | None], ...] = ()
    #: the log scan's state (:meth:`audit.auditor.sources.logscan.LogScan.to_json`): open hands' protocol
    #: steps, closed hands, the last statement time, every server commitment and seed
    scan: Mapping[str, Any] | None = field(default=None, compare=False)
    #: revealed hands whose record is not audited yet: (hand_id, the reveal's entry)
    pending: tuple[tuple[str, int], ...] = ()

    @classmethod
    def load(cls, path: Path, *, url: str) -> "MonitorState":
        from ...statefile import read_state

        data = read_state(path)  # refuses a file that is not a state file (it is never overwritten)
        if data is None:
            return cls(url=url)
        try:
            open_hands = tuple((str(h), str(k), t if isinstance(t, str) else None)
                               for h, k, t in data.get("open_hands", []))
            pending = tuple((str(h), int(i)) for h, i in data.get("pending", []))
            scan = data.get("scan")
            return cls(url=data["url"], public_key=data.get("public_key"), origin=data.get("origin"),
                       trust=data.get("trust", "tofu"), checkpoint=data.get("checkpoint"), open_hands=open_hands,
                       scan=scan if isinstance(scan, dict) else None, pending=pending)
        except (ValueError, KeyError, TypeError):
            raise MalformedError(f"{path} is not a monitor state file") from None

    def save(self, path: Path) -> None:
        data = {"version": STATE_VERSION, "url": self.url, "public_key": self.public_key,
                "origin": self.origin, "trust": self.trust, "checkpoint": self.checkpoint,
                "open_hands": [list(h) for h in self.open_hands], "pending": [list(p) for p in self.pending],
                "scan": self.scan}
        from ...statefile import write_state

        write_state(path, data)


@dataclass
class PollResult:
    state: MonitorState
    problems: list[Problem] = field(default_factory=list)
    checkpoint: Checkpoint | None = None
    new_entries: int = 0
    audited: int = 0
    notes: list[str] = field(default_factory=list)
    open_hands: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # hand -> (last kind, time)
    pending: dict[str, int] = field(default_factory=dict)  # revealed hand -> its reveal's entry, not yet audited
    #: whether the new checkpoint was accepted (the log checks passed; hand problems do not stop it)
    accepted: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def log_problems(self) -> list[Problem]:
        """The problems with the log itself (they stop the checkpoint being accepted)."""
        return [p for p in self.problems if not p.about_a_hand]


def verdict_is_ok(verdict: Any) -> bool:
    """Read a verdict-ish value: ``.ok`` / ``["ok"]`` when present, else its truth value."""
    if isinstance(verdict, Mapping):
        return bool(verdict.get("ok", False))
    if hasattr(verdict, "ok"):
        return bool(verdict.ok)
    return bool(verdict)


def _verify_head(body: Mapping[str, Any], state: MonitorState, public_key: str | None
                 ) -> tuple[Checkpoint | None, MonitorState, list[Problem]]:
    text = body.get("checkpoint")
    key = public_key or state.public_key
    trust = "pinned" if public_key else state.trust
    if key is None:  # trust on first use
        key = body.get("public_key")
        if not isinstance(key, str):
            return None, state, [Problem("BAD_SIGNATURE", "no public key given and the operator publishes none")]
    try:
        cp = verify_checkpoint(text if isinstance(text, str) else "", key, origin=state.origin)
    except SignatureError as exc:
        return None, state, [Problem("BAD_SIGNATURE", f"checkpoint does not verify: {exc}")]
    except MalformedError as exc:
        return None, state, [Problem("BAD_CHECKPOINT", f"checkpoint does not parse: {exc}")]
    problems = []
    if body.get("size") != cp.size or body.get("root") != cp.root.hex():
        problems.append(Problem("BAD_CHECKPOINT", "the JSON size/root differ from the signed checkpoint"))
    return cp, replace(state, public_key=key, origin=cp.origin, trust=trust), problems


def _check_against(old: Checkpoint, new: Checkpoint, client: LogClient, label: str) -> list[Problem]:
    """Problems if ``new`` (already verified) is not an append-only extension of ``old``."""
    if new.size < old.size:
        return [Problem("ROLLBACK", f"{label} size {new.size} is smaller than the accepted size {old.size}")]
    if new.size == old.size:
        if new.root != old.root:
            return [Problem("FORK", f"two different roots for size {new.size}: {old.root.hex()} and {new.root.hex()}")]
        return []
    try:
        path = client.consistency_proof(old.size, new.size)
        merkle.verify_consistency(old.size, new.size, old.root, new.root, path)
    except ProofError as exc:
        return [Problem("FORK", f"size {new.size} is not an extension of accepted size {old.size}: {exc}")]
    return []


def _check_entries(client: LogClient, cp: Checkpoint, start: int, audit_record: AuditHook | None,
                   result: PollResult, scan: LogScan) -> None:
    index = start
    while index < cp.size:
        page = client.entries(index, cp.size)
        if not page:
            result.problems.append(Problem("MISSING_ENTRY", f"entries {index}..{cp.size - 1} are not served"))
            return
        for item in page:
            got = item.get("index") if isinstance(item, Mapping) else None
            if not isinstance(got, int) or got < index or got >= cp.size:
                result.problems.append(Problem("BAD_ENTRY", f"entry list out of order at {index}: {got!r}"))
                return
            for missing in range(index, got):
                result.problems.append(Problem("MISSING_ENTRY", f"entry {missing} is not served"))
            index = got + 1
            _check_entry(client, cp, got, item.get("entry"), audit_record, result, scan)
            result.new_entries += 1


def _check_entry(client: LogClient, cp: Checkpoint, index: int, signed: Any, audit_record: AuditHook | None,
                 result: PollResult, scan: LogScan) -> None:
    try:
        leaf = merkle.leaf_hash(canonical_json(signed))
        proof = client.inclusion_proof(index, cp.size)
        merkle.verify_inclusion(leaf, index, cp.size, proof_hashes(proof.get("path")), cp.root)
    except (ProofError, MalformedError) as exc:
        result.problems.append(Problem("BAD_INCLUSION", f"entry {index} as served is not in the tree of size "
                                                        f"{cp.size}: {exc}"))
        return
    try:
        statement = verify_statement(signed)
    except (SignatureError, MalformedError) as exc:
        result.problems.append(Problem("BAD_STATEMENT", f"entry {index}'s statement signature: {exc}"))
        return
    follow(statement, result.open_hands)
    scan_entry(scan, index, statement, result)
    if statement.get("kind") != "reveal":
        return
    hand_id = statement.get("hand_id")
    if audit_record is None or not isinstance(hand_id, str):
        result.notes.append(f"hand {hand_id} revealed at entry {index}: audit skipped (no audit hook)")
        return
    result.pending.setdefault(hand_id, index)


def _check_witnesses(cp: Checkpoint, witnesses: Sequence[Vkey], quorum: int, result: PollResult) -> None:
    """A ``WITNESS_QUORUM`` problem unless ``quorum`` of ``witnesses`` cosigned ``cp``."""
    if not witnesses or quorum <= 0:
        return
    try:
        results = check_quorum(cp.text, witnesses, quorum)
    except WitnessQuorumError as exc:
        result.problems.append(Problem("WITNESS_QUORUM", f"checkpoint of size {cp.size}: {exc}"))
        return
    names = ", ".join(r.name for r in results if r.ok)
    result.notes.append(f"checkpoint of size {cp.size} cosigned by {names}")


def _check_policy(cp: Checkpoint, policy: Any, result: PollResult) -> None:
    """A ``WITNESS_QUORUM`` problem unless the quorum of ``policy`` (:class:`audit.tlog.policy.Policy`)
    cosigned ``cp``; a ``BAD_SIGNATURE`` one if the policy lists logs and none of them signed it."""
    if policy is None:
        return
    judged = policy.evaluate(cp.text)
    if policy.logs and judged.log is None:
        result.problems.append(Problem("BAD_SIGNATURE", f"checkpoint of size {cp.size}: {judged.log_problem} "
                                                        f"{policy.label}"))
    if not judged.quorum_met:
        result.problems.append(Problem("WITNESS_QUORUM", f"checkpoint of size {cp.size} lacks the quorum of "
                                                         f"{policy.label} ({policy.describe()}): "
                                                         + "; ".join(judged.missing)))
    elif judged.counted:
        result.notes.append(f"checkpoint of size {cp.size} cosigned by {', '.join(c.name for c in judged.counted)}"
                            f" (quorum of {policy.label})")


def poll(client: LogClient, state: MonitorState, *, public_key: str | None = None,
         audit_record: AuditHook | None = None, witnesses: Sequence[Vkey] = (), quorum: int = 0,
         now: datetime | None = None, grace: timedelta = DEFAULT_GRACE, policy: Any = None) -> PollResult:
    """Poll the operator once; the returned state holds the new checkpoint only if all is well.

    With ``witnesses`` (vkeys, type 0x04) and ``quorum`` > 0, a checkpoint that fewer than
    ``quorum`` of them cosigned is a ``WITNESS_QUORUM`` problem (and is not accepted); so is
    one that lacks the quorum of ``policy`` (a pinned C2SP tlog-policy, :mod:`audit.tlog.policy`).
    ``now`` (default: the real time) and ``grace`` judge the hands still open."""
    now = now or utc_now()
    result = PollResult(state=state, open_hands={h: (k, t) for h, k, t in state.open_hands},
                        pending=dict(state.pending))
    scan = LogScan.from_json(state.scan, now=now)
    cp: Checkpoint | None = None
    new_state = state
    try:
        body = client.checkpoint()
        cp, new_state, problems = _verify_head(body, state, public_key)
        result.problems += problems
        if cp is None or problems:
            return result
        _check_witnesses(cp, witnesses, quorum, result)
        _check_policy(cp, policy, result)
        if result.problems:
            return result
        result.checkpoint = cp
        start = 0
        if state.checkpoint is not None:
            old = parse_checkpoint(state.checkpoint, legacy=True)  # ours, maybe saved before format 3
            result.problems += _check_against(old, cp, client, "the operator's")
            if result.problems:
                return result
            start = old.size
        shared = scan.shared()
        _check_entries(client, cp, start, audit_record, result, scan)
        if result.log_problems:
            return result
        report_reuse(scan, shared, result)
        if audit_record is not None:
            audit_pending(client, audit_record, result.pending, result, verdict_is_ok)
        check_open_hands(client, result.open_hands, result, now, grace)
    except OperatorError as exc:
        result.problems.append(Problem(exc.kind, str(exc)))
    if cp is not None and not result.log_problems:  # the log checks passed: follow it, whatever the hands did
        open_hands = tuple((h, k, t) for h, (k, t) in sorted(result.open_hands.items()))
        pending = tuple(sorted(result.pending.items()))
        result.state = replace(new_state, checkpoint=cp.text, open_hands=open_hands, scan=scan.to_json(),
                               pending=pending)
        result.accepted = True
    return result


def load_other_checkpoint(path: Path) -> str:
    """A checkpoint to compare with: another monitor's state file, or a checkpoint text file."""
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except ValueError:
        return text
    held = data.get("checkpoint") if isinstance(data, dict) else None
    if isinstance(held, str):
        return held
    raise MalformedError(f"{path} holds no checkpoint")


def compare(state: MonitorState, other_text: str, client: LogClient, *, label: str = "other") -> list[Problem]:
    """Gossip: is another monitor's checkpoint of this log consistent with ours?

    Both must verify under our key.  Same size: the roots must be equal.  Different sizes:
    the operator must prove the smaller is a prefix of the larger.  Anything else is a
    SPLIT_VIEW: the operator signed two incompatible logs.
    """
    if state.checkpoint is None or state.public_key is None:
        return [Problem("NO_STATE", "nothing accepted yet to compare with")]
    mine = parse_checkpoint(state.checkpoint, legacy=True)
    try:
        theirs = verify_checkpoint(other_text, state.public_key, origin=state.origin, legacy=True)
    except (SignatureError, MalformedError) as exc:
        return [Problem("BAD_SIGNATURE", f"{label}'s checkpoint does not verify under our key: {exc}")]
    small, large = (mine, theirs) if mine.size <= theirs.size else (theirs, mine)
    if small.size == large.size:
        if small.root != large.root:
            return [Problem("SPLIT_VIEW", f"the operator signed two roots for size {small.size}: "
                                          f"ours {mine.root.hex()}, {label}'s {theirs.root.hex()}")]
        return []
    try:
        path = client.consistency_proof(small.size, large.size)
        merkle.verify_consistency(small.size, large.size, small.root, large.root, path)
    except ProofError as exc:
        return [Problem("SPLIT_VIEW", f"ours (size {mine.size}) and {label}'s (size {theirs.size}) checkpoints "
                                      f"are not of one log: {exc}")]
    except OperatorError as exc:
        return [Problem(exc.kind, str(exc))]
    return []
