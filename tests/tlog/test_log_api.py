"""The /api/v1/log blueprint: the documented JSON, proofs that verify, and the one error shape."""
from __future__ import annotations

import pytest

from audit.tlog import merkle
from audit.tlog.checkpoint import verify_checkpoint
from audit.tlog.store import leaf_entry
from web import log_api

from .conftest import OPERATOR, ORIGIN, append, make_app, make_log, statement


@pytest.fixture()
def setup(tmp_path):
    stmts = [statement(i) for i in range(10)]
    path = make_log(tmp_path / "ledger.db", stmts)
    return make_app(path).test_client(), stmts, path


def test_checkpoint_is_signed_and_stable_until_the_log_grows(setup):
    client, stmts, path = setup
    body = client.get("/api/v1/log/checkpoint").get_json()
    cp = verify_checkpoint(body["checkpoint"], OPERATOR.public_hex, origin=ORIGIN)
    root = merkle.MemoryTree(merkle.leaf_hash(leaf_entry(s)) for s in stmts).root()
    assert (body["size"], body["root"], body["public_key"]) == (10, root.hex(), OPERATOR.public_hex)
    assert len(body["checkpoint"].partition("\n\n")[0].split("\n")) == 3  # a plain C2SP body: no time line
    # the time is the server's own unsigned note of when it signed (the test clock's first tick)
    assert cp.legacy_time is None and body["time"] == "2026-11-30T14:01:00Z"
    assert client.get("/api/v1/log/checkpoint").get_json() == body  # same size: same checkpoint
    append(path, [statement(10)])
    grown = client.get("/api/v1/log/checkpoint").get_json()
    assert grown["size"] == 11 and grown["time"] > body["time"]


def test_a_stored_legacy_checkpoint_is_never_served(tmp_path):
    """A ledger from before format 3 holds checkpoints with the time line: the API signs a
    plain one of the same size instead of serving it (docs/format-3.md)."""
    import sqlite_utils

    from audit.tlog.store import TransparencyLog
    from tests.tlog.legacy_kit import legacy_checkpoint

    stmts = [statement(i) for i in range(3)]
    path = make_log(tmp_path / "ledger.db", stmts)
    log = TransparencyLog(sqlite_utils.Database(path), migrate=False)
    old = legacy_checkpoint(OPERATOR, origin=ORIGIN, size=3, root=log.root(3))
    log.record_checkpoint(3, log.root(3), "2026-11-30T14:35:00Z", old)
    assert log.latest_checkpoint() == old
    body = make_app(path).test_client().get("/api/v1/log/checkpoint").get_json()
    cp = verify_checkpoint(body["checkpoint"], OPERATOR.public_hex, origin=ORIGIN)
    assert body["checkpoint"] != old and (cp.size, cp.root, cp.legacy_time) == (3, log.root(3), None)


def test_entries_are_the_signed_statements_in_pages(setup, monkeypatch):
    client, stmts, _ = setup
    body = client.get("/api/v1/log/entries?start=2&end=5").get_json()
    assert body == {"entries": [{"index": i, "entry": stmts[i]} for i in range(2, 5)]}
    monkeypatch.setattr(log_api, "MAX_PAGE", 4)
    assert [e["index"] for e in client.get("/api/v1/log/entries?start=3&end=100").get_json()["entries"]] == [3, 4, 5, 6]
    assert [e["index"] for e in client.get("/api/v1/log/entries?start=8").get_json()["entries"]] == [8, 9]


def test_proofs_verify_against_the_checkpoint(setup):
    client, stmts, _ = setup
    cp = verify_checkpoint(client.get("/api/v1/log/checkpoint").get_json()["checkpoint"], OPERATOR.public_hex)
    for i in range(10):
        p = client.get(f"/api/v1/log/proof/inclusion?index={i}&size=10").get_json()
        assert p["index"] == i and p["size"] == 10
        assert p["leaf_hash"] == merkle.leaf_hash(leaf_entry(stmts[i])).hex()
        merkle.verify_inclusion(bytes.fromhex(p["leaf_hash"]), i, 10, [bytes.fromhex(h) for h in p["path"]], cp.root)
    tree = merkle.MemoryTree(merkle.leaf_hash(leaf_entry(s)) for s in stmts)
    for first in range(11):
        p = client.get(f"/api/v1/log/proof/consistency?first={first}&second=10").get_json()
        assert (p["first"], p["second"]) == (first, 10)
        merkle.verify_consistency(first, 10, tree.root(first), cp.root, [bytes.fromhex(h) for h in p["path"]])


@pytest.mark.parametrize("url,status,code", [
    ("/api/v1/log/entries", 400, "bad_request"),
    ("/api/v1/log/entries?start=-1", 400, "bad_request"),
    ("/api/v1/log/entries?start=1&end=1", 400, "bad_request"),
    ("/api/v1/log/entries?start=10", 404, "not_found"),
    ("/api/v1/log/entries?start=01", 400, "bad_request"),
    ("/api/v1/log/proof/inclusion?index=x", 400, "bad_request"),
    ("/api/v1/log/proof/inclusion?index=10", 400, "bad_request"),
    ("/api/v1/log/proof/inclusion?index=3&size=11", 404, "not_found"),
    ("/api/v1/log/proof/consistency?first=5&second=4", 400, "bad_request"),
    ("/api/v1/log/proof/consistency?first=5&second=11", 404, "not_found"),
])
def test_errors_have_the_one_shape(setup, url, status, code):
    client, _, _ = setup
    r = client.get(url)
    assert r.status_code == status
    body = r.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"status", "code", "message"}
    assert (body["error"]["status"], body["error"]["code"]) == (status, code) and body["error"]["message"]


def test_no_signer_is_a_503_in_the_same_shape(setup):
    client, _, path = setup
    client.application.config["TIPLU_CHECKPOINT_SIGNER"] = None
    r = client.get("/api/v1/log/checkpoint")
    assert r.status_code == 503 and r.get_json()["error"]["code"] == "no_signer"
