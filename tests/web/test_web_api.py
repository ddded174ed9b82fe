"""The public JSON API: hands, records, verdicts, tables, operators -- and the one error shape."""
from __future__ import annotations

from decimal import Decimal

import pytest

ERROR_KEYS = {"status", "code", "message"}


def assert_error(resp, status: int, code: str | None = None) -> dict:
    """The one JSON error shape: exactly {"error": {"status", "code", "message"}}."""
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.mimetype == "application/json"
    body = resp.get_json()
    assert set(body) == {"error"}
    assert set(body["error"]) == ERROR_KEYS
    assert body["error"]["status"] == status
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code
    return body["error"]


@pytest.mark.parametrize("method, url, status, code", [
    ("get", "/api/v1/no-such-route", 404, "not_found"),
    ("get", "/api/v1/hands/no-such-hand", 404, "not_found"),
    ("get", "/api/v1/hands/bad%20id!", 400, "malformed"),
    ("get", "/api/v1/hands?limit=0", 400, "bad_request"),
    ("get", "/api/v1/hands?limit=abc", 400, "bad_request"),
    ("get", "/api/v1/hands?state=nonsense", 400, "bad_request"),
    ("get", "/api/v1/tables/nope", 404, "not_found"),
    ("get", "/api/v1/operators/nobody", 404, "not_found"),
    ("post", "/api/v1/hands", 405, "method_not_allowed"),
    ("get", "/api/v1/hands/{created}/record", 404, "not_found"),
    ("get", "/api/v1/hands/{dealt}/verdict", 404, "not_found"),
    ("post", "/api/v1/operator/tables", 401, "unauthorized"),
])
def test_one_error_shape(client, site, method, url, status, code):
    url = url.format(**{k.replace("-", "_"): v for k, v in site.hands.items()})
    assert_error(getattr(client, method)(url), status, code)


def test_list_hands_filters_and_pages(client, site):
    everything = client.get("/api/v1/hands?limit=200").get_json()
    assert everything["total"] == len(site.hands)
    ids = [h["hand_id"] for h in everything["hands"]]
    assert ids[0] == "t1-cancelled"  # newest first
    first = client.get("/api/v1/hands?limit=5").get_json()
    second = client.get(f"/api/v1/hands?limit=5&offset={first['next_offset']}").get_json()
    assert [h["hand_id"] for h in first["hands"] + second["hands"]] == ids[:10]
    revealed = client.get("/api/v1/hands?state=revealed").get_json()["hands"]
    assert {h["hand_id"] for h in revealed} == set(site.records)
    assert all(h["server_seed"] for h in revealed)
    assert client.get("/api/v1/hands?preset=rummy13").get_json()["total"] == 0
    assert client.get("/api/v1/hands?table_id=t-other").get_json()["total"] == 0


def test_one_hand_and_its_record(client, site):  # rule R-22
    hid = site.hands["revealed0"]
    hand = client.get(f"/api/v1/hands/{hid}").get_json()
    assert hand["state"] == "revealed" and hand["links"]["record"] == f"/api/v1/hands/{hid}/record"
    record = client.get(f"/api/v1/hands/{hid}/record").get_json()
    assert record == site.records[hid]
    assert record["fairness"]["server_seed"] == hand["server_seed"]


def test_finished_hand_record_has_no_server_seed(client, site):  # rules
    hid = site.hands["finished"]
    record = client.get(f"/api/v1/hands/{hid}/record").get_json()
    assert record["fairness"]["server_seed"] is None
    assert "reveal" not in [s["statement"]["kind"] for s in record["fairness"]["statements"]]
    verdict = client.get(f"/api/v1/hands/{hid}/verdict").get_json()
    assert verdict["ok"] is False and verdict["reason"] == "not_revealed"


def test_verdicts(client, site):  # rules K-4, D-2
    assert client.get(f"/api/v1/hands/{site.hands['revealed0']}/verdict").get_json()["ok"] is True
    lie = client.get(f"/api/v1/hands/{site.hands['tampered_payout']}/verdict").get_json()
    assert lie["ok"] is False and lie["reason"] == "payout_mismatch"
    forged = client.get(f"/api/v1/hands/{site.hands['tampered_signature']}/verdict").get_json()
    assert forged["reason"] == "not_in_log"  # the stored published artifact is what is audited: its changed
    # signature makes the deal statement another leaf than the one in the log
    moved = client.get(f"/api/v1/hands/{site.hands['tampered_move']}/verdict").get_json()
    assert moved["reason"] == "illegal_move" and moved["first_bad_move"] == 0
    assert moved["faults"][0]["rule"] == "K-4"


