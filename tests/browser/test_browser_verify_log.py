"""The verify page and the offline single-file verifier check the log evidence a pasted
tiplu.hand/2 record carries, under the operator key pasted to pin it, with no server."""
from __future__ import annotations

import json
import pathlib

from log_evidence import KEY, OTHER, bind, golden, resigned_grind
from verifier_page_helpers import shown_deal, verify

OFFLINE = pathlib.Path(__file__).resolve().parents[2] / "web" / "static" / "tiplu-verifier.html"


def paste(page, record, key=None):
    page.locator("body[data-ready='1']").wait_for()
    page.click("#tab-record")
    page.fill("#record-json", json.dumps(record, ensure_ascii=False))
    page.fill("#operator-key", key or "")


def log_results(page):
    shown = shown_deal(page)
    return {c: ok for c, ok in shown["checks"] if c.startswith("log:")}, shown["reasons"]


def test_a_pasted_v2_record_verifies_under_the_pinned_key(page, static_server, screenshot):
    # every log check passes under the pinned key -- and, alone, its timing is unproven (#26)
    rec = bind(golden())
    page.goto(static_server + "/verify.html")
    paste(page, rec, KEY.public_hex.upper())  # hex in either case
    verify(page, expect_state="unproven")
    logs, reasons = log_results(page)
    n = len(rec["fairness"]["statements"])
    assert set(logs) == {"log:bound", "log:trust", "log:checkpoint", "log:same-checkpoint", "log:order", "log:keys",
                         *(f"log:statement:{k}" for k in range(1, n + 1))}
    assert set(logs.values()) == {"true"} and reasons == {}
    verdict = page.inner_text("#verdict")
    assert "Not proven" in verdict and "verified" not in verdict.splitlines()[0].lower()
    assert page.get_attribute("#timing", "data-timing") == "unproven"
    assert f"{KEY.public_hex} (pinned by you)" in page.inner_text("#facts")
    screenshot(page, "verify-page-log-bound-phone")


def test_with_no_key_pinned_the_record_s_own_key_is_not_a_trust_anchor(page, static_server):
    page.goto(static_server + "/verify.html")
    paste(page, bind(golden()))
    verify(page, expect_state="unproven")
    logs, _ = log_results(page)
    assert logs["log:trust"] == "null" and "false" not in logs.values()
    assert "no operator key was pinned" in page.inner_text("#verdict")
    assert "NOT a trust anchor" in page.inner_text("#facts")


def test_a_checkpoint_not_signed_by_the_pinned_key_fails(page, static_server):
    page.goto(static_server + "/verify.html")
    paste(page, bind(golden()), OTHER.public_hex)
    verify(page, expect_state="failed")
    _, reasons = log_results(page)
    assert reasons == {"log:checkpoint": "bad_checkpoint", "log:keys": "signature"}
    assert "Does not verify" in page.inner_text("#verdict")


def test_a_re_signed_grind_fails_not_in_log_though_its_deal_verifies(page, static_server, screenshot):
    rec = bind(golden())
    resigned_grind(rec)
    page.goto(static_server + "/verify.html")
    paste(page, rec, KEY.public_hex)
    verify(page, expect_state="failed")
    shown = shown_deal(page)
    # the forged seed matches its forged commitment: the seeds alone cannot tell
    assert {c: ok for c, ok in shown["checks"] if not c.startswith("log:")}["server_commitment"] == "true"
    assert {r for c, r in shown["reasons"].items() if c.startswith("log:")} == {"not_in_log"}
    # and the record's own statement of its hash no longer fits the record (issue 28: the fields
    # are compared); the moves, replayed from the forged deal, do not fit it either
    assert shown["reasons"]["statements:fields"] == "statement_mismatch"
    assert shown["reasons"].get("replay:moves", "illegal_move") in ("illegal_move", "deck_mismatch", "incomplete")
    screenshot(page, "verify-page-grind-phone")


def test_a_malformed_operator_key_is_a_clear_error(page, static_server):
    page.goto(static_server + "/verify.html")
    paste(page, bind(golden()), "abc")
    verify(page, expect_state="error")
    assert "operator key is 64 hex digits" in page.inner_text("#status")


def test_a_pasted_record_at_point_value_0_is_malformed(page, static_server):
    # rule D-2: the table money rule (docs/records.md, "Table money"): a whole record is held
    # to the record's schema, as the audit holds it -- the page fails it as malformed
    rec = bind(golden())
    page.goto(static_server + "/verify.html")
    rec["table"]["point_value"] = "0"
    paste(page, rec, KEY.public_hex)
    verify(page, expect_state="failed")
    _, reasons = log_results(page)
    assert reasons.get("record:shape") == "malformed", reasons
    assert '$.table.point_value: "0" is not a point value: an amount more than 0' in page.inner_text("#result")


def test_the_offline_file_checks_log_evidence_from_disk(page):  # rule R-22
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(OFFLINE.as_uri())
    rec = bind(golden("rummy13/golden-0.json"))
    paste(page, rec, KEY.public_hex)
    verify(page, expect_state="unproven")  # every check passes; alone, its timing is unproven
    logs, _ = log_results(page)
    assert logs and set(logs.values()) == {"true"}
    resigned_grind(rec)
    paste(page, rec, KEY.public_hex)
    verify(page, expect_state="failed")
    reasons = log_results(page)[1]
    assert {r for c, r in reasons.items() if c.startswith("log:")} == {"not_in_log"}
    assert reasons["statements:fields"] == "statement_mismatch"
    assert requests == [OFFLINE.as_uri()]  # no server asked, nothing fetched
