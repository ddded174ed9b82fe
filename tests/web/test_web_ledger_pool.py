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


class _Witnessing:
    """A stand-in for :class:`audit.tlog.witnessing.Witnessing`: its hook notes who called it
    (and, for ``wait``, holds the request until ``wait`` is set) and cosigns nothing."""

    def __init__(self, name: str, calls: list[tuple[str, str]], wait: threading.Event | None = None) -> None:
        self.name, self.calls, self.wait = name, calls, wait

    def cosigner(self):
        def cosign(log, checkpoint_text: str) -> str:
            self.calls.append((self.name, threading.current_thread().name))
            if self.wait is not None:
                assert self.wait.wait(30), "the other request never finished"
            return checkpoint_text
        return cosign


def test_a_kept_ledgers_witness_hook_is_fixed_when_it_is_made(site):
    def hook(log, text):
        return text

    pool = LedgerPool(site.db_path, None, cosign=hook)
    ledger, file = pool.take()
    assert ledger.cosign_checkpoint is hook
    try:
        ledger.cosign_checkpoint = None  # type: ignore[misc]  # what a request once did to a pooled ledger
        raise AssertionError("a request could change a kept ledger's witness hook")
    except AttributeError:
        pass
    pool.give(ledger, file)
    assert pool.take()[0] is ledger and ledger.cosign_checkpoint is hook
    ledger.close()
    assert LedgerPool(site.db_path, None).take()[0].cosign_checkpoint is None


def test_two_requests_at_once_on_kept_ledgers_each_publish_with_their_own_hook(make_app, fresh_db, site):
    # two servers of one ledger file, one with witnesses "a", one with "b"; a's request is held inside
    # its hook until b's request, on another thread, has published with its own
    calls: list[tuple[str, str]] = []
    b_done = threading.Event()
    app_a = make_app(fresh_db, TIPLU_WITNESSING=_Witnessing("a", calls, wait=b_done), TIPLU_READ_CACHE=0)
    app_b = make_app(fresh_db, TIPLU_WITNESSING=_Witnessing("b", calls), TIPLU_READ_CACHE=0)
    app_none = make_app(fresh_db, TIPLU_READ_CACHE=0)
    route = f"/api/v1/hands/{site.hands['finished']}/record"   # finished, not published: assembled, so cosigned
    statuses: dict[str, int] = {}

    def ask(name: str, app) -> None:
        for _ in range(2):   # the second request is served by the ledger the first left in the pool
            statuses[name] = app.test_client().get(route).status_code
        if name == "b":
            b_done.set()

    a = threading.Thread(target=ask, args=("a", app_a), name="a")
    a.start()
    while not calls:       # a is inside its hook, its ledger taken from its pool
        assert a.is_alive()
        a.join(0.01)
    for name, app in (("b", app_b), ("none", app_none)):
        t = threading.Thread(target=ask, args=(name, app), name=name)
        t.start()
        t.join(30)
    a.join(30)
    assert statuses == {"a": 200, "b": 200, "none": 200}
    assert sorted(calls) == [("a", "a"), ("a", "a"), ("b", "b"), ("b", "b")]   # none called by another's request
    b_done.set()
    for app, name in ((app_a, "a"), (app_b, "b"), (app_none, None)):
        kept = [ledger for pool in app.extensions["tiplu_ledger_pools"].values() for ledger in pool._idle]
        assert kept
        for ledger in kept:   # each kept ledger holds its own app's hook
            if name is None:
                assert ledger.cosign_checkpoint is None
            else:
                calls.clear()
                ledger.cosign_checkpoint(None, "x")
                assert calls == [(name, "MainThread")]
        for pool in app.extensions["tiplu_ledger_pools"].values():
            pool.close()
