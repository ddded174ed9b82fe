"""The site is a thin shell: one ledger connection per request, one error system.

The log API (``/api/v1/log``) once opened a second connection of its own, in read-write
mode, and migrated the log's tables into whatever file ``TIPLU_DB`` named; it now reads the
request's ledger (:mod:`web.db`) and answers through the app's one error handler
(:mod:`web.errors`)."""
from __future__ import annotations

import sqlite3

import pytest

from audit.errors import LedgerIntegrityError
from audit.tlog.checkpoint import CheckpointSigner
from audit.tlog.store import TransparencyLog
from web import log_api
from web_testkit import OPERATOR

KEY_HEX = "44" * 32


def _foreign(path) -> bytes:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO notes (text) VALUES ('mine')")
    conn.commit()
    conn.close()
    return path.read_bytes()


@pytest.mark.parametrize("route", ["/api/v1/log/checkpoint", "/api/v1/log/entries?start=0",
                                   "/api/v1/log/proof/inclusion?index=0&size=1"])
def test_the_log_api_refuses_a_foreign_database_and_leaves_it_alone(make_app, tmp_path, route):
    from audit.signing import SigningKey

    path = tmp_path / "notes.db"
    before = _foreign(path)
    app = make_app(str(path), TIPLU_CHECKPOINT_SIGNER=CheckpointSigner(SigningKey.from_hex(KEY_HEX), "t.example/log"))
    r = app.test_client().get(route)
    assert r.status_code == 503 and r.get_json() == {
        "error": {"status": 503, "code": "no_ledger", "message": "this server's ledger is not available"}}
    assert path.read_bytes() == before  # no log tables were made in another program's file


def test_the_log_api_has_no_error_system_of_its_own():
    assert log_api.bp.error_handler_spec == {}
    assert not hasattr(log_api, "error_response")


@pytest.mark.parametrize("route", ["/api/v1/log/proof/inclusion?index=0", "hand-proofs"])
def test_a_log_that_contradicts_itself_is_the_same_500_everywhere(make_app, site, monkeypatch, route):
    # /api/v1/log/* once answered 500 integrity and /api/v1/hands/<id>/log-proofs 400 for the same fault
    def broken(self, index, size):
        raise LedgerIntegrityError("the stored tree contradicts itself")

    monkeypatch.setattr(TransparencyLog, "inclusion_proof", broken)
    from audit.signing import SigningKey

    client = make_app(site.db_path, TIPLU_CHECKPOINT_SIGNER=CheckpointSigner(SigningKey.from_hex(KEY_HEX),
                                                                             "t.example/log")).test_client()
    if route == "hand-proofs":
        route = f"/api/v1/hands/{site.hands['revealed0']}/log-proofs"
    r = client.get(route)
    assert r.status_code == 500
    assert r.get_json()["error"] == {"status": 500, "code": "integrity", "message": "the stored tree contradicts itself"}


def test_a_request_opens_the_ledger_at_most_once_and_the_next_reuses_it(make_app, site, monkeypatch):
    from audit.operator import ledger as ledger_pkg

    with ledger_pkg.Ledger(site.db_path) as ledger:  # the site's log key is its operator's key (one log per operator)
        key = ledger.signing_key(OPERATOR)
    opened = []

    class Counting(ledger_pkg.Ledger):
        def __init__(self, *a, **k):
            opened.append(a[0])
            super().__init__(*a, **k)

    monkeypatch.setattr(ledger_pkg, "Ledger", Counting)
    for route in (f"/api/v1/hands/{site.hands['revealed0']}/log-proofs", "/api/v1/log/checkpoint",
                  "/api/v1/log/entries?start=0", f"/hands/{site.hands['revealed0']}", "/"):
        client = make_app(site.db_path, TIPLU_CHECKPOINT_SIGNER=CheckpointSigner(key, "t.example/log")).test_client()
        opened.clear()
        assert client.get(route).status_code == 200, route
        assert len(opened) == 1, route      # one ledger for the whole request
        assert client.get(route).status_code == 200, route
        assert len(opened) == 1, route      # and the next request is served by the same, already open


def test_the_web_layer_writes_no_sql_and_opens_no_database():
    # the ledger reads the site needs are the facade's (audit/operator/ledger/queries.py); the connection is web/db.py's Ledger
    import ast
    import pathlib

    sql = ("SELECT ", "INSERT ", "UPDATE ", "DELETE ", "CREATE ", "PRAGMA ")
    found = []
    for path in sorted((pathlib.Path(__file__).resolve().parents[2] / "web").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.lstrip().upper().startswith(sql):
                found.append(f"{path.name}:{node.lineno}")
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.name}:{node.lineno} imports {n}" for n in names if n.split(".")[0] in ("sqlite3", "sqlite_utils")]
    assert found == []
