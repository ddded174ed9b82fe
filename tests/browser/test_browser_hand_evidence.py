"""The hand page checks the log evidence its tiplu.hand/2 record carries, in the browser,
with no extra server request (web/static/hand-check.mjs + verifier/tlogproof.mjs): a clean
hand verifies, a re-signed grind fails ``not_in_log`` by name.  The app here signs no
checkpoints, so the page has no live log to ask: only the record's own proofs are checked."""
from __future__ import annotations

import json
import threading

import pytest
from werkzeug.serving import make_server

from audit.operator.ledger import Ledger
from audit.operator.publish import get_published
from audit.operator.sim.archive import OPERATOR, simulate_archive
from log_evidence import bind, resigned_grind
from web import create_app


@pytest.fixture(scope="module")
def evidence_site(tmp_path_factory):
    """(base URL, {hand id: record}, grind hand id): a Kitti table whose last hand's record
    the operator replaced by a re-signed grind (the real log proofs kept)."""
    path = str(tmp_path_factory.mktemp("evidence") / "ledger.db")
    ledger = Ledger(path, create=True)
    try:
        simulate_archive(ledger, [("kitti", 3, 3)], seed="evidence")
        key = ledger.signing_key(OPERATOR)
        hands = [r[0] for r in ledger.db.execute("SELECT hand_id FROM published_records ORDER BY rowid")]
        records = {}
        for hid in hands:
            rec = get_published(ledger, hid)
            if rec["format"] == "tiplu.hand/1":  # until the publisher writes tiplu.hand/2 itself
                rec = bind(rec, key=key)
            records[hid] = rec
        grind = hands[-1]
        expect = resigned_grind(records[grind], key=key)  # under the operator's real key
        # the operator owns its database: it drops the append-only guard to swap records in
        ledger.db.execute("DROP TRIGGER published_records_no_update")
        with ledger.db.conn:
            for hid, rec in records.items():
                ledger.db.execute("UPDATE published_records SET record = ? WHERE hand_id = ?", [json.dumps(rec), hid])
    finally:
        ledger.close()
    app = create_app({"TESTING": True, "TIPLU_DB": path})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", records, (grind, expect)
    server.shutdown()


def items(page):
    return page.locator("#check-list li").evaluate_all(
        "els => els.map(e => ({name: e.dataset.check, ok: e.dataset.ok, reason: e.dataset.reason || null, detail: e.textContent}))")


def test_a_clean_hand_s_own_log_evidence_verifies_with_no_request(page, evidence_site, screenshot):
    base, records, grind = evidence_site
    hid = next(h for h in records if h != grind[0])
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{base}/hands/{hid}")
    page.wait_for_selector("#browser-check[data-state='verified']", timeout=20000)
    got = items(page)
    logs = {c["name"]: c for c in got if c["name"].startswith("log:")}
    n = len(records[hid]["fairness"]["statements"])
    assert {f"log:statement:{k}" for k in range(1, n + 1)} <= set(logs)
    assert all(c["ok"] == "true" for c in got)
    assert "basis ledger" in logs["log:trust"]["detail"]
    assert not any(c["name"].startswith("live:") for c in got)  # this server keeps no signed log
    assert not any("/api/" in url for url in requests)  # the record's evidence needs no server
    screenshot(page, "hand-evidence-clean-phone")


def test_a_re_signed_grind_fails_not_in_log_on_the_hand_page(page, evidence_site):
    base, records, (grind, expect) = evidence_site
    page.goto(f"{base}/hands/{grind}")
    page.wait_for_selector("#browser-check[data-state='failed']", timeout=20000)
    bad = {c["name"]: c["reason"] for c in items(page) if c["ok"] == "false"}
    # the deal recomputes from the forged seed: only the log tells -- and, in tiplu.hand/3, the
    # move chain, which starts from the server commitment the grind changed (docs/format-3.md)
    if records[grind]["format"] == "tiplu.hand/3":
        expect = {**expect, "moves:chain": "statement_mismatch"}
    # issue 28: the browser also compares the record with its statements (the record statement's
    # hash no longer fits) and replays the moves from the forged deal where it has the game's rules
    assert bad.pop("statements:fields") == "statement_mismatch"
    assert bad.pop("replay:moves", "illegal_move") in ("illegal_move", "deck_mismatch", "incomplete")
    assert bad == expect
    # the server's audit rejects the forgery too: the browser "also" finds a fault (issue 29)
    assert "also finds a fault" in page.inner_text("#check-status")
