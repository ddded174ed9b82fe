"""The operator API and the seats' own routes: a whole hand over HTTP, and the auth rules."""
from __future__ import annotations

import hashlib
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from audit.operator.ledger import Ledger
from audit.operator.publish import build_record
from audit.operator.receipts import check_before_reveal, verify_receipt
from audit.operator.sim.play import play_hand
from audit.operator.tokens import issue_seat_token, revoke
from replay.fairness import commit_player_seed, hand_randomness
from replay.rulesets import resolve
from replay.settlement import parse_amount, settle

from test_web_api import assert_error
from web_testkit import _stream

OP = "/api/v1/operator"


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def wclient(make_app, fresh_db):
    # anonymous reads right after writes: without the read cache, whose answers may lag a
    # write by up to TIPLU_READ_CACHE seconds (that lag is tested in test_web_read_cache.py)
    return make_app(fresh_db, TIPLU_READ_CACHE=0).test_client()


def test_a_whole_hand_over_http(wclient, site, fresh_db):  # rules, K-1
    h = bearer(site.operator_token)
    r = wclient.post(f"{OP}/tables", json={"table_id": "web1", "preset": "kitti", "seats": 2,
                                           "point_value": "0.50", "commission_pct": "5"}, headers=h)
    assert r.status_code == 201 and r.get_json()["operator"] == "demo-operator"
    r = wclient.post(f"{OP}/hands", json={"table_id": "web1", "players": ["ram", "sita"], "dealer": 1,
                                          "hand_id": "web1-h1"}, headers=h)
    assert r.status_code == 201 and r.get_json()["statement"]["statement"]["kind"] == "hand"
    r = wclient.post(f"{OP}/hands/web1-h1/commit", headers=h)
    commitment = r.get_json()["statement"]["statement"]["server_seed_commitment"]
    assert r.get_json()["hand"]["server_seed"] is None
    seeds = [hashlib.sha256(b"player %d" % s).digest()[:16] for s in range(2)]
    operator_key = wclient.get("/api/v1/operators/demo-operator").get_json()["public_key"]
    tokens = [wclient.post(f"{OP}/hands/web1-h1/seats/{s}/token", headers=h).get_json()["token"] for s in range(2)]
    for s in range(2):
        r = wclient.post(f"/api/v1/hands/web1-h1/seats/{s}/commit", headers=bearer(tokens[s]),
                         json={"commitment": commit_player_seed("web1-h1", s, seeds[s])})
        assert r.status_code == 201
        receipt = r.get_json()["receipt"]
        checked = check_before_reveal(receipt, operator_key, hand_id="web1-h1", seat=s,  # log inclusion, binding
                                      shown_commitment=commitment,
                                      seed_commitment=commit_player_seed("web1-h1", s, seeds[s]))
        assert checked.of_kind("seat-receipt")[0][1]["seat"] == s
    for s in range(2):
        r = wclient.post(f"/api/v1/hands/web1-h1/seats/{s}/reveal", headers=bearer(tokens[s]),
                         json={"seed": seeds[s].hex()})
        assert r.status_code == 201
        assert verify_receipt(r.get_json()["receipt"], operator_key).statements[0]["seed"] == seeds[s].hex()
    assert wclient.post(f"{OP}/hands/web1-h1/deal", headers=h).status_code == 200
    # the operator's game server plays the hand (it alone knows the server seed)
    with Ledger(fresh_db) as ledger:
        ruleset = resolve("kitti")
        rnd = hand_randomness(ledger._server_seed("web1-h1"), "web1-h1", ruleset, seeds)
        played = play_hand(rnd, dealer=1, carry={"pot_before": 0}, rng=_stream("web1"))
        money = settle(played.outcome.net_points, point_value=parse_amount("0.50"), commission_pct=parse_amount("5"),
                       pot_delta_points=played.outcome.pot_delta_points)
        record = build_record(ledger, "web1-h1", moves=list(played.moves), outcome=played.outcome,
                              settlement=money, carry={"pot_before": 0}, hand_no=0)
    r = wclient.post(f"{OP}/hands/web1-h1/finish", json={"record": record}, headers=h)
    assert r.status_code == 200, r.get_json()
    assert wclient.get("/api/v1/hands/web1-h1/verdict").get_json()["reason"] == "not_revealed"
    r = wclient.post(f"{OP}/hands/web1-h1/reveal", headers=h)
    seed = r.get_json()["hand"]["server_seed"]
    assert r.get_json()["hand"]["published"] is True  # the reveal publishes: a ledger audit sees the record
    assert_error(wclient.post(f"{OP}/hands/web1-h1/publish", headers=h), 409, "conflict")
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
    verdict = wclient.get("/api/v1/hands/web1-h1/verdict").get_json()
    assert verdict["ok"] is True, verdict
    assert wclient.get("/hands/web1-h1").status_code == 200


