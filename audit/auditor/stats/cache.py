"""The deal statistics of a ledger, kept from one request to the next.

``published_records`` is append-only (a trigger refuses any change or deletion), so the set
of published records -- and with it every statistic -- is fixed by the list of
``(rowid, hand_id)`` rows and the operators' registered keys.  :func:`fingerprint` hashes
exactly that (one index scan, no record text); :class:`LedgerStats` keeps the facts of
every record it has audited, audits only rows it has not seen, and keeps the finished
result under the fingerprint, so a warm request costs one fingerprint.

Each record is audited against the key its operator registered in the ledger (never the
key the record names) and must be about the hand it is published as.
"""
from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from replay.faults import Fault, Reason
from replay.records import load_json
from replay.errors import MalformedError

from ..verdict.hand_verdict import published_verdict
from ..evidence.ledger_log import LedgerLog
from .deals import DealStats, HandFacts, hand_facts
from ..verdict.verify import Verdict

if TYPE_CHECKING:
    from audit.operator.ledger import Ledger


def operator_keys(ledger: Ledger) -> dict[str, str]:
    return {name: ledger.public_key(name) for (name,) in ledger.db.execute("SELECT name FROM operators ORDER BY rowid")}


def fingerprint(ledger: Ledger) -> str:
    """SHA-256 over the published rows (rowid, hand id) and the operators' keys."""
    h = hashlib.sha256(b"tiplu/stats/v1\n")
    for rowid, hand_id in ledger.db.execute("SELECT rowid, hand_id FROM published_records ORDER BY rowid"):
        h.update(f"{rowid}\t{hand_id}\n".encode("utf-8"))
    h.update(json.dumps(operator_keys(ledger), sort_keys=True).encode("utf-8"))
    return h.hexdigest()


@dataclass(frozen=True)
class _Seen:
    facts: HandFacts | None
    ruleset: Any
    reason: str | None


def audit_published(ledger: Ledger, hand_id: str, text: str, public_key: str, log: Any = None) -> Verdict:
    """The verdict of one published record under its operator's registered key (basis
    ``ledger``), with the ledger's whole log as evidence (a re-logged forgery is a
    ``log_duplicate``)."""
    try:
        record = load_json(text)
    except MalformedError as exc:
        return Verdict(hand_id, None, (Fault(Reason.MALFORMED, str(exc)),))
    return published_verdict(record, hand_id=hand_id, public_key=public_key, log=log)


class LedgerStats:
    """Statistics of one ledger's published records, computed incrementally and cached."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[tuple[int, str], _Seen] = {}
        self._keys: dict[str, str] = {}
        self._rulesets: dict[str, Any] = {}
        self._results: dict[str, Any] = {}
        self.progress: tuple[int, int] = (0, 0)   # (records looked at, records published) of the run under way

    def cached(self, ledger: Ledger) -> tuple[str, Any | None]:
        """``(fingerprint, the finished result or None)`` without computing anything."""
        key = fingerprint(ledger)
        return key, self._results.get(key)

    def result(self, ledger: Ledger, render: Callable[[DealStats], Any] = lambda s: s) -> tuple[str, Any, bool]:
        """``(fingerprint, render(stats), warm)``; ``render`` runs once per fingerprint."""
        key = fingerprint(ledger)
        with self._lock:
            if key in self._results:
                return key, self._results[key], True
            keys = operator_keys(ledger)
            if keys != self._keys:          # a key changed: every verdict may change
                self._seen.clear()
                self._keys = keys
            rows = ledger.db.execute(
                "SELECT p.rowid, p.hand_id, t.operator FROM published_records p "
                "JOIN ledger_tables t ON t.id = p.table_id ORDER BY p.rowid").fetchall()
            stats = DealStats(trust={"public_key": None, "basis": "ledger",
                                     "operators": dict(sorted(keys.items()))})
            current = set()
            log = LedgerLog(ledger.db)
            for done, (rowid, hand_id, operator) in enumerate(rows):
                self.progress = (done, len(rows))
                current.add((rowid, hand_id))
                seen = self._seen.get((rowid, hand_id))
                if seen is None:
                    text = ledger.db.execute("SELECT record FROM published_records WHERE rowid = ?",
                                             [rowid]).fetchone()[0]
                    verdict = audit_published(ledger, hand_id, text, keys[operator], log)
                    facts = hand_facts(verdict)
                    ruleset = None
                    replayed = verdict.replay  # with facts: replayed, with its record (hand_facts)
                    if facts is not None and replayed is not None and replayed.record is not None:
                        # one ruleset object per hash, not one per record
                        ruleset = self._rulesets.setdefault(facts.ruleset_hash, replayed.record.ruleset)
                    seen = _Seen(facts, ruleset,
                                 None if facts else (verdict.reason.value if verdict.reason else "no_outcome"))
                    self._seen[rowid, hand_id] = seen
                stats.considered += 1
                if seen.facts is None:
                    stats.excluded[seen.reason] += 1
                else:
                    stats.add(seen.facts, seen.ruleset)
            for stale in set(self._seen) - current:   # another ledger file at the same path
                del self._seen[stale]
            out = render(stats)
            self._results = {key: out}
            self.progress = (len(rows), len(rows))
            return key, out, False
