"""The collusion review over HTTP (web/collusion_page.py): the JSON names the planted
superuser, an unfinished review is 503 ``computing`` in the one error shape, an unknown
account is a 404, and a warm answer is the cached one."""
from __future__ import annotations

import pytest

from audit.operator.ledger import Ledger
from audit.operator.sim.archive import simulate_archive
from web import create_app


@pytest.fixture(scope="module")
def peek_db(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("collusion-web") / "c.db")
    with Ledger(path, create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 90)], seed="collusion-web", peek={2: 1000})
    return path


def test_the_api_names_the_superuser_and_says_what_a_flag_means(peek_db):
    client = create_app({"TESTING": True, "TIPLU_DB": peek_db, "TIPLU_STATS_WAIT": 300}).test_client()
    data = client.get("/api/v1/collusion").get_json()
    assert data["hands"] == 90 and [f["account"] for f in data["flags"]] == ["chandra"]
    assert "not a finding of cheating" in data["meaning"]
    assert client.get("/collusion/account/chandra").status_code == 200
    assert client.get("/collusion/account/nobody").status_code == 404
    assert client.get("/api/v1/collusion").get_json() == data          # warm: the same answer


def test_an_unfinished_review_is_503_computing(peek_db):
    client = create_app({"TESTING": True, "TIPLU_DB": peek_db, "TIPLU_STATS_WAIT": 0}).test_client()
    res = client.get("/api/v1/collusion")
    assert res.status_code == 503 and res.get_json()["error"]["code"] == "computing"
    page = client.get("/collusion")
    assert page.status_code == 200 and "Collusion review" in page.get_data(as_text=True)


def test_the_account_page_charts_its_signal_over_its_hands(peek_db):
    client = create_app({"TESTING": True, "TIPLU_DB": peek_db, "TIPLU_STATS_WAIT": 300}).test_client()
    data = client.get("/api/v1/collusion").get_json()
    row = next(a for a in data["accounts"] if a["account"] == "chandra")
    page = client.get("/collusion/account/chandra").get_data(as_text=True)
    assert 'data-excess-chart="kitti.arrangement"' in page
    # the curve ends at the account's last decision, on its 90th hand
    assert f'after {row["decisions"]} decisions in 90 hands' in page
