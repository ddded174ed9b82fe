"""The golden and corrupted records of fixtures/records/ get exactly their verdicts."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from audit.operator.sim.tamper import EXPECTED
from audit.auditor.verdict.verify import audit_record
from replay.faults import Reason
from replay.rulesets import PRESETS

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIR = ROOT / "fixtures" / "records"
MANIFEST = json.loads((DIR / "manifest.json").read_text())["records"]


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["file"] for e in MANIFEST])
def test_fixture_gets_its_verdict(entry):
    verdict = audit_record((DIR / entry["file"]).read_text())
    assert verdict.ok is entry["ok"]
    assert (verdict.reason.value if verdict.reason else None) == entry["reason"]
    if entry["class"]:
        assert verdict.reason in EXPECTED[entry["class"]]


def test_a_forged_signature_is_a_signature_fault_when_signatures_are_checked():
    for e in MANIFEST:
        if e["class"] == "forged_signature":
            verdict = audit_record((DIR / e["file"]).read_text(), check_signatures=True)
            assert verdict.reason is Reason.SIGNATURE
            assert Reason.NOT_IN_LOG in verdict.reasons  # and the log says so without the signatures


def test_every_fault_class_has_a_corrupted_fixture_for_every_preset():
    classes = {c for c in EXPECTED}
    for preset in PRESETS:
        have = {e["class"] for e in MANIFEST if e["preset"] == preset and e["class"]}
        missing = classes - have - ({"deck_mismatch"} if preset == "kitti" else set())
        assert not missing, (preset, missing)
        assert any(e["ok"] for e in MANIFEST if e["preset"] == preset)


def test_commission_off_by_one_cent_is_named():
    # rule D-2: commission rounds half-up to 0.01 HT; 0.01 too much is a named fault
    for e in MANIFEST:
        if e["class"] == "commission_off":
            assert e["reason"] == Reason.COMMISSION_MISMATCH.value


def test_fixtures_are_current():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "make_record_fixtures.py"), "--check"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
