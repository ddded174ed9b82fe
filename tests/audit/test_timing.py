"""What proved the timing (issue #26, docs/format-3.md "Verdict: what proved the timing"),
tried with the attack it exists for: the operator grinds its server seed after seeing the
players' seeds, re-signs the hand and proves it in a private tree signed with its real key
(audit.operator.sim.grind, variant "private").  Audited alone, that record agrees with itself:

* with no policy it is ``unproven`` -- never a pass: exit 3, ``"result": "unproven"``;
* under a pinned policy requiring one witness it fails ``witness_quorum``: a real witness
  that cosigned the operator's public log refuses to cosign the private tree;
* against the operator's ledger it fails as before (``log_inconsistent``).

An honest record cosigned by that witness is ``witnessed`` (exit 0)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from audit.operator.ledger import Ledger
from audit.auditor.evidence.ledger_log import LedgerLog
from audit.tlog.policy import parse_policy
from audit.auditor.verdict.timing import UNPROVEN_MESSAGE
from audit.auditor.verdict.verify import audit_record
from replay.faults import Reason
from tests.audit.timing_kit import HID, build_world

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return build_world(tmp_path_factory.mktemp("timing"))


def _audit(*args: str) -> tuple[int, dict]:
    out = subprocess.run([sys.executable, "-m", "web.cli", "audit", *map(str, args), "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.stdout, out.stderr
    return out.returncode, json.loads(out.stdout)


def _text(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "web.cli", "audit", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_the_witness_refuses_the_private_tree(world):
    assert world["refusal"] is not None and world["refusal"].status in (409, 422)


def test_a_lone_grind_record_is_unproven_not_a_pass(world):
    code, report = _audit(world["files"]["forged"], "--public-key", world["key"])
    assert code == 3
    assert report["ok"] is False and report["result"] == "unproven"
    assert report["failed"] == 0 and report["unproven"] == 1
    [r] = report["unproven_records"]
    assert r["hand_id"] == HID and r["timing"] == {"status": "unproven", "policy": None, "witnesses": [],
                                                   "message": UNPROVEN_MESSAGE}
    out = _text(world["files"]["forged"], "--public-key", world["key"])
    assert out.returncode == 3
    assert out.stdout.rstrip().endswith("1 records audited, 0 failed, 1 unproven  -- NOT A PASS: timing unproven (exit 3)")
    assert "pin a witness policy" in out.stdout and "0 failed" in out.stdout


def test_a_policy_with_quorum_none_proves_nothing(world):
    code, report = _audit(world["files"]["forged"], "--policy", world["files"]["no-witness"])
    assert code == 3 and report["result"] == "unproven"
    assert report["trust"]["basis"] == "policy" and report["trust"]["public_key"] == world["key"]


def test_a_lone_grind_record_fails_under_a_policy_requiring_one_witness(world):
    code, report = _audit(world["files"]["forged"], "--policy", world["files"]["one-witness"])
    assert code == 1 and report["result"] == "fail"
    [failure] = report["failures"]
    assert failure["reason"] == "witness_quorum"
    assert "requires witness w1" in failure["faults"][0]["message"]
    assert failure["timing"]["status"] == "unproven"


def test_the_honest_record_is_witnessed(world):
    code, report = _audit(world["files"]["honest"], "--policy", world["files"]["one-witness"])
    assert code == 0 and report["ok"] is True and report["result"] == "pass"
    assert report["timing"] == {"witnessed": 1, "whole-log": 0, "unproven": 0}
    v = audit_record(world["honest"], policy=parse_policy(world["files"]["one-witness"].read_bytes(), name="p"))
    assert v.ok and v.timing.status == "witnessed" and [w.name for w in v.timing.witnesses] == ["w1"]
    assert v.timing.witnesses[0].timestamp > 0 and "w1" in v.timing.message


def test_the_grind_is_still_caught_against_the_ledger(world):
    with Ledger(str(world["path"])) as ledger:
        v = audit_record(world["forged"], public_key=world["key"], log=LedgerLog(ledger.db))
        honest = audit_record(world["honest"], public_key=world["key"], log=LedgerLog(ledger.db))
    assert Reason.LOG_INCONSISTENT in v.reasons and v.timing.status == "whole-log"
    assert honest.ok and honest.timing.status == "whole-log" and honest.status == "pass"
    code, report = _audit(world["path"], "--public-key", world["key"])
    assert code == 0 and report["timing"]["whole-log"] == report["total"]


def test_bad_policy_input_is_a_usage_error(world, tmp_path):
    bad = tmp_path / "bad.policy"
    bad.write_text("witness w1 nonsense\nquorum w1\n")
    out = _text(world["files"]["forged"], "--policy", bad)
    assert out.returncode == 2 and "policy line 1" in out.stderr and len(out.stderr.splitlines()) == 1
    out = _text(world["files"]["forged"], "--policy", world["files"]["one-witness"], "--quorum", "1")
    assert out.returncode == 2 and "not both" in out.stderr


def test_a_trust_key_and_a_policy_must_agree(world, tmp_path):
    other = "ab" * 32
    out = _text(world["files"]["forged"], "--policy", world["files"]["one-witness"], "--public-key", other)
    assert out.returncode == 2 and "is not a log of the policy" in out.stderr
    trust = tmp_path / "trust.json"
    trust.write_text(json.dumps({"format": "tiplu.trust/1", "public_key": world["key"], "origin": "other.example/log"}))
    out = _text(world["files"]["forged"], "--policy", world["files"]["one-witness"], "--trust", trust)
    assert out.returncode == 2 and "pins origin 'other.example/log'" in out.stderr
    trust.write_text(json.dumps({"format": "tiplu.trust/1", "public_key": world["key"]}))
    code, report = _audit(world["files"]["honest"], "--policy", world["files"]["one-witness"], "--trust", trust)
    assert code == 0 and report["trust"]["basis"] == "trust-file" and report["trust"]["origin"]


def test_stats_counts_what_proved_the_timing(world):
    run = lambda *a: subprocess.run([sys.executable, "-m", "web.cli", "stats", *map(str, a), "--json"],  # noqa: E731
                                    capture_output=True, text=True, cwd=ROOT, timeout=120)
    alone = json.loads(run(world["files"]["forged"], "--public-key", world["key"]).stdout)
    assert alone["hands"] == 1 and alone["timing"] == {"witnessed": 0, "whole-log": 0, "unproven": 1}
    pinned = json.loads(run(world["files"]["forged"], "--policy", world["files"]["one-witness"]).stdout)
    assert pinned["hands"] == 0 and pinned["excluded"] == {"witness_quorum": 1}
    witnessed = json.loads(run(world["files"]["honest"], "--policy", world["files"]["one-witness"]).stdout)
    assert witnessed["hands"] == 1 and witnessed["timing"]["witnessed"] == 1
    ledger = json.loads(run(world["path"], "--public-key", world["key"]).stdout)
    assert ledger["timing"] == {"witnessed": 0, "whole-log": ledger["hands"], "unproven": 0}
    text = subprocess.run([sys.executable, "-m", "web.cli", "stats", str(world["files"]["forged"])],
                          capture_output=True, text=True, cwd=ROOT, timeout=120).stdout
    assert "1 UNPROVEN" in text
