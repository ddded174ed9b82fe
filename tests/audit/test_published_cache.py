"""The one cache of results over a ledger's published records (audit/auditor/stats/cache.py,
``PublishedCache``), which serves the deal statistics and the collusion review: what it keeps,
and when it forgets (a new publication, a changed operator key, another ledger file)."""
from __future__ import annotations

import pytest

import audit.auditor.stats.cache as cache
from audit.auditor.collusion.ledger_cache import LedgerCollusion
from audit.auditor.stats.cache import LedgerStats, PublishedCache
from audit.operator.ledger import Ledger
from audit.operator.sim.archive import simulate_archive


def counting() -> tuple[PublishedCache, list[str]]:
    """A cache whose part is the hand id of each record that passed, counting every audit."""
    audited: list[str] = []

    def part_of(verdict):
        audited.append(verdict.hand_id)
        return verdict.hand_id if verdict.ok else None

    return PublishedCache(part_of, lambda parts, keys: (tuple(parts), tuple(sorted(keys)))), audited


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "p.db")
    with Ledger(path, create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 3)], seed="published-cache")
    return path


def test_a_warm_result_audits_nothing_and_a_new_publication_audits_only_its_rows(db):
    store, audited = counting()
    with Ledger(db) as ledger:
        key, (parts, operators), warm = store.result(ledger)
        assert not warm and len(parts) == 3 and all(parts) and len(audited) == 3
        assert store.progress == (3, 3) and store.cached(ledger) == (key, (parts, operators))
        assert store.result(ledger) == (key, (parts, operators), True) and len(audited) == 3   # warm
    with Ledger(db) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="published-cache", table_prefix="more-")
        key2, (parts2, _), warm = store.result(ledger)
    assert key2 != key and not warm and parts2[:3] == parts and len(parts2) == 5
    assert len(audited) == 5                                      # the three old rows were kept


def test_a_changed_operator_key_forgets_every_part(db, monkeypatch):
    store, audited = counting()
    with Ledger(db) as ledger:
        store.result(ledger)
        real = cache.operator_keys
        monkeypatch.setattr(cache, "operator_keys", lambda lg: {name: "00" * 32 for name in real(lg)})
        monkeypatch.setattr(cache, "fingerprint", lambda lg: "another key")
        _, (parts, _), warm = store.result(ledger)
    assert not warm and len(audited) == 6                         # every record audited again
    assert parts == (None, None, None)                            # none passes under the wrong key


def test_another_ledger_at_the_same_cache_forgets_the_old_rows(db, tmp_path):
    other = str(tmp_path / "o.db")
    with Ledger(other, create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="published-cache", table_prefix="other-")  # same key
    store, audited = counting()
    with Ledger(db) as a, Ledger(other) as b:
        _, (first, _), _ = store.result(a)
        _, (second, _), _ = store.result(b)
        assert len(second) == 2 and not set(first) & set(second)
        assert set(store._seen) == {(rowid, hand) for rowid, hand in b.db.execute(
            "SELECT rowid, hand_id FROM published_records")}       # nothing of the first kept
        assert store.result(a)[1][0] == first and len(audited) == 3 + 2 + 3


def test_the_statistics_and_the_collusion_review_are_both_this_cache(db):
    stats, review = LedgerStats(), LedgerCollusion()
    assert isinstance(stats, PublishedCache) and isinstance(review, PublishedCache)
    with Ledger(db) as ledger:
        _, deal, _ = stats.result(ledger)
        _, rep, _ = review.result(ledger)
        assert deal.considered == 3 and rep.hands == 3
        simulate_archive(ledger, [("kitti", 4, 2)], seed="published-cache", table_prefix="more-")
        assert stats.result(ledger)[1].considered == 5 and review.result(ledger)[1].hands == 5
