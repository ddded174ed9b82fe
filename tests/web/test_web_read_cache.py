"""Anonymous reads cannot starve honest writes (issue 29, item 11), second step: an anonymous
read's answer is given again from memory while the ledger is unchanged (web/read_cache.py),
a reader gets the older copy rather than ``503 busy`` while the read slots are taken, and a
write or a token read in flight in the process is served before anonymous reads.  Ordering
and progress are asserted here, never speed (``bench/read_starvation.py`` measures it)."""
from __future__ import annotations

import threading

import pytest
import requests
from werkzeug.serving import make_server

import web.read_cache as read_cache


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clocked():
    return Clock()


def _clocked_app(make_app, fresh_db, clock, **config):
    app = make_app(fresh_db, **config)
    app.extensions["tiplu_read_cache"].clock = clock
    return app


def _counting(app, endpoint: str) -> list:
    calls: list = []
    view = app.view_functions[endpoint]

    def counted(*a, **kw):
        calls.append(1)
        return view(*a, **kw)

    app.view_functions[endpoint] = counted
    return calls


def _operator(site) -> dict:
    return {"Authorization": f"Bearer {site.operator_token}"}


def _new_hand(client, site) -> str:
    made = client.post("/api/v1/operator/hands", headers=_operator(site),
                       json={"table_id": "t1", "players": ["asha", "bikash", "chandra"]})
    assert made.status_code == 201, made.get_json()
    return made.get_json()["hand"]["hand_id"]


def test_an_unchanged_ledger_is_read_from_memory_until_a_write(make_app, fresh_db, site, clocked):
    app = _clocked_app(make_app, fresh_db, clocked)
    calls = _counting(app, "api.list_hands")
    client = app.test_client()
    first = client.get("/api/v1/hands")
    for _ in range(5):
        again = client.get("/api/v1/hands")
        assert again.status_code == 200 and again.data == first.data
    assert len(calls) == 1  # four reads from memory: no ledger, no view
    clocked.now += 5  # older than TIPLU_READ_CACHE (1 s), the ledger unchanged: still the same answer
    assert client.get("/api/v1/hands").data == first.data and len(calls) == 1
    hid = _new_hand(client, site)  # a write: an answer older than a second is made again
    second = client.get("/api/v1/hands")
    assert len(calls) == 2 and hid in second.get_data(as_text=True)
    other = _new_hand(client, site)  # another write, within the second: the answer is kept ...
    clocked.now += 0.5
    assert client.get("/api/v1/hands").data == second.data and len(calls) == 2
    clocked.now += 0.6  # ... at most TIPLU_READ_CACHE (1 s)
    assert other in client.get("/api/v1/hands").get_data(as_text=True) and len(calls) == 3
    clocked.now += 20  # past STALE_MAX an unchanged answer is made again too (the clock's words)
    client.get("/api/v1/hands")
    assert len(calls) == 4


