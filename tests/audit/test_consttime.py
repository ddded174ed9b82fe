"""Constant-time text comparison: any text is a value, never an exception.

``hmac.compare_digest`` raises ``TypeError`` on a non-ASCII ``str``; a record carrying one
where a hex digest belongs crashed the statement check (found by the security fuzz test)."""
import copy
import hmac
import json
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from audit.consttime import same_text
from audit.auditor.verdict.verify import audit_record

ROOT = Path(__file__).resolve().parents[2]


@given(st.text(), st.text())
def test_same_text_is_equality_and_never_raises(a, b):
    assert same_text(a, b) is (a == b)
    assert same_text(a, a)


def test_compare_digest_alone_raises_on_non_ascii_text():
    with pytest.raises(TypeError):
        hmac.compare_digest("é", "e")


def _a_record():
    return json.loads((ROOT / "fixtures" / "records" / "kitti" / "golden-1.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("text", ["\u00e9" * 64, "\ud800" + "0" * 63])
def test_a_non_ascii_digest_in_a_statement_is_a_fault_not_a_crash(text):
    record = copy.deepcopy(_a_record())
    statement = record["fairness"]["statements"][1]["statement"]
    assert statement["kind"] == "commitment"
    statement["ruleset_hash"] = text
    verdict = audit_record(record).to_json()
    reasons = {f["reason"] for f in verdict["faults"]}
    assert "statement_mismatch" in reasons and "internal_error" not in reasons, reasons

