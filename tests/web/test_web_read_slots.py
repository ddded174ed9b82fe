"""Anonymous reads cannot starve honest writes (issue 29, item 11): a process serves at most
``TIPLU_READ_SLOTS`` anonymous reads at once; one more is answered at once with 503 ``busy``
(``Retry-After: 1``) before any work, while the players' and the operator's requests (token
routes) and static files always go through.  The behaviour is tested here (slots held as
in-flight reads hold them); the speed it buys is measured in ``bench/read_starvation.py``."""
from __future__ import annotations

import logging

import pytest

from web.errors import error_body


@pytest.fixture
def busy_app(make_app, fresh_db):
    """An app with 2 read slots, both held (as by two reads in flight)."""
    app = make_app(fresh_db, TIPLU_READ_SLOTS=2)
    gate = app.extensions["tiplu_read_slots"]
    assert gate.acquire(blocking=False) and gate.acquire(blocking=False)
    yield app
    gate.release()
    gate.release()


def test_a_read_past_the_slots_is_503_busy_in_the_one_shape(busy_app, site):
    client = busy_app.test_client()
    for path in ("/api/v1/hands", f"/api/v1/hands/{site.hands['revealed0']}", "/api/v1/tables/t1"):
        resp = client.get(path)
        assert resp.status_code == 503 and resp.headers["Retry-After"] == "1", path
        assert resp.get_json() == error_body(503, "busy", resp.get_json()["error"]["message"])
    page = client.get(f"/hands/{site.hands['revealed0']}", headers={"Accept": "text/html"})
    assert page.status_code == 503 and "busy" in page.get_data(as_text=True)


def test_writes_and_token_reads_go_through_while_every_read_slot_is_taken(busy_app, site):
    client = busy_app.test_client()
    headers = {"Authorization": f"Bearer {site.operator_token}"}
    assert client.get("/api/v1/operator/whoami", headers=headers).status_code == 200
    # a public read with a valid token (the operator or a player following its hand) is not anonymous
    assert client.get("/api/v1/hands", headers=headers).status_code == 200
    assert client.get("/api/v1/hands", headers={"Authorization": "Bearer tpl_forged"}).status_code == 503
    made = client.post("/api/v1/operator/hands", headers=headers,
                       json={"table_id": "t1", "players": ["asha", "bikash", "chandra"]})
    assert made.status_code == 201, made.get_json()
    hid = made.get_json()["hand"]["hand_id"]
    assert client.post(f"/api/v1/operator/hands/{hid}/commit", headers=headers).status_code == 200
    # static files are never capped: a page's scripts and styles still load
    assert client.get("/static/site.css").status_code == 200
    assert client.get("/verify/").status_code == 200


def test_a_slot_comes_back_after_each_read_even_a_failed_one(make_app, fresh_db):
    app = make_app(fresh_db, TIPLU_READ_SLOTS=1)
    client = app.test_client()
    for _ in range(5):  # with one slot, five reads in a row all get it: each gives it back
        assert client.get("/api/v1/hands").status_code == 200
        assert client.get("/api/v1/hands/no-such-hand").status_code == 404
        assert client.get("/api/v1/hands?limit=nope").status_code == 400


def test_zero_slots_is_no_cap(make_app, fresh_db):
    app = make_app(fresh_db, TIPLU_READ_SLOTS=0)
    assert "tiplu_read_slots" not in app.extensions
    assert app.test_client().get("/api/v1/hands").status_code == 200


def test_a_busy_answer_is_logged_as_what_it_is_not_as_an_internal_error(busy_app, caplog):
    # issue 29: every 503 busy of a flood was logged at ERROR as "internal error ... ApiError"
    caplog.set_level(logging.DEBUG, logger="tiplu.web")
    assert busy_app.test_client().get("/api/v1/hands").status_code == 503
    mine = [r for r in caplog.records if r.name == "tiplu.web"]
    assert len(mine) == 1, [r.getMessage() for r in mine]
    (record,) = mine
    assert record.levelno == logging.INFO and record.exc_info is None
    assert record.getMessage().startswith("503 busy on GET /api/v1/hands")
    assert "internal error" not in record.getMessage() and "ApiError" not in record.getMessage()


def test_an_unexpected_fault_is_still_an_internal_error(make_app, fresh_db, caplog, monkeypatch):
    app = make_app(fresh_db)
    caplog.set_level(logging.DEBUG, logger="tiplu.web")

    def broken(*_a, **_k):
        raise ZeroDivisionError("boom")

    monkeypatch.setitem(app.view_functions, "api.list_hands", broken)
    assert app.test_client().get("/api/v1/hands").status_code == 500
    (record,) = [r for r in caplog.records if r.name == "tiplu.web"]
    assert record.levelno == logging.ERROR and record.getMessage() == "internal error on GET /api/v1/hands: ZeroDivisionError"
