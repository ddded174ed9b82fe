"""The C2SP tlog-policy parser and judge (audit/tlog/policy.py) against fixtures/policy/cases.json,
the cases the browser's parser (web/static/verifier/policy.mjs) is tested against too."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from audit.tlog.policy import ERROR_CODES, PolicyError, load_policy, parse_policy, policy_of_witnesses

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = json.loads((ROOT / "fixtures" / "policy" / "cases.json").read_text(encoding="utf-8"))


def test_the_fixtures_are_current():
    out = subprocess.run([sys.executable, "tools/make_policy_fixtures.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("case", CASES["valid"], ids=lambda c: c["name"])
def test_a_valid_policy_parses_and_judges_the_checkpoint(case):
    p = parse_policy(case["text"])
    assert p.quorum == case["quorum"] and p.describe() == case["requires"]
    assert [w.name for w in p.witnesses] == case["witnesses"]
    r = p.evaluate(CASES["checkpoint"])
    assert r.quorum_met is case["result"]["quorum_met"]
    assert [c.to_json() for c in r.counted] == case["result"]["counted"]
    assert (r.log.origin if r.log else None) == case["result"]["log"]


def test_the_spec_example_needs_two_x_and_one_y():
    # hand-checked: X1, X2 (2 of X) and Y3 (any of Y) cosigned; Z is not listed; B's line is bad
    text = next(c["text"] for c in CASES["valid"] if c["name"] == "spec-example")
    p = parse_policy(text)
    r = p.evaluate(CASES["checkpoint"])
    assert r.quorum_met and [c.name for c in r.counted] == ["X1", "X2", "Y3"]
    # drop X2's line: one of X is not enough
    cp = "".join(line for line in CASES["checkpoint"].splitlines(keepends=True) if "witness.example/X2 " not in line)
    r = p.evaluate(cp)
    assert not r.quorum_met and [c.name for c in r.counted] == ["X1", "Y3"]


def test_a_bad_cosignature_never_counts():
    text = next(c["text"] for c in CASES["valid"] if c["name"] == "bad-cosignature")
    r = parse_policy(text).evaluate(CASES["checkpoint"])
    assert not r.quorum_met and r.missing and r.missing[0].startswith("B: invalid")


def test_another_log_s_checkpoint_is_not_the_policy_s():
    text = next(c["text"] for c in CASES["valid"] if c["name"] == "another-log")
    r = parse_policy(text).evaluate(CASES["checkpoint"])
    assert r.log is None and "signed by no log of the policy" in r.log_problem


@pytest.mark.parametrize("case", CASES["invalid"], ids=lambda c: c["name"])
def test_an_invalid_policy_is_a_typed_error_naming_its_line(case):
    with pytest.raises(PolicyError, match=r"^policy( line \d+)?: ") as err:
        parse_policy(case["text"])
    assert err.value.code == case["code"] and err.value.code in ERROR_CODES
    assert err.value.line == case["line"]
    assert str(err.value) == case["message"]


def test_bytes_that_are_not_utf8_are_refused():
    with pytest.raises(PolicyError, match=r"^policy: the policy is not UTF-8 text \(byte 8\)$") as err:
        parse_policy(b"witness \xff\xfe x\nquorum none\n")
    assert err.value.code == "not_utf8"


def test_the_identity_is_the_sha256_of_the_exact_bytes(tmp_path):
    case = CASES["valid"][0]
    f = tmp_path / "auditor.policy"
    f.write_bytes(case["text"].encode())
    p = load_policy(f)
    assert p.sha256 == case["sha256"] and p.name == "auditor.policy"
    assert p.label == f"auditor.policy (sha256:{case['sha256'][:16]})"
    with pytest.raises(PolicyError, match=r"^policy: cannot read .*missing\.policy: No such file or directory$") as err:
        load_policy(tmp_path / "missing.policy")
    assert err.value.code == "unreadable"


def test_witness_flags_are_the_policy_they_mean():
    w = CASES["witness_vkeys"]
    p = policy_of_witnesses([w["X1"], w["X3"]], 1)
    assert p.describe() == "any of (witness.example/X1, witness.example/X3)"
    assert p.evaluate(CASES["checkpoint"]).quorum_met
    assert not policy_of_witnesses([w["X1"], w["X3"]]).evaluate(CASES["checkpoint"]).quorum_met
    assert not policy_of_witnesses([]).requires_witnesses
    with pytest.raises(PolicyError, match=r"^policy: a quorum of 2 needs at least 2 witness keys \(got 1\)$"):
        policy_of_witnesses([w["X1"]], 2)
