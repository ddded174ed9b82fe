"""web/db.py keeps opened ledgers between requests: what a request sees must not change.

Each test performs what could go wrong with a kept connection: another process writing,
the file replaced or removed under the server, a connection passed between the server's
threads, a request that leaves a transaction open."""
from __future__ import annotations

import http.client
import os
import sqlite3
import threading

from werkzeug.serving import make_server

from audit.operator.ledger import Ledger
from web.db import LedgerPool

NO_LEDGER = {"error": {"status": 503, "code": "no_ledger", "message": "this server's ledger is not available"}}


def test_a_commit_by_another_connection_shows_on_the_next_request(make_app, fresh_db):
    client = make_app(fresh_db).test_client()
    assert client.get("/api/v1/tables/t-new").status_code == 404     # the pool now holds an open ledger
    with Ledger(fresh_db) as other:
        other.new_table("t-new", operator="other-operator", preset="kitti", seats=3)
    r = client.get("/api/v1/tables/t-new")
    assert r.status_code == 200 and "t-new" in r.get_data(as_text=True)


def test_a_ledger_file_replaced_under_the_server_is_refused_as_at_first(make_app, fresh_db, tmp_path):
    client = make_app(fresh_db).test_client()
    assert client.get("/api/v1/tables").status_code == 200
    foreign = tmp_path / "notes.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()
    kept = tmp_path / "kept.db"
    os.replace(fresh_db, kept)
    os.replace(foreign, fresh_db)
    r = client.get("/api/v1/tables")
    assert r.status_code == 503 and r.get_json() == NO_LEDGER
    os.replace(kept, fresh_db)
    assert client.get("/api/v1/tables").status_code == 200


def test_a_ledger_file_removed_or_emptied_under_the_server_is_refused(make_app, fresh_db):
    client = make_app(fresh_db).test_client()
    assert client.get("/api/v1/tables").status_code == 200
    saved = open(fresh_db, "rb").read()
    with open(fresh_db, "wb"):
        pass                                   # emptied in place: same inode, no bytes
    r = client.get("/api/v1/tables")
    assert r.status_code == 503 and r.get_json() == NO_LEDGER
    os.remove(fresh_db)
    r = client.get("/api/v1/tables")
    assert r.status_code == 503 and r.get_json() == NO_LEDGER
    with open(fresh_db, "wb") as f:
        f.write(saved)
    assert client.get("/api/v1/tables").status_code == 200


def test_kept_ledgers_pass_between_the_threads_of_a_threaded_server(make_app, site):
    # no cap on anonymous reads (TIPLU_READ_SLOTS, default 2): three readers at once must each be served here
    app = make_app(site.db_path, TIPLU_READ_SLOTS=0)
    server = make_server("127.0.0.1", 0, app, threaded=True)   # a new thread per request
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    statuses: list[int] = []

    def client() -> None:
        for _ in range(6):
            conn = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=30)
            conn.request("GET", f"/hands/{site.hands['revealed0']}")
            resp = conn.getresponse()
            resp.read()
            statuses.append(resp.status)
            conn.close()

    try:
        workers = [threading.Thread(target=client) for _ in range(3)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    finally:
        server.shutdown()
        server.server_close()
    assert statuses == [200] * 18
    pools = app.extensions["tiplu_ledger_pools"]
    idle = [len(p._idle) for p in pools.values()]
    assert 1 <= sum(idle) <= 3          # a ledger per concurrent request at most, then kept
    for p in pools.values():
        p.close()


def test_a_ledger_left_in_a_transaction_is_closed_not_kept(site):
    pool = LedgerPool(site.db_path, None)
    ledger, file = pool.take()
    ledger.db.conn.execute("BEGIN")
    pool.give(ledger, file)
    assert pool._idle == []
    try:
        ledger.db.conn.execute("SELECT 1")
        raise AssertionError("the connection was left open")
    except sqlite3.ProgrammingError:
        pass
    ledger, file = pool.take()
    pool.give(ledger, file)
    assert pool._idle == [ledger]
    pool.close()


def test_an_in_memory_ledger_is_never_kept(make_app):
    app = make_app(":memory:")
    client = app.test_client()
    for _ in range(2):    # each request opens a new, empty ledger, as before
        assert client.get("/api/v1/tables").get_json() == {"tables": []}
    assert "tiplu_ledger_pools" not in app.extensions