def test_cancel_over_http(wclient, site):
    h = bearer(site.operator_token)
    hid = site.hands["committed"]
    r = wclient.post(f"{OP}/hands/{hid}/cancel", json={"reason": "table closed"}, headers=h)
    assert r.status_code == 200 and r.get_json()["hand"]["state"] == "cancelled"
    assert_error(wclient.post(f"{OP}/hands/{site.hands['dealt']}/cancel", headers=h), 409, "conflict")


def test_out_of_order_is_409_and_a_bad_seed_422(wclient, site):  # rule R-21
    h = bearer(site.operator_token)
    assert_error(wclient.post(f"{OP}/hands/{site.hands['created']}/deal", headers=h), 409, "conflict")
    assert_error(wclient.post(f"{OP}/hands/{site.hands['revealed0']}/reveal", headers=h), 409, "conflict")
    hid = site.hands["committed"]
    t0 = site.seat_tokens[(hid, 0)]
    r = wclient.post(f"/api/v1/hands/{hid}/seats/0/commit", headers=bearer(t0),
                     json={"commitment": commit_player_seed(hid, 0, b"x" * 16)})
    assert r.status_code == 201
    # reveal before every seat committed: refused (R-21's two phases)
    assert_error(wclient.post(f"/api/v1/hands/{hid}/seats/0/reveal", headers=bearer(t0), json={"seed": (b"x" * 16).hex()}),
                 409, "conflict")
    for s in (1, 2):
        wclient.post(f"/api/v1/hands/{hid}/seats/{s}/commit", headers=bearer(site.seat_tokens[(hid, s)]),
                     json={"commitment": commit_player_seed(hid, s, b"y" * 16)})
    assert_error(wclient.post(f"/api/v1/hands/{hid}/seats/0/reveal", headers=bearer(t0), json={"seed": (b"z" * 16).hex()}),
                 422, "commitment_mismatch")
    assert_error(wclient.post(f"/api/v1/hands/{hid}/seats/0/reveal", headers=bearer(t0), json={"seed": "zz"}),
                 400, "malformed")
    assert_error(wclient.post(f"/api/v1/hands/{hid}/seats/0/reveal", headers=bearer(t0), data="not json"),
                 400, "malformed")


# -- auth rules ------------------------------------------------------------------------

def test_no_token_and_wrong_tokens_are_401(wclient, site):
    url = f"{OP}/hands/{site.hands['created']}/commit"
    assert_error(wclient.post(url), 401, "unauthorized")
    assert_error(wclient.post(url, headers={"Authorization": "Basic abc"}), 401, "unauthorized")
    assert_error(wclient.post(url, headers=bearer("nonsense")), 401, "unauthorized")
    good = site.operator_token
    wrong = good[:-1] + ("A" if good[-1] != "A" else "B")
    assert_error(wclient.post(url, headers=bearer(wrong)), 401, "unauthorized")
    unknown = "tpl_" + "0" * 16 + good[20:]
    assert_error(wclient.post(url, headers=bearer(unknown)), 401, "unauthorized")
    assert_error(wclient.get(f"{OP}/whoami"), 401, "unauthorized")


def test_seat_token_on_an_operator_route_is_403(wclient, site):
    hid = site.hands["committed"]
    seat_token = site.seat_tokens[(hid, 0)]
    for url in (f"{OP}/hands/{hid}/cancel", f"{OP}/hands/{hid}/deal", f"{OP}/tables", f"{OP}/hands"):
        assert_error(wclient.post(url, headers=bearer(seat_token), json={}), 403, "forbidden")
    assert_error(wclient.get(f"{OP}/whoami", headers=bearer(seat_token)), 403, "forbidden")


def test_another_operators_token_is_403(wclient, site):
    other = bearer(site.other_operator_token)
    assert_error(wclient.post(f"{OP}/hands/{site.hands['created']}/commit", headers=other), 403, "forbidden")
    assert_error(wclient.post(f"{OP}/hands", headers=other, json={"table_id": "t1", "players": ["a", "b"]}),
                 403, "forbidden")
    assert_error(wclient.post(f"{OP}/hands/{site.hands['created']}/seats/0/token", headers=other), 403, "forbidden")


def test_a_player_acts_only_on_its_own_seat(wclient, site):
    hid = site.hands["committed"]
    mine = bearer(site.seat_tokens[(hid, 0)])
    body = {"commitment": "ab" * 32}
    assert_error(wclient.post(f"/api/v1/hands/{hid}/seats/1/commit", headers=mine, json=body), 403, "forbidden")
    assert_error(wclient.post(f"/api/v1/hands/{site.hands['created']}/seats/0/commit", headers=mine, json=body),
                 403, "forbidden")
    # the operator cannot speak for a seat either
    assert_error(wclient.post(f"/api/v1/hands/{hid}/seats/0/commit", headers=bearer(site.operator_token), json=body),
                 403, "forbidden")
    assert_error(wclient.post(f"/api/v1/hands/{hid}/seats/0/commit", json=body), 401, "unauthorized")


