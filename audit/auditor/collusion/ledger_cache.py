"""The collusion review of a ledger, kept from one request to the next (the website's pages).

Like the deal statistics (:mod:`audit.auditor.stats.cache`, whose :func:`~audit.auditor.stats.cache.fingerprint`
and :func:`~audit.auditor.stats.cache.audit_published` it shares): the set of published records fixes
the review, every record is audited under its operator's registered key with the ledger's log
as evidence, each record's contribution is kept once computed, and the finished review is
kept under the fingerprint -- a warm request costs one fingerprint.
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Callable

from ..evidence.ledger_log import LedgerLog
from ..stats.cache import operator_keys, audit_published, fingerprint
from .observe import HandPart, Observations, add_part, hand_part
from .report import CollusionReport, review

if TYPE_CHECKING:
    from audit.operator.ledger import Ledger


def _part_of(verdict: Any) -> HandPart | None:
    if not verdict.ok or verdict.replay is None or verdict.replay.record is None:
        return None
    return hand_part(verdict.replay.record)


class LedgerCollusion:
    """The review of one ledger's published records, computed incrementally and cached."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[tuple[int, str], HandPart | None] = {}
        self._keys: dict[str, str] = {}
        self._results: dict[str, Any] = {}
        self.progress: tuple[int, int] = (0, 0)

    def cached(self, ledger: Ledger) -> tuple[str, Any | None]:
        key = fingerprint(ledger)
        return key, self._results.get(key)

    def result(self, ledger: Ledger, render: Callable[[CollusionReport], Any] = lambda r: r) -> tuple[str, Any, bool]:
        """``(fingerprint, render(review), warm)``; ``render`` runs once per fingerprint."""
        key = fingerprint(ledger)
        with self._lock:
            if key in self._results:
                return key, self._results[key], True
            keys = operator_keys(ledger)
            if keys != self._keys:
                self._seen.clear()
                self._keys = keys
            rows = ledger.db.execute(
                "SELECT p.rowid, p.hand_id, t.operator FROM published_records p "
                "JOIN ledger_tables t ON t.id = p.table_id ORDER BY p.rowid").fetchall()
            obs = Observations()
            log = LedgerLog(ledger.db)
            current = set()
            for done, (rowid, hand_id, operator) in enumerate(rows):
                self.progress = (done, len(rows))
                current.add((rowid, hand_id))
                if (rowid, hand_id) not in self._seen:
                    text = ledger.db.execute("SELECT record FROM published_records WHERE rowid = ?",
                                             [rowid]).fetchone()[0]
                    self._seen[rowid, hand_id] = _part_of(audit_published(ledger, hand_id, text, keys[operator], log))
                part = self._seen[rowid, hand_id]
                if part is None:
                    obs.skipped["failed the audit"] += 1
                else:
                    add_part(obs, part)
            for stale in set(self._seen) - current:
                del self._seen[stale]
            out = render(review(obs))
            self._results = {key: out}
            self.progress = (len(rows), len(rows))
            return key, out, False
