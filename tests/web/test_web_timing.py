"""The verdict API says what proved the timing and takes the caller's pinned policy; the
operator publishes its own policy at /api/v1/log/policy -- and an auditor's pinned policy,
not the operator's, decides (issue #26)."""
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
from audit.tlog.policy import parse_policy
from audit.operator.publish import publish
from tests.audit.timing_kit import HID, build_world
from web import create_app


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return build_world(tmp_path_factory.mktemp("web-timing"))


@pytest.fixture(scope="module")
def forged_ledger(world, tmp_path_factory):
    """A copy of the ledger whose operator published the private-tree grind for HID."""
    path = tmp_path_factory.mktemp("forged") / "forged.db"
    src = sqlite3.connect(world["path"])
    dst = sqlite3.connect(path)
    src.backup(dst)
    src.close()
    dst.execute("DROP TRIGGER IF EXISTS published_records_no_delete")
    dst.execute("DELETE FROM published_records WHERE hand_id = ?", [HID])
    dst.commit()
    dst.close()
    with Ledger(str(path)) as ledger:
        publish(ledger, HID, world["forged"])
    return path


def _client(path):
    return create_app({"TESTING": True, "TIPLU_DB": str(path)}).test_client()


def test_the_verdict_api_says_the_whole_log_proved_the_timing(world):
    v = _client(world["path"]).get(f"/api/v1/hands/{HID}/verdict").get_json()
    assert v["ok"] is True and v["timing"]["status"] == "whole-log" and v["timing"]["policy"] is None
    assert "whole log" in v["timing"]["message"]


def test_the_grind_is_caught_by_the_api_and_a_pinned_policy_adds_its_quorum(world, forged_ledger):
    client = _client(forged_ledger)
    v = client.get(f"/api/v1/hands/{HID}/verdict").get_json()
    assert v["ok"] is False and "log_inconsistent" in {f["reason"] for f in v["faults"]}
    v = client.post(f"/api/v1/hands/{HID}/verdict", json={"policy": world["policies"]["one-witness"]}).get_json()
    reasons = {f["reason"] for f in v["faults"]}
    assert {"log_inconsistent", "witness_quorum"} <= reasons, reasons
    assert v["timing"]["policy"].startswith("the policy you sent (sha256:")


def test_a_policy_requiring_a_witness_fails_an_uncosigned_published_record(world):
    client = _client(world["path"])
    v = client.post(f"/api/v1/hands/{HID}/verdict", json={"policy": world["policies"]["one-witness"]}).get_json()
    assert v["ok"] is False and v["reason"] == "witness_quorum"
    v = client.post(f"/api/v1/hands/{HID}/verdict", json={"policy": world["policies"]["no-witness"]}).get_json()
    assert v["ok"] is True and v["timing"]["status"] == "whole-log"


def test_a_bad_policy_is_a_400_in_the_one_error_shape(world):
    client = _client(world["path"])
    r = client.post(f"/api/v1/hands/{HID}/verdict", json={"policy": "quorum w1\n"})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "bad_request"
    assert "policy line 1" in r.get_json()["error"]["message"]
    r = client.post(f"/api/v1/hands/{HID}/verdict", json={"nope": 1})
    assert r.status_code == 400 and set(r.get_json()["error"]) >= {"status", "code", "message"}


def test_the_operator_publishes_its_own_policy(world):
    r = _client(world["path"]).get("/api/v1/log/policy")
    assert r.status_code == 200 and r.mimetype == "text/plain"
    p = parse_policy(r.data, name="operator")
    assert [log.vkey.public_hex for log in p.logs] == [world["key"]]
    assert p.quorum == "none"  # this operator names no witness


@pytest.fixture(scope="module")
def served(world):
    from audit.tlog.checkpoint import CheckpointSigner

    with Ledger(str(world["path"])) as ledger:  # the site signs the operator's log with the operator's key
        signer = CheckpointSigner(key=ledger.signing_key("demo-operator"), origin="tiplu.local/log")
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"TESTING": True, "TIPLU_DB": str(world["path"]), "TIPLU_CHECKPOINT_SIGNER": signer})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join(5)


def test_the_auditor_s_pinned_policy_decides_not_the_operator_s(world, served, tmp_path):
    # the operator's own policy asks for no witness; audited under it, its log passes ...
    own = tmp_path / "operator.policy"
    own.write_bytes(_client(world["path"]).get("/api/v1/log/policy").data)
    run = lambda *a: CliRunner().invoke(main, ["audit", served, "--json", "--no-progress", *map(str, a)])  # noqa: E731
    mine = run("--policy", own)
    assert mine.exit_code == 0, mine.output
    assert json.loads(mine.stdout)["log"]["checked"] is True  # judged against the whole served log
    # ... but the auditor pinned a policy requiring witness w1, and that one decides: the
    # operator's published policy is never read by the audit
    pinned = run("--policy", world["files"]["one-witness"])
    assert pinned.exit_code == 1
    report = json.loads(pinned.stdout)
    assert report["policy"]["sha256"] != parse_policy(own.read_bytes()).sha256
    assert {f["reason"] for f in report["failures"]} == {"witness_quorum"}


def test_the_hand_page_says_what_proved_the_timing(world, forged_ledger):
    page = _client(world["path"]).get(f"/hands/{HID}").get_data(as_text=True)
    assert 'data-timing="whole-log"' in page and "Timing proved by the operator&#39;s whole log:" in page
    page = _client(forged_ledger).get(f"/hands/{HID}").get_data(as_text=True)
    assert 'data-timing="whole-log"' in page and "does not check out there: see its faults" in page
    assert "every statement of this hand is in that log" not in page  # never the words of a pass


def test_the_monitor_takes_a_pinned_policy(world, served, tmp_path):
    run = lambda state, policy: CliRunner().invoke(main, ["monitor", served, "--state", str(tmp_path / state),  # noqa: E731
                                                           "--once", "--policy", str(policy)])
    ok = run("a.json", world["files"]["no-witness"])
    assert ok.exit_code == 0, ok.output
    assert "hands audited against the whole log" in ok.stdout
    bad = run("b.json", world["files"]["one-witness"])
    assert bad.exit_code == 1
    assert "tiplu monitor: WITNESS_QUORUM:" in bad.stderr and "requires" not in bad.stderr.split("WITNESS_QUORUM")[0]
    assert "lacks the quorum of one-witness.policy" in bad.stderr