def test_a_revoked_token_is_401(wclient, site, fresh_db):
    hid = site.hands["committed"]
    with Ledger(fresh_db) as ledger:
        who, token = issue_seat_token(ledger.db, hid, 2)
        revoke(ledger.db, who.token_id)
    assert_error(wclient.post(f"/api/v1/hands/{hid}/seats/2/commit", headers=bearer(token),
                              json={"commitment": "ab" * 32}), 401, "unauthorized")


def test_tokens_are_stored_only_as_sha256(site):
    conn = sqlite3.connect(site.db_path)
    rows = conn.execute("SELECT token_hash FROM api_tokens").fetchall()
    dump = "\n".join(conn.iterdump())
    conn.close()
    assert hashlib.sha256(site.operator_token.encode()).hexdigest() in {r[0] for r in rows}
    for token in [site.operator_token, site.other_operator_token, *site.seat_tokens.values()]:
        assert token not in dump
        assert token.split("_", 2)[2] not in dump  # the secret part (it may itself contain "_")


def test_token_tables_are_append_only(fresh_db):
    conn = sqlite3.connect(fresh_db)
    with pytest.raises(sqlite3.IntegrityError, match=r"^api_tokens is append-only: DELETE refused$"):
        conn.execute("DELETE FROM api_tokens")
    with pytest.raises(sqlite3.IntegrityError, match=r"^api_tokens is append-only: UPDATE refused$"):
        conn.execute("UPDATE api_tokens SET role = 'operator'")
    names = [r[0] for r in conn.execute("SELECT name FROM migrations WHERE name LIKE 'tokens-%'")]
    conn.close()
    assert names == ["tokens-001_api_tokens"]


# -- limits ----------------------------------------------------------------------------

def test_request_too_large_is_413_in_the_json_shape(make_app, fresh_db, site):
    client = make_app(fresh_db, MAX_CONTENT_LENGTH=1000).test_client()
    r = client.post(f"{OP}/hands/{site.hands['dealt']}/finish", headers=bearer(site.operator_token),
                    json={"record": {"pad": "x" * 5000}})
    assert_error(r, 413)


def test_public_writes_are_rate_limited(make_app, fresh_db, site):
    client = make_app(fresh_db, TIPLU_AUTH_FAIL_LIMIT=3).test_client()
    hid = site.hands["committed"]
    url = f"/api/v1/hands/{hid}/seats/0/commit"
    codes = [client.post(url, json={"commitment": "ab" * 32}).status_code for _ in range(3)]
    assert codes == [401, 401, 401]
    assert_error(client.post(url, json={"commitment": "ab" * 32}), 429, "rate_limited")
    # reads are not limited
    assert client.get(f"/api/v1/hands/{hid}").status_code == 200


def test_publish_over_http_repairs_a_lost_publication(wclient, site, fresh_db):
    from audit.auditor.run.runner import audit_source

    with Ledger(fresh_db) as ledger:  # a hand revealed whose publication was lost
        hand_id = next(ledger.list_hands(state="finished")).id
        ledger.reveal(hand_id)
    assert wclient.get(f"/api/v1/hands/{hand_id}").get_json()["published"] is False
    later = datetime.now(timezone.utc) + timedelta(hours=2)  # past the grace period
    before = {f["hand_id"]: f["reason"] for f in audit_source(fresh_db, now=later).to_json()["failures"]}
    assert before[hand_id] == "unpublished"
    r = wclient.post(f"{OP}/hands/{hand_id}/publish", headers=bearer(site.operator_token))
    assert r.status_code == 201 and r.get_json()["hand"]["published"] is True
    after = {f["hand_id"] for f in audit_source(fresh_db, now=later).to_json()["failures"]}
    assert hand_id not in after


def test_the_operator_api_refuses_the_stub_and_takes_moves(make_app, fresh_db, site):
    """Issue 29 items 2 and 2b over the operator API (audit.operator.finishing)."""
    from audit.operator.sim.play import bot_moves

    client, ledger_path, hand_id = make_app(fresh_db).test_client(), fresh_db, site.hands["dealt"]
    h = bearer(site.operator_token)
    r = client.post(f"/api/v1/operator/hands/{hand_id}/finish", headers=h,
                    json={"record": {"hand_id": hand_id, "moves": []}})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "malformed"
    assert "nothing stored" in r.get_json()["error"]["message"]
    with Ledger(ledger_path) as ledger:
        assert ledger.get_hand(hand_id).state.value == "dealt"
        moves = bot_moves(ledger, hand_id)
    r = client.post(f"/api/v1/operator/hands/{hand_id}/finish", headers=h, json={"moves": moves})
    assert r.status_code == 200, r.get_json()
    r = client.post(f"/api/v1/operator/hands/{hand_id}/reveal", headers=h)
    assert r.status_code == 200
    verdict = client.get(f"/api/v1/hands/{hand_id}/verdict").get_json()
    assert verdict["ok"] is True, verdict
    bad = client.post(f"/api/v1/operator/hands/{hand_id}/finish", headers=h, json={"moves": moves, "record": {}})
    assert bad.status_code == 400