def test_a_cached_answer_has_an_etag_and_a_matching_read_gets_304(make_app, fresh_db, clocked):
    client = _clocked_app(make_app, fresh_db, clocked).test_client()
    first = client.get("/api/v1/hands")
    etag = first.headers["ETag"]
    assert etag.startswith('"') and len(etag) > 10
    same = client.get("/api/v1/hands", headers={"If-None-Match": etag})
    assert same.status_code == 304 and same.data == b"" and same.headers["ETag"] == etag
    other = client.get("/api/v1/hands", headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.data == first.data
    head = client.head("/api/v1/hands")
    assert head.status_code == 200 and head.data == b""


def test_token_reads_writes_and_errors_are_never_cached(make_app, fresh_db, site, clocked):
    app = _clocked_app(make_app, fresh_db, clocked)
    calls = _counting(app, "api.list_hands")
    client = app.test_client()
    for _ in range(3):
        assert client.get("/api/v1/hands", headers=_operator(site)).status_code == 200
    assert len(calls) == 3  # a reader with a token always gets the ledger as it is
    for _ in range(2):
        assert client.get("/api/v1/hands?limit=nope").status_code == 400
    assert len(calls) == 5
    assert client.get("/api/v1/hands/no-such-hand").status_code == 404
    assert client.get("/api/v1/hands/no-such-hand").status_code == 404  # not kept either
    cache = app.extensions["tiplu_read_cache"]
    assert all(a.status.startswith("200") for a in cache._answers.values())


def test_zero_turns_the_cache_off(make_app, fresh_db):
    app = make_app(fresh_db, TIPLU_READ_CACHE=0)
    assert "tiplu_read_cache" not in app.extensions
    calls = _counting(app, "api.list_hands")
    client = app.test_client()
    client.get("/api/v1/hands")
    client.get("/api/v1/hands")
    assert len(calls) == 2


@pytest.fixture
def served(make_app, fresh_db):
    """The app behind a real threaded HTTP server on 127.0.0.1, one read slot."""
    app = make_app(fresh_db, TIPLU_READ_SLOTS=1)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(10)


def test_readers_holding_the_read_slots_lock_out_no_write_and_no_cached_read(served, site):
    app, url = served
    assert requests.get(url + "/api/v1/hands", timeout=30).status_code == 200  # kept in memory
    release, holding = threading.Event(), threading.Event()
    table = app.view_functions["api.get_table"]

    def slow_table(*a, **kw):  # a read that takes the slot and keeps it (a slow, costly page)
        holding.set()
        release.wait(60)
        return table(*a, **kw)

    app.view_functions["api.get_table"] = slow_table
    got: list = []
    reader = threading.Thread(target=lambda: got.append(requests.get(url + "/api/v1/tables/t1", timeout=60).status_code))
    reader.start()
    try:
        assert holding.wait(30)  # the one read slot is held
        # the write goes through while the slot is held ...
        made = requests.post(url + "/api/v1/operator/hands", headers=_operator(site), timeout=30,
                             json={"table_id": "t1", "players": ["asha", "bikash", "chandra"]})
        assert made.status_code == 201
        # ... and an anonymous read of a page in memory is answered (before the cache: 503 busy)
        again = requests.get(url + "/api/v1/hands", timeout=30)
        assert again.status_code == 200 and "hands" in again.json()
        assert got == []  # all of it while the slow read still holds its slot
    finally:
        release.set()
        reader.join(60)
    assert got == [200]


def test_an_anonymous_read_waits_for_the_write_in_flight(served, site, monkeypatch):
    # writes come first: while a write is being served, an anonymous read (even one the
    # cache could answer at once) waits for it, up to PRIORITY_WAIT
    app, url = served
    monkeypatch.setattr(read_cache, "PRIORITY_WAIT", 60.0)
    assert requests.get(url + "/api/v1/hands", timeout=30).status_code == 200  # in memory
    release, writing = threading.Event(), threading.Event()
    order: list[str] = []
    endpoint = next(e for e, r in ((r.endpoint, r) for r in app.url_map.iter_rules())
                    if r.rule == "/api/v1/operator/hands" and "POST" in r.methods)
    create = app.view_functions[endpoint]

    def slow_create(*a, **kw):
        writing.set()
        release.wait(60)
        answer = create(*a, **kw)
        order.append("write answered")
        return answer

    app.view_functions[endpoint] = slow_create
    writer = threading.Thread(target=lambda: requests.post(
        url + "/api/v1/operator/hands", headers=_operator(site), timeout=60,
        json={"table_id": "t1", "players": ["asha", "bikash", "chandra"]}))
    arrived = threading.Event()
    cache = app.wsgi_app

    def noticing(environ, start_response):  # in front of the cache: the read has reached the app
        if environ["REQUEST_METHOD"] == "GET":
            arrived.set()
        return cache(environ, start_response)

    app.wsgi_app = noticing
    writer.start()
    assert writing.wait(30)
    reader = threading.Thread(target=lambda: order.append(
        f"read {requests.get(url + '/api/v1/hands', timeout=60).status_code}"))
    reader.start()
    assert arrived.wait(30)
    reader.join(0.5)  # without priority the read, answered from memory, is done long before this
    release.set()
    writer.join(60)
    reader.join(60)
    assert order == ["write answered", "read 200"]


def test_files_and_pages_marked_no_store_are_never_kept(make_app, fresh_db, site, clocked):
    app = _clocked_app(make_app, fresh_db, clocked)
    client = app.test_client()
    assert client.get("/static/site.css").status_code == 200
    assert client.get("/verify/").status_code == 200
    live = client.get(f"/hands/{site.hands['dealt']}")  # a hand before its reveal: no-store
    assert live.status_code == 200 and live.headers["Cache-Control"] == "no-store" and "ETag" not in live.headers
    assert app.extensions["tiplu_read_cache"]._answers == {}


def test_anonymous_reads_write_the_ledger_at_most_once(make_app, fresh_db, site):
    # a read takes SQLite's write lock in one case only: the first read of the record of a
    # hand whose statements no stored checkpoint covers yet signs and stores one
    # (audit/operator/publish.py covering_checkpoint; docs/scale.md); every later read is a
    # pure read -- the ledger's version (PRAGMA data_version, which any commit changes) stays
    from audit.operator.ledger.version import LedgerVersion

    version = LedgerVersion(fresh_db)
    client = make_app(fresh_db, TIPLU_READ_CACHE=0).test_client()
    paths = ["/", "/api/v1/hands?limit=200", "/api/v1/tables/t1", "/tables/t1", "/api/v1/operators"]
    for hid in site.hands.values():
        paths += [f"/hands/{hid}", f"/api/v1/hands/{hid}", f"/api/v1/hands/{hid}/verdict", f"/api/v1/hands/{hid}/record"]
    first = [client.get(p).status_code for p in paths]
    assert first.count(200) > len(paths) // 2
    before = version()
    assert [client.get(p).status_code for p in paths] == first
    assert before is not None and version() == before
    _new_hand(client, site)  # a write does change it (the check can fail)
    assert version() != before
