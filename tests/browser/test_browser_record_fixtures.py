"""Every record fixture (fixtures/records/, tiplu.hand/3) judged by the browser's log
evidence check (web/static/verifier/tlogproof.mjs) and by the Python audit
(audit.auditor.verdict.verify.audit_record) under the same pinned operator key: the goldens verify, and on
every fixture the browser's failed log checks carry exactly the log reasons the audit gives,
and its format-3 checks (the move chain, the hand statement's hash) fail exactly where the
audit finds those statement_mismatch faults."""
from __future__ import annotations

import json
import pathlib

import pytest

from audit.auditor.verdict.trust import TrustAnchor
from audit.auditor.verdict.verify import audit_record

ROOT = pathlib.Path(__file__).resolve().parents[2]
RECORDS = ROOT / "fixtures" / "records"
MANIFEST = json.loads((RECORDS / "manifest.json").read_text(encoding="utf-8"))["records"]
#: the reasons the browser gives as the Python audit does: the log evidence, and (issue 27) the
#: protocol's order and the statements' times (statements:order, statements:time)
LOG_REASONS = {"not_log_bound", "not_in_log", "log_order", "bad_checkpoint", "signature", "event_order", "time_order",
               "future_time"}


def operator_key() -> str:
    """The fixtures' operator key, pinned from a golden record (the same key signs them all)."""
    keys = {json.loads((RECORDS / e["file"]).read_text(encoding="utf-8"))["table"]["public_key"]
            for e in MANIFEST if e["ok"]}
    assert len(keys) == 1
    return keys.pop()


@pytest.fixture(scope="module")
def judged(browser, static_server):
    """{file: (record, browser checks)} for every fixture, in one page."""
    key = operator_key()
    records = {e["file"]: json.loads((RECORDS / e["file"]).read_text(encoding="utf-8")) for e in MANIFEST}
    pg = browser.new_page()
    pg.goto(f"{static_server}/verify.html")
    out = pg.evaluate("""async ([records, publicKey]) => {
        const T = await import('/verifier/tlogproof.mjs');
        const res = {};
        for (const [file, record] of Object.entries(records)) res[file] = await T.recordLogChecks(record, {publicKey, basis: "pinned"});
        return res;
    }""", [records, key])
    pg.close()
    return key, {f: (records[f], out[f]) for f in records}


def test_the_fixtures_are_log_bound():
    assert all(json.loads((RECORDS / e["file"]).read_text(encoding="utf-8"))["format"] == "tiplu.hand/3" for e in MANIFEST)


@pytest.mark.parametrize("entry", [e for e in MANIFEST if e["ok"]], ids=lambda e: e["file"])
def test_every_golden_record_verifies_in_the_browser(judged, entry):
    _, results = judged
    _, checks = results[entry["file"]]
    assert checks and all(c["ok"] is True for c in checks), [c for c in checks if c["ok"] is not True]
    n = len(results[entry["file"]][0]["fairness"]["statements"])
    assert sum(c["name"].startswith("log:statement:") for c in checks) == n


@pytest.mark.parametrize("entry", MANIFEST, ids=lambda e: e["file"])
def test_the_browser_agrees_with_the_python_audit(judged, entry):
    key, results = judged
    record, checks = results[entry["file"]]
    # the browser checks every statement's signature too (log:keys), as --check-signatures does
    verdict = audit_record(record, trust=TrustAnchor(key, "pinned"), check_signatures=True)
    python = {f.reason.value for f in verdict.faults} & LOG_REASONS
    log_checks = [c for c in checks if not c["name"].startswith("moves:")]
    browser = {c["reason"] for c in log_checks if c["ok"] is False}
    assert browser == python, (verdict.faults, [c for c in log_checks if c["ok"] is False])
    assert (not python) == all(c["ok"] is not False for c in log_checks)
    # format 3: the move chain and the hand binding, as statement_check judges them
    said = {"moves:chain": ("moves_head", "n_moves"), "moves:hand-hash": ("hand_hash",)}
    for name, fields in said.items():
        py = any(f.reason.value == "statement_mismatch" and any(x in f.message for x in fields) for f in verdict.faults)
        js = any(c["name"] == name and c["ok"] is False for c in checks)
        assert py == js, (name, verdict.faults, checks)
