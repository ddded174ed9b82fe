"""The deal statistics page and API (web/stats_page.py over audit/stats.py)."""
from __future__ import annotations

import re

from audit.ledger import Ledger
from audit.sim.archive import simulate_archive
from audit.sim.bias import Bias
from web import create_app


def test_stats_page_counts_only_hands_that_pass(client, site):
    page = client.get("/stats")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    api = client.get("/api/v1/stats").get_json()
    assert api["format"] == "tiplu.stats/1"
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
    with Ledger(db) as ledger:
        simulate_archive(ledger, [("kitti", 4, 3)], seed="web-stats")
    app = create_app({"TESTING": True, "TIPLU_DB": db})
    client = app.test_client()
    assert client.get("/api/v1/stats").get_json()["hands"] == 3
    with Ledger(db) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="web-stats", table_prefix="more-")
    assert client.get("/api/v1/stats").get_json()["hands"] == 5


def test_the_page_flags_the_biased_operator(tmp_path):
    db = str(tmp_path / "b.db")
    with Ledger(db) as ledger:
        simulate_archive(ledger, [("kitti", 4, 60)], seed="stats-test", bias=Bias())
    client = create_app({"TESTING": True, "TIPLU_DB": db}).test_client()
    html = client.get("/stats").get_data(as_text=True)
    game = re.search(r'data-game="kitti" data-seats="4"\s+data-flagged="([^"]*)"', html)
    assert game and "ranks_by_seat" in game.group(1).split()
    assert re.search(r'data-chart="ranks_by_seat" data-flagged="yes"', html)
