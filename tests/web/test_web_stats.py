"""The deal statistics page and API (web/stats_page.py over audit/auditor/stats/deals.py)."""
from __future__ import annotations

import re
import threading

import pytest

from audit.operator.ledger import Ledger
from audit.operator.sim.archive import simulate_archive
from audit.operator.sim.bias import Bias
from web import create_app

WAIT = {"TIPLU_STATS_WAIT": 120}   # the computation runs in a thread: let the tests wait for it


@pytest.fixture
def client(make_app, site):
    return make_app(site.db_path, **WAIT).test_client()


def test_stats_page_counts_only_hands_that_pass(client, site):
    page = client.get("/stats")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    api = client.get("/api/v1/stats").get_json()
    assert api["format"] == "tiplu.stats/1"
    assert api["trust"]["basis"] == "ledger" and "demo-operator" in api["trust"]["operators"]
    # the test site publishes 3 tampered hands (payout, move, signature): they are left out
    assert api["considered"] == api["hands"] + sum(api["excluded"].values())
    assert sum(api["excluded"].values()) >= 3
    assert f'data-stats-hands>{api["hands"]}<' in html
    assert "<svg" in html and "<script" not in html and ' style="' not in html   # CSP: no inline style or script
    assert "What it cannot show" in html and "99% critical value" in html


def test_home_links_the_stats_page(client):
    assert 'href="/stats"' in client.get("/").get_data(as_text=True)


def test_a_new_publication_changes_the_page_and_the_cache(tmp_path):
    db = str(tmp_path / "s.db")
    with Ledger(db, create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 3)], seed="web-stats")
    # the statistics' own cache is under test: without the read cache in front (its answers may
    # lag a write by up to TIPLU_READ_CACHE seconds, tests/web/test_web_read_cache.py)
    app = create_app({"TESTING": True, "TIPLU_DB": db, "TIPLU_READ_CACHE": 0, **WAIT})
    client = app.test_client()
    assert client.get("/api/v1/stats").get_json()["hands"] == 3
    with Ledger(db) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="web-stats", table_prefix="more-")
    assert client.get("/api/v1/stats").get_json()["hands"] == 5


def test_the_page_flags_the_biased_operator(tmp_path):
    db = str(tmp_path / "b.db")
    with Ledger(db, create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 60)], seed="stats-test", bias=Bias())
    client = create_app({"TESTING": True, "TIPLU_DB": db, **WAIT}).test_client()
    html = client.get("/stats").get_data(as_text=True)
    game = re.search(r'data-game="kitti" data-seats="4"\s+data-flagged="([^"]*)"', html)
    assert game and "ranks_by_seat" in game.group(1).split()
    assert re.search(r'data-chart="ranks_by_seat" data-flagged="yes"', html)


def test_a_cold_computation_does_not_hold_the_request(tmp_path, monkeypatch):
    """While the statistics are computed (in a thread), the page says how far it is and
    refreshes itself; the API answers 503 in the one error shape; then both answer."""
    import audit.auditor.stats.cache as cache

    db = str(tmp_path / "slow.db")
    with Ledger(db, create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="web-stats-slow")
    release = threading.Event()
    real = cache.audit_published

    def slow(*args, **kwargs):
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(cache, "audit_published", slow)
    client = create_app({"TESTING": True, "TIPLU_DB": db, "TIPLU_STATS_WAIT": 0.05}).test_client()
    for _ in range(200):   # the thread is held in the first audit: the page keeps saying how far it is
        page = client.get("/stats")
        html = page.get_data(as_text=True)
        assert page.status_code == 200 and "data-stats-pending" in html and 'http-equiv="refresh"' in html
        if "0 of 2</strong> records audited" in html:
            break
    assert "0 of 2</strong> records audited" in html
    api = client.get("/api/v1/stats")
    assert api.status_code == 503 and api.get_json()["error"]["code"] == "computing"
    release.set()
    for _ in range(200):
        api = client.get("/api/v1/stats")
        if api.status_code == 200:
            break
    assert api.status_code == 200 and api.get_json()["hands"] == 2
    assert "data-stats-hands>2<" in client.get("/stats").get_data(as_text=True)