def test_table_balances_are_the_recomputed_settlements(client, site):  # rules D-2, K-1
    body = client.get("/api/v1/tables/t1").get_json()
    # the table's hands in the order they were played (the hands list is newest first)
    listed = client.get("/api/v1/hands?table_id=t1&limit=200").get_json()["hands"]
    assert [h["hand_id"] for h in body["hands"]] == [h["hand_id"] for h in reversed(listed)]
    assert body["hands"][0]["hand_id"] == "t1-h0000"
    # sum the replayed nets of the hands that pass the audit (a rejected hand -- the
    # tampered payout, the forged signature, the edited move -- shows no nets and adds nothing)
    expect: dict[str, Decimal] = {}
    commission = Decimal(0)
    for h in body["hands"]:
        if h["nets"] is None:
            continue
        for player, net in zip(h["players"], h["nets"]):
            expect[player] = expect.get(player, Decimal(0)) + Decimal(net)
        commission += Decimal(h["commission"])
    assert {p: Decimal(v) for p, v in body["balances"].items()} == expect
    assert Decimal(body["commission"]) == commission
    # money sums to zero with the house's commission and the pot (0.25 HT a point)
    pot_points = sum(h["pot_delta_points"] or 0 for h in body["hands"] if h["nets"] is not None)
    assert sum(expect.values()) + commission + Decimal(pot_points) * Decimal("0.25") == 0
    honest = site.records[site.hands["revealed0"]]
    row = next(h for h in body["hands"] if h["hand_id"] == site.hands["revealed0"])
    assert row["nets"] == honest["outcome"]["payouts"]["nets"]
    lie = site.records[site.hands["tampered_payout"]]
    row = next(h for h in body["hands"] if h["hand_id"] == site.hands["tampered_payout"])
    assert row["nets"] != lie["outcome"]["payouts"]["nets"]
    assert body["carry_faults"] == []


def test_operators_and_public_key(client, site):
    ops = client.get("/api/v1/operators").get_json()["operators"]
    assert [o["name"] for o in ops] == ["demo-operator", "other-operator"]
    one = client.get("/api/v1/operators/demo-operator").get_json()
    assert one["public_key"] == site.records[site.hands["revealed0"]]["table"]["public_key"]
    assert set(one) == {"name", "public_key", "key_id", "created_at"}


def test_statements_of_a_hand(client, site):  # rule R-21
    body = client.get(f"/api/v1/hands/{site.hands['committed']}/statements").get_json()
    assert [s["kind"] for s in body["statements"]] == ["hand", "commitment"]


def test_pages_carry_a_strict_content_security_policy(client, site):
    for url in ("/", f"/hands/{site.hands['revealed0']}", "/verify/"):
        resp = client.get(url)
        assert "script-src 'self'" in resp.headers["Content-Security-Policy"], url
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
    # the offline verifier is one file with inline code, made to be saved and opened from disk
    resp = client.get("/verify/tiplu-verifier.html")
    assert resp.status_code == 200 and "Content-Security-Policy" not in resp.headers
    assert client.get("/api/v1/operators").headers["X-Content-Type-Options"] == "nosniff"


def test_verdicts_pin_the_registered_operator_key(make_app, fresh_db):  # rule R-21
    from audit.operator.ledger import Ledger
    from audit.auditor.verdict.verify import audit_record
    from web_testkit import play

    with Ledger(fresh_db) as ledger:
        play(ledger, "t1-forged", dealer=0, pot_before=0, hand_no=None, publish_tamper="foreign_key")
    client = make_app(fresh_db).test_client()
    record = client.get("/api/v1/hands/t1-forged/record").get_json()
    assert audit_record(record).ok  # consistent in itself under the key it names ...
    verdict = client.get("/api/v1/hands/t1-forged/verdict").get_json()
    assert verdict["reason"] == "signature"  # ... but not signed by the operator the ledger knows


def test_rejected_hands_are_listed_apart_with_their_claims(client, site):  # rule D-2
    body = client.get("/api/v1/tables/t1").get_json()
    failed = [h["hand_id"] for h in body["hands"] if h["verdict"] and not h["verdict"]["ok"]
              and h["state"] == "revealed"]
    assert len(failed) >= 3
    assert body["unreconciled"] == len(failed)
    assert body["passed_hands"] + body["unreconciled"] == body["audited_hands"]
    assert sorted(r["hand_id"] for r in body["rejected"]) == sorted(failed)
    lie = next(r for r in body["rejected"] if r["hand_id"] == site.hands["tampered_payout"])
    record = client.get(f"/api/v1/hands/{site.hands['tampered_payout']}/record").get_json()
    assert lie["claimed"]["nets"] == dict(zip([s["player"] for s in record["table"]["seats"]],
                                              record["outcome"]["payouts"]["nets"]))
    html = client.get("/tables/t1").get_data(as_text=True)
    assert f'data-unreconciled="{len(failed)}"' in html
    assert html.count("data-rejected=") == len(failed)
    assert "claimed" in html.split('id="rejected-hands"')[1].split("</thead>")[0]
