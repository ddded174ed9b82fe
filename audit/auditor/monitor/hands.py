"""What the monitor follows of each hand, apart from the log's own integrity.

The log checks of a poll (:mod:`audit.auditor.monitor.watch`: signature, consistency, inclusion)
decide whether a checkpoint is accepted.  The hand checks here never stop that: a hand
stalled for a week must not stop the monitor accepting the log's growth, or a fork after it
would never be seen.  Each keeps its own state in the state file:

* **open hands** -- every hand from its ``hand`` statement to its publication or cancel;
  one that waits past the grace period is ``STALLED`` or ``UNPUBLISHED``, one whose last
  statement is dated in the future ``FUTURE_TIME`` (:func:`audit.auditor.sources.coverage.classify`),
  reported at every poll while it lasts;
* **the log scan** (:class:`audit.auditor.sources.logscan.LogScan`) -- each new entry's place in its hand's
  protocol (``EVENT_ORDER``), its time against the one before it and the monitor's clock
  (``TIME_ORDER``, ``FUTURE_TIME``), and every server commitment and seed (``SEED_REUSE``),
  reported once, in the poll that reads the entry;
* **pending audits** -- every revealed hand whose record has not been audited yet: its record
  is fetched and audited at each poll until the operator serves it, so a record published
  after the poll that saw the reveal is still audited (``AUDIT_FAILED`` when it fails).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable, Mapping

from audit.auditor.sources.coverage import classify
from audit.auditor.sources.logscan import LogScan
from replay.errors import TipluError

AuditHook = Callable[[Mapping[str, Any]], Any]

#: problems about hands: reported, but they never stop a checkpoint being accepted
HAND_KINDS = frozenset({"STALLED", "UNPUBLISHED", "FUTURE_TIME", "EVENT_ORDER", "TIME_ORDER", "SEED_REUSE",
                        "AUDIT_FAILED"})

#: what a hand's last statement says of its state, for :func:`audit.auditor.sources.coverage.classify`
STATE_AFTER = {"hand": "created", "commitment": "committed", "seat-receipt": "seeds-committed",
               "seat-reveal": "seeds-revealed", "deal": "dealt", "record": "finished", "reveal": "revealed"}


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing the operator did wrong (or that stopped the check); printed as one line."""

    kind: str
    message: str

    def __str__(self) -> str:
        return f"{self.kind}: {' '.join(self.message.split())}"  # always one line

    @property
    def about_a_hand(self) -> bool:
        return self.kind in HAND_KINDS


def follow(statement: Mapping[str, Any], open_hands: dict[str, tuple[str, str | None]]) -> None:
    """Track the hand of one new statement: opened by its ``hand`` statement (a hand is
    followed from its start), moved on by each later one, closed by ``cancel``."""
    hand_id, kind = statement.get("hand_id"), statement.get("kind")
    if not isinstance(hand_id, str) or not isinstance(kind, str):
        return
    if kind == "cancel":
        open_hands.pop(hand_id, None)
    elif kind == "hand" or (kind in STATE_AFTER and hand_id in open_hands):
        time = statement.get("time")
        open_hands[hand_id] = (kind, time if isinstance(time, str) else None)


def scan_entry(scan: LogScan, index: int, statement: Mapping[str, Any], result: Any) -> None:
    """Feed one verified entry to the log scan; its faults are the poll's problems."""
    for hand_id, fault in scan.feed(index, statement):
        result.problems.append(Problem(fault.reason.value.upper(), f"hand {hand_id}: {fault.message}"))


def report_reuse(scan: LogScan, before: set[tuple[str, str]], result: Any) -> None:
    """A ``SEED_REUSE`` problem for each hand of a commitment or seed first shared in this poll."""
    for hand_id, fault in scan.new_reuse(before):
        result.problems.append(Problem("SEED_REUSE", f"hand {hand_id}: {fault.message}"))


def _reason_of(verdict: Any) -> Any:
    reason = getattr(verdict, "reason", None) or (verdict.get("reason") if isinstance(verdict, Mapping) else None)
    reasons = getattr(verdict, "reasons", None)
    if reasons:  # every reason of a Verdict, by wire name (not_in_log), not the enum's repr
        reason = ", ".join(dict.fromkeys(getattr(r, "value", str(r)) for r in reasons))
    return getattr(reason, "value", reason)


def audit_pending(client: Any, audit_record: AuditHook, pending: dict[str, int], result: Any,
                  verdict_is_ok: Callable[[Any], bool]) -> None:
    """Audit the record of every revealed hand in ``pending`` (hand id -> its reveal's entry)
    that the operator now serves; the others stay pending for the next poll."""
    for hand_id, index in sorted(pending.items(), key=lambda p: p[1]):
        try:
            record = client.hand_record(hand_id)
        except TipluError as exc:  # the operator's API failed on this hand: it stays pending
            result.problems.append(Problem("AUDIT_FAILED", f"hand {hand_id} (entry {index}): its record cannot "
                                                           f"be fetched: {exc}"))
            continue
        if record is None:
            result.notes.append(f"hand {hand_id} revealed at entry {index}: its record is not served yet; "
                                "it is audited when it is")
            continue
        del pending[hand_id]
        try:
            verdict = audit_record(record)
        except TipluError as exc:
            result.problems.append(Problem("AUDIT_FAILED", f"hand {hand_id} (entry {index}): {exc}"))
            continue
        result.audited += 1
        if not verdict_is_ok(verdict):
            result.problems.append(Problem("AUDIT_FAILED", f"hand {hand_id} (entry {index}): "
                                                           f"{_reason_of(verdict) or repr(verdict)}"))


def check_open_hands(client: Any, open_hands: dict[str, tuple[str, str | None]], result: Any, now: datetime,
                     grace: timedelta) -> None:
    """Close revealed hands that are published; report every other hand waiting past grace
    (or dated in the future)."""
    for hand_id, (kind, time) in sorted(open_hands.items()):
        if kind == "reveal":
            view = client.hand(hand_id)
            if not isinstance(view, Mapping) or view.get("published") is not False:
                del open_hands[hand_id]  # published (or the operator's API does not say)
                continue
        status = classify(hand_id, state=STATE_AFTER[kind], last_kind=kind, last_time=time, now=now, grace=grace)
        if status.is_failure:
            result.problems.append(Problem(status.status.upper(), f"hand {hand_id}: {status.message}"))
