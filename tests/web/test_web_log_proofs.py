"""``/api/v1/hands/<id>/log-proofs``: one signed checkpoint and, for every statement of the
hand, its log index and inclusion proof -- checked here with the Python verifier alone."""
from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from audit.errors import ProofError
from audit.operator.ledger import Ledger
from audit.tlog.checkpoint import CheckpointSigner, verify_checkpoint
from audit.tlog.logs import operator_origin
from audit.tlog.merkle import leaf_hash, verify_inclusion
from audit.tlog.store import leaf_entry

from test_web_api import assert_error
from web_testkit import OPERATOR

ORIGIN = "tiplu.test/log"


class Clock:
    def __init__(self) -> None:
        self.t = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        self.t += timedelta(minutes=1)
        return self.t


@pytest.fixture
def signed_app(fresh_db, make_app):
    """The app over a private copy of the site's ledger, signing checkpoints with the
    operator's own key (as ``tiplu demo`` does)."""
    ledger = Ledger(fresh_db)
    try:
        key = ledger.signing_key(OPERATOR)
        public_key = ledger.public_key(OPERATOR)
    finally:
        ledger.close()
    app = make_app(fresh_db, TIPLU_CHECKPOINT_SIGNER=CheckpointSigner(key, ORIGIN, Clock()))
    return app, public_key


def checkpoint_count(db_path: str) -> int:
    con = sqlite3.connect(db_path)
    try:
        return con.execute("SELECT count(*) FROM tlog_checkpoints").fetchone()[0]
    finally:
        con.close()


@pytest.mark.parametrize("role", ["revealed0", "finished", "dealt", "cancelled"])
def test_every_statement_is_proved_at_the_signed_checkpoint(signed_app, site, role):
    app, public_key = signed_app
    client = app.test_client()
    hid = site.hands[role]
    body = client.get(f"/api/v1/hands/{hid}/log-proofs").get_json()
    assert set(body) == {"hand_id", "checkpoint", "size", "root", "time", "public_key", "operator", "statements"}
    assert (body["public_key"], body["operator"]) == (public_key, OPERATOR)
    cp = verify_checkpoint(body["checkpoint"], public_key, origin=operator_origin(ORIGIN, OPERATOR))
    assert (body["hand_id"], body["size"], body["root"]) == (hid, cp.size, cp.root.hex())
    assert cp.legacy_time is None and body["time"].endswith("Z")  # the server's unsigned note of when it signed
    stored = client.get(f"/api/v1/hands/{hid}/statements").get_json()["statements"]
    assert [s["n"] for s in body["statements"]] == list(range(1, len(stored) + 1))
    assert [s["kind"] for s in body["statements"]] == [s["statement"]["kind"] for s in stored]
    assert [s["index"] for s in body["statements"]] == [s["seq"] - 1 for s in stored]
    for proof, signed in zip(body["statements"], stored, strict=True):
        mine = leaf_hash(leaf_entry(signed))  # recomputed from the statement, not taken from the server
        assert proof["leaf_hash"] == mine.hex()
        verify_inclusion(mine, proof["index"], cp.size, [bytes.fromhex(h) for h in proof["path"]], cp.root)


def test_the_published_record_s_statements_are_the_logged_ones(signed_app, site):
    app, public_key = signed_app
    client = app.test_client()
    hid = site.hands["revealed1"]
    body = client.get(f"/api/v1/hands/{hid}/log-proofs").get_json()
    cp = verify_checkpoint(body["checkpoint"], public_key)
    record = client.get(f"/api/v1/hands/{hid}/record").get_json()
    published = record["fairness"]["statements"]
    assert len(published) == len(body["statements"])
    for proof, signed in zip(body["statements"], published):
        verify_inclusion(leaf_hash(leaf_entry(signed)), proof["index"], cp.size,
                         [bytes.fromhex(h) for h in proof["path"]], cp.root)


def test_a_forged_statement_in_the_published_record_has_no_proof(signed_app, site):
    """The hand published with a forged signature on its deal statement: that statement's
    leaf hash is none of the log's, and the deal's proof does not lead to the root from it."""
    app, public_key = signed_app
    client = app.test_client()
    hid = site.hands["tampered_signature"]
    body = client.get(f"/api/v1/hands/{hid}/log-proofs").get_json()
    cp = verify_checkpoint(body["checkpoint"], public_key)
    published = client.get(f"/api/v1/hands/{hid}/record").get_json()["fairness"]["statements"]
    served = {p["leaf_hash"] for p in body["statements"]}
    missing = [s["statement"]["kind"] for s in published if leaf_hash(leaf_entry(s)).hex() not in served]
    assert missing == ["deal"]
    deal = next(p for p in body["statements"] if p["kind"] == "deal")
    forged = next(s for s in published if s["statement"]["kind"] == "deal")
    with pytest.raises(ProofError, match=r"^inclusion proof of leaf 63 does not lead to the root of size 114$"):
        verify_inclusion(leaf_hash(leaf_entry(forged)), deal["index"], cp.size,
                         [bytes.fromhex(h) for h in deal["path"]], cp.root)


