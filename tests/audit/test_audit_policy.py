"""One AuditPolicy (audit/auditor/verdict/audit_policy.py): how an audit judges, as one frozen
value that audit_items -> audit_one -> audit_record pass on whole; the state check takes the
parsed record; the state is written by the StateCheck alone (docs/architecture.md)."""
from __future__ import annotations

import dataclasses
import json
import pathlib

import pytest

from audit.auditor.run.auditstate import StateCheck
from audit.auditor.run.runner import audit_items, audit_one
from audit.auditor.sources.item import Item
from audit.auditor.verdict.audit_policy import AuditPolicy
from audit.auditor.verdict.verify import audit_record, state_faults
from audit.auditor.evidence.logcheck import verified_checkpoint
from audit.tlog.proof import parse_tlog_proof
from replay.faults import Reason
from replay.records import parse_record

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "fixtures" / "records" / "kitti" / "golden-0.json").read_text(encoding="utf-8"))
KEY = GOLDEN["table"]["public_key"]


def test_the_policy_is_one_frozen_value():
    terms = AuditPolicy.of(public_key=KEY, strict=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        terms.strict = False  # type: ignore[misc]
    assert terms.key == KEY and terms.origin is None


def test_the_policy_or_its_options_never_both():
    with pytest.raises(TypeError, match="not both"):
        audit_record(GOLDEN, AuditPolicy(), strict=True)
    with pytest.raises(TypeError, match="witnesses= or policy="):
        AuditPolicy.of(witnesses=object(), policy=object())


def test_the_options_and_the_policy_give_one_verdict():
    by_options = audit_one(GOLDEN, public_key=KEY, check_signatures=True)
    by_policy = audit_one(GOLDEN, AuditPolicy.of(public_key=KEY, check_signatures=True))
    assert by_options.to_json() == by_policy.to_json() and by_policy.ok


def _stored_elsewhere() -> StateCheck:
    """A state that accepted another root for the golden record's tree size: a fork."""
    text = parse_tlog_proof(GOLDEN["fairness"]["log_proofs"][0]).checkpoint_text
    cp = verified_checkpoint(text, KEY)
    return StateCheck(dataclasses.replace(cp, root=bytes(32)))


def test_the_state_check_reads_the_parsed_record():
    record = parse_record(GOLDEN)
    faults = state_faults(record, _stored_elsewhere(), KEY, None)
    assert [f.reason for f in faults] == [Reason.LOG_INCONSISTENT]
    assert state_faults(record, StateCheck(None), KEY, None) == []  # nothing stored: consistent


def test_a_contradicting_record_contradicts_the_state_through_the_policy():
    state = _stored_elsewhere()
    report = audit_items([Item("golden", data=GOLDEN)], AuditPolicy.of(public_key=KEY, state=state))
    assert [f["reason"] for f in report.to_json()["failures"]] == ["log_inconsistent"]
    assert state.contradicted  # written by the StateCheck itself (check, note)


def test_a_clean_verdict_leaves_the_state_as_it_was():
    state = StateCheck(None)
    assert audit_one(GOLDEN, AuditPolicy.of(public_key=KEY, state=state)).ok
    assert not state.contradicted and state.best is not None


def test_a_bare_pinned_key_in_upper_case_is_the_same_key():
    # hex is case-free: --public-key takes either case (TrustAnchor lowers it); the library's
    # bare key did not, and every statement then failed its signature under check_signatures
    lower = audit_record(GOLDEN, public_key=KEY.lower(), check_signatures=True)
    upper = audit_record(GOLDEN, public_key=KEY.upper(), check_signatures=True)
    assert lower.ok and upper.ok, [f.reason for f in upper.faults]
    assert AuditPolicy.of(public_key=KEY.upper()).key == KEY.lower()
