"""The re-signed grind, performed for real against a ledger: the operator deals honestly,
grinds server seeds until its shill wins, re-signs a whole new statement set with its real
key and publishes it.  Every signature verifies; the log catches it -- in a record file, a
JSON-lines archive, a ledger, and the verdict API (issue 15)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from audit.operator.ledger import Ledger
from audit.auditor.evidence.ledger_log import LedgerLog
from audit.operator.publish import publish
from audit.operator.sim.archive import simulate_archive
from audit.operator.sim.grind import resigned_grind
from audit.auditor.verdict.trust import TrustAnchor
from audit.auditor.verdict.verify import audit_record
from replay.faults import Reason

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def forged(tmp_path):
    """(ledger path, {variant: forged record}) -- each variant forged against its own ledger."""
    out = {}
    for variant in ("stale", "private", "relogged"):
        path = tmp_path / f"{variant}.db"
        with Ledger(str(path), create=True) as ledger:
            simulate_archive(ledger, [("kitti", 4, 3)], seed="grind")
            hid = "kitti-4p-t0-h0001"
            rec = resigned_grind(ledger, hid, shill=0, evidence=variant)
            out[variant] = (path, hid, rec)
    return out


def _trust(path: Path) -> TrustAnchor:
    with Ledger(str(path)) as ledger:
        return TrustAnchor(ledger.public_key("demo-operator"), "pinned")


def test_the_forgery_is_what_the_issue_describes(forged):
    path, hid, rec = forged["stale"]
    trust = _trust(path)
    with Ledger(str(path)) as ledger:
        honest = ledger.get_hand(hid)
    assert rec["fairness"]["server_commitment"] != honest.server_seed_commitment  # H(s') replaces c
    assert rec["outcome"]["winner"] == 0  # the shill wins
    # every statement verifies under the operator's real key: the old audit passed it
    v = audit_record(rec, trust=trust, check_signatures=True)
    assert Reason.SIGNATURE not in v.reasons and Reason.STATEMENT_MISMATCH not in v.reasons
    assert {f.reason for f in v.faults} == {Reason.NOT_IN_LOG}


def test_a_record_file_with_stale_proofs_fails_not_in_log(forged, tmp_path):
    path, hid, rec = forged["stale"]
    file = tmp_path / "forged.json"
    file.write_text(json.dumps(rec))
    key = _trust(path).public_key
    out = subprocess.run([sys.executable, "-m", "audit.cli", "audit", str(file), "--public-key", key, "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1, out.stderr
    report = json.loads(out.stdout)
    assert report["trust"]["basis"] == "pinned" and report["trust"]["public_key"] == key
    assert "not_in_log" in out.stdout
    # a JSON-lines archive of the honest records and the forgery: only the forgery fails
    lines = tmp_path / "archive.jsonl"
    lines.write_text(json.dumps(rec) + "\n")
    out = subprocess.run([sys.executable, "-m", "audit.cli", "audit", str(lines), "--public-key", key],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1 and "not_in_log" in out.stdout, out.stdout + out.stderr
    assert "trusted: key" in out.stdout


def test_a_private_log_passes_offline_but_not_against_the_operator_s_log(forged):
    path, hid, rec = forged["private"]
    trust = _trust(path)
    assert audit_record(rec, trust=trust).ok  # the documented limit of an offline record audit
    with Ledger(str(path)) as ledger:
        v = audit_record(rec, trust=trust, log=LedgerLog(ledger.db))
    assert Reason.LOG_INCONSISTENT in v.reasons and Reason.NOT_IN_LOG in v.reasons


def test_a_relogged_forgery_breaks_the_order_and_the_log_holds_two_sets(forged):
    path, hid, rec = forged["relogged"]
    trust = _trust(path)
    assert Reason.LOG_ORDER in audit_record(rec, trust=trust).reasons  # offline: the kept reveals come first
    with Ledger(str(path)) as ledger:
        v = audit_record(rec, trust=trust, log=LedgerLog(ledger.db))
    assert Reason.LOG_DUPLICATE in v.reasons and Reason.LOG_ORDER in v.reasons


@pytest.mark.parametrize("variant", ["stale", "private", "relogged"])
def test_a_ledger_publishing_the_forgery_fails_its_audit_and_its_verdict_api(forged, variant):
    path, hid, rec = forged[variant]
    # the dishonest operator publishes the forged record in place of the honest one: a fresh
    # hand slot is not possible (hand ids are unique), so the honest record was never published
    import sqlite3
    con = sqlite3.connect(path)
    con.execute("DROP TRIGGER IF EXISTS published_records_no_delete")
    con.execute("DELETE FROM published_records WHERE hand_id = ?", [hid])
    con.commit()
    con.close()
    with Ledger(str(path)) as ledger:
        publish(ledger, hid, rec)
    key = _trust(path).public_key
    out = subprocess.run([sys.executable, "-m", "audit.cli", "audit", str(path), "--public-key", key, "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1, out.stderr
    report = json.loads(out.stdout)
    text = json.dumps(report)
    assert any(r in text for r in ("not_in_log", "log_duplicate", "log_inconsistent", "log_order"))
    from web import create_app

    client = create_app({"TESTING": True, "TIPLU_DB": str(path)}).test_client()
    verdict = client.get(f"/api/v1/hands/{hid}/verdict").get_json()
    assert verdict["ok"] is False
    reasons = {f["reason"] for f in verdict["faults"]}
    assert reasons & {"not_in_log", "log_duplicate", "log_inconsistent", "log_order"}, verdict
    if variant == "relogged":
        assert "log_duplicate" in reasons
    if variant == "private":
        assert "log_inconsistent" in reasons


def test_the_simulator_s_resigned_grind_class_is_caught_exactly(tmp_path):
    # the `--tamper` class: the simulator's dishonest operator publishes the grind (stale
    # proofs) for hand 1 of each table; the ledger audit fails exactly those, not_in_log
    from audit.operator.sim.tamper import EXPECTED

    path = tmp_path / "sim.db"
    with Ledger(str(path), create=True) as ledger:
        run = simulate_archive(ledger, [("kitti", 4, 3), ("rummy13", 4, 2)], seed="grind-sim",
                               tamper_hands={1: "resigned_grind"})
    assert set(run.tampered.values()) == {"resigned_grind"} and len(run.tampered) == 2
    key = _trust(path).public_key
    out = subprocess.run([sys.executable, "-m", "audit.cli", "audit", str(path), "--public-key", key, "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1, out.stderr
    failures = {f["hand_id"]: f for f in json.loads(out.stdout)["failures"]}
    assert set(failures) == set(run.tampered)
    for f in failures.values():
        assert {x["reason"] for x in f["faults"]} & {r.value for r in EXPECTED["resigned_grind"]}, f
