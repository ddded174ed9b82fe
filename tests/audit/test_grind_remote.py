"""The re-signed grind (issue 15), caught over the wire: `tiplu audit URL` and
`tiplu monitor URL --once` against a live operator on 127.0.0.1 that publishes the forgery
in place of the honest record.  Each variant fails with its own reason."""
from __future__ import annotations

import json
import logging
import sqlite3
import threading

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from audit.cli import main
from audit.operator.ledger import Ledger
from audit.operator.publish import publish
from audit.operator.sim.archive import simulate_archive
from audit.operator.sim.grind import resigned_grind
from web import create_app

HID = "kitti-4p-t0-h0001"
# the reason each variant must give (the others may follow as consequences): the URL audit
# and the monitor judge each record against the operator's whole served log, as a ledger
# audit does, so a private log and a re-logged second set are caught too.
OWN_REASON = {"stale": "not_in_log", "private": "not_in_log", "relogged": "log_duplicate"}


def _dishonest_operator(path, variant):
    """A ledger whose published record of HID is the re-signed grind; returns the operator key."""
    with Ledger(str(path), create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 3)], seed="grind")
        rec = resigned_grind(ledger, HID, shill=0, evidence=variant)
        key = ledger.public_key("demo-operator")
    con = sqlite3.connect(path)
    con.execute("DROP TRIGGER IF EXISTS published_records_no_delete")
    con.execute("DELETE FROM published_records WHERE hand_id = ?", [HID])
    con.commit()
    con.close()
    with Ledger(str(path)) as ledger:
        publish(ledger, HID, rec)
    return key


@pytest.fixture(params=sorted(OWN_REASON))
def served(request, tmp_path):
    variant = request.param
    key = _dishonest_operator(tmp_path / f"{variant}.db", variant)
    app = create_app({"TESTING": True, "TIPLU_DB": str(tmp_path / f"{variant}.db")})
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield variant, f"http://127.0.0.1:{srv.server_port}", key
    srv.shutdown()
    thread.join(5)


def test_audit_url_fails_the_grind_record_alone_with_its_own_reason(served):
    variant, url, key = served
    res = CliRunner().invoke(main, ["audit", url, "--public-key", key, "--json", "--no-progress"])
    assert res.exit_code == 1, res.output
    report = json.loads(res.stdout)
    assert report["trust"]["public_key"] == key and report["trust"]["basis"] == "pinned"
    failed = {f["hand_id"]: f for f in report["failures"]}
    assert set(failed) == {HID}, failed  # the honest hands of the same operator pass
    reasons = {f["reason"] for f in failed[HID]["faults"]}
    assert OWN_REASON[variant] in reasons, reasons
    if variant == "relogged":
        assert "log_order" in reasons


def test_monitor_once_fails_the_grind_record_with_its_own_reason(served, tmp_path):
    variant, url, key = served
    res = CliRunner().invoke(main, ["monitor", url, "--state", str(tmp_path / "m.json"), "--once",
                                    "--public-key", key])
    assert res.exit_code == 1, res.output
    problems = [line for line in res.stderr.splitlines() if line.startswith("tiplu monitor:")]
    assert problems and all(HID in p for p in problems if "AUDIT_FAILED" in p), problems
    audit_failed = [p for p in problems if "AUDIT_FAILED" in p]
    assert audit_failed, problems
    assert OWN_REASON[variant] in " ".join(audit_failed), audit_failed
    # a failed audit is about a hand: it is reported, and the log itself (its checks passed) is
    # still followed, so the monitor is not blinded to what comes later (issue 27)
    assert json.loads((tmp_path / "m.json").read_text())["checkpoint"]