def test_one_checkpoint_per_size(signed_app, site, fresh_db):
    app, _ = signed_app
    client = app.test_client()
    before = checkpoint_count(fresh_db)
    first = client.get(f"/api/v1/hands/{site.hands['revealed0']}/log-proofs").get_json()
    again = client.get(f"/api/v1/hands/{site.hands['revealed2']}/log-proofs").get_json()
    from_log_api = client.get("/api/v1/log/checkpoint").get_json()
    assert first["checkpoint"] == again["checkpoint"] == from_log_api["checkpoint"]
    assert checkpoint_count(fresh_db) == before + 1


def test_unknown_hand_is_404_in_the_one_shape(signed_app):
    app, _ = signed_app
    assert_error(app.test_client().get("/api/v1/hands/no-such-hand/log-proofs"), 404, "not_found")


def test_no_signer_is_503_in_the_one_shape(fresh_db, make_app, site):
    with Ledger(fresh_db) as ledger:  # the log grows past its last checkpoint
        ledger.new_hand("t1", ["asha", "bikash", "chandra"], hand_id="t1-after")
        public_key = ledger.public_key(OPERATOR)
    client = make_app(fresh_db).test_client()  # no TIPLU_CHECKPOINT_SIGNER, and the log has grown
    assert_error(client.get("/api/v1/log/checkpoint"), 503, "no_signer")  # whose log? no log key says
    # a hand's proofs are its operator's log, signed by the operator's own key, which this ledger holds
    body = client.get(f"/api/v1/hands/{site.hands['revealed0']}/log-proofs").get_json()
    assert (body["public_key"], body["operator"]) == (public_key, OPERATOR)
    verify_checkpoint(body["checkpoint"], public_key, origin=operator_origin("tiplu.local/log", OPERATOR))


def _check_data(html: str) -> dict:
    import json
    import re

    m = re.search(r'<script type="application/json" id="check-data">(.*?)</script>', html, re.S)
    assert m, "the hand page has no in-browser check"
    return json.loads(m.group(1))


def test_hand_page_hands_the_browser_the_published_statements_and_the_pinned_key(signed_app, site):
    app, public_key = signed_app
    client = app.test_client()
    hid = site.hands["revealed0"]
    log = _check_data(client.get(f"/hands/{hid}").get_data(as_text=True))["log"]
    record = client.get(f"/api/v1/hands/{hid}/record").get_json()
    assert log == {"proofs_url": f"/api/v1/hands/{hid}/log-proofs", "public_key": public_key,
                   "statements": record["fairness"]["statements"]}


def test_hand_page_says_the_log_check_is_off_without_a_signer(client, site):
    html = client.get(f"/hands/{site.hands['revealed0']}").get_data(as_text=True)
    assert _check_data(html)["log"] is None
    assert 'id="log-check-off"' in html


def test_a_finished_hand_gets_the_log_check_alone(signed_app, make_app, fresh_db, site):
    """Before the reveal the page has no deal to check, but the record's statements can
    already be checked against the log -- and nothing secret is embedded for it."""
    app, public_key = signed_app
    hid = site.hands["finished"]
    html = app.test_client().get(f"/hands/{hid}").get_data(as_text=True)
    check = _check_data(html)
    assert set(check) == {"log", "evidence", "audit"}
    assert check["audit"] == {"ok": False, "reason": "not_revealed"}  # weighed by the browser (issue 29)
    assert check["log"]["public_key"] == public_key
    assert [s["statement"]["kind"] for s in check["log"]["statements"]][-1] == "record"
    assert site.secret_seeds[hid] not in html
    assert 'class="deal-box"' not in html
    assert check["evidence"]["public_key"] == public_key
    assert check["evidence"]["statements"] == check["log"]["statements"]
    unsigned = make_app(fresh_db).test_client().get(f"/hands/{hid}").get_data(as_text=True)
    # without a log signer there is no live log to ask, but the record's own evidence is checked
    assert _check_data(unsigned)["log"] is None and _check_data(unsigned)["evidence"]["statements"]
    assert site.secret_seeds[hid] not in unsigned
