"""A result over a ledger's published records, kept from one request to the next: the deal
statistics (:class:`LedgerStats`) and the collusion review
(:class:`audit.auditor.collusion.ledger_cache.LedgerCollusion`) are both a
:class:`PublishedCache`.

``published_records`` is append-only (a trigger refuses any change or deletion), so the set
of published records -- and with it every statistic -- is fixed by the list of
``(rowid, hand_id)`` rows and the operators' registered keys.  :func:`fingerprint` hashes
exactly that (one index scan, no record text); a :class:`PublishedCache` keeps each
record's part once computed, audits only rows it has not seen, and keeps the finished
result under the fingerprint, so a warm request costs one fingerprint.

Each record is audited against the key its operator registered in the ledger (never the
key the record names) and must be about the hand it is published as.
"""
from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Generic, Sequence, TypeVar

from replay.faults import Fault, Reason
from replay.records import load_json
from replay.errors import MalformedError

from ..verdict.hand_verdict import published_verdict
from ..evidence.ledger_log import LedgerLog
from .deals import DealStats, HandFacts, hand_facts
from ..verdict.verify import Verdict

if TYPE_CHECKING:
    from ..evidence.logcheck import LogView
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


def audit_published(ledger: Ledger, hand_id: str, text: str, public_key: str, log: LogView | None = None) -> Verdict:
    """The verdict of one published record under its operator's registered key (basis
    ``ledger``), with the ledger's whole log as evidence (a re-logged forgery is a
    ``log_duplicate``)."""
    try:
        record = load_json(text)
    except MalformedError as exc:
        return Verdict(hand_id, None, (Fault(Reason.MALFORMED, str(exc)),))
    return published_verdict(record, hand_id=hand_id, public_key=public_key, log=log)


P = TypeVar("P")


class PublishedCache(Generic[P]):
    """One result over a ledger's published records, computed incrementally and cached.

    ``part_of(verdict)`` is one record's part (computed once per ``(rowid, hand_id)``, the
    record audited under its operator's registered key with the ledger's log as evidence);
    ``total(parts, keys)`` makes the result from every row's part in publication order and
    the operators' keys.  A change of any operator's key forgets every part (each verdict may
    change); rows no longer published (another ledger file at the same path) are forgotten."""

    def __init__(self, part_of: Callable[[Verdict], P], total: Callable[[Sequence[P], dict[str, str]], Any]) -> None:
        self._part_of, self._total = part_of, total
        self._lock = threading.Lock()
        self._seen: dict[tuple[int, str], P] = {}
        self._keys: dict[str, str] = {}
        self._results: dict[str, Any] = {}
        self.progress: tuple[int, int] = (0, 0)   # (records looked at, records published) of the run under way

    def cached(self, ledger: Ledger) -> tuple[str, Any | None]:
        """``(fingerprint, the finished result or None)`` without computing anything."""
        key = fingerprint(ledger)
        return key, self._results.get(key)

    def result(self, ledger: Ledger, render: Callable[[Any], Any] = lambda s: s) -> tuple[str, Any, bool]:
        """``(fingerprint, render(result), warm)``; ``render`` runs once per fingerprint."""
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
            parts: list[P] = []
            log = LedgerLog(ledger.db)
            for done, (rowid, hand_id, operator) in enumerate(rows):
                self.progress = (done, len(rows))
                if (rowid, hand_id) not in self._seen:
                    text = ledger.db.execute("SELECT record FROM published_records WHERE rowid = ?",
                                             [rowid]).fetchone()[0]
                    self._seen[rowid, hand_id] = self._part_of(
                        audit_published(ledger, hand_id, text, keys[operator], log))
                parts.append(self._seen[rowid, hand_id])
            for stale in set(self._seen) - {(rowid, hand_id) for rowid, hand_id, _ in rows}:
                del self._seen[stale]
            out = render(self._total(parts, keys))
            self._results = {key: out}
            self.progress = (len(rows), len(rows))
            return key, out, False


class LedgerStats(PublishedCache[_Seen]):
    """The deal statistics of one ledger's published records (:class:`DealStats`)."""

    def __init__(self) -> None:
        super().__init__(self._seen_of, self._stats_of)
        self._rulesets: dict[str, Any] = {}

    def _seen_of(self, verdict: Verdict) -> _Seen:
        facts = hand_facts(verdict)
        ruleset = None
        replayed = verdict.replay  # with facts: replayed, with its record (hand_facts)
        if facts is not None and replayed is not None and replayed.record is not None:
            # one ruleset object per hash, not one per record
            ruleset = self._rulesets.setdefault(facts.ruleset_hash, replayed.record.ruleset)
        return _Seen(facts, ruleset, None if facts else (verdict.reason.value if verdict.reason else "no_outcome"))

    @staticmethod
    def _stats_of(parts: Sequence[_Seen], keys: dict[str, str]) -> DealStats:
        stats = DealStats(trust={"public_key": None, "basis": "ledger", "operators": dict(sorted(keys.items()))})
        for seen in parts:
            stats.considered += 1
            if seen.facts is None:
                stats.excluded[seen.reason] += 1
            else:
                stats.add(seen.facts, seen.ruleset)
        return stats
