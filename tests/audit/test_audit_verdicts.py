"""Audit verdicts on clean and deliberately tampered records (every fault class)."""
from __future__ import annotations

import copy
import json

import pytest

from audit.operator.sim.tamper import EXPECTED, TAMPERS, TamperContext, tamper
from audit.auditor.verdict.verify import audit_record
from replay.faults import Reason
from replay.stream import Stream


def _ctx(ledger):
    return TamperContext(ledger.signing_key("demo-operator"), Stream(bytes(32), bytes(32), "test"))


def test_clean_records_audit_clean(kitti_archive):
    # rules: the commitment, the seeds and the replay all check out
    ledger, run, records = kitti_archive
    for rec, kind in records:
        assert kind is None
        verdict = audit_record(rec)
        assert verdict.ok, verdict.faults
        assert verdict.reason is None and verdict.first_bad_move is None


@pytest.mark.parametrize("kind", sorted(TAMPERS))
def test_every_tamper_class_is_caught_with_its_reason(kitti_archive, kind):
    ledger, run, records = kitti_archive
    bad = tamper(records[1][0], kind, _ctx(ledger))
    verdict = audit_record(bad)
    assert not verdict.ok
    assert verdict.reason in EXPECTED[kind], [str(f) for f in verdict.faults]


def test_strict_mode_stops_at_the_first_fault(kitti_archive):
    ledger, run, records = kitti_archive
    bad = tamper(records[0][0], "swapped_seed", _ctx(ledger))
    assert len(audit_record(bad).faults) > 1
    strict = audit_record(bad, strict=True)
    assert len(strict.faults) == 1 and strict.reason is Reason.SEAT_SEED_MISMATCH


def test_first_bad_move_is_reported(kitti_archive):
    ledger, run, records = kitti_archive
    bad = tamper(records[0][0], "reordered_moves", _ctx(ledger))
    verdict = audit_record(bad)
    assert verdict.first_bad_move is not None and 0 <= verdict.first_bad_move < len(bad["moves"])


def test_unrevealed_record_is_not_audited_as_clean(kitti_archive):
    ledger, run, records = kitti_archive
    rec = copy.deepcopy(records[0][0])
    rec["fairness"]["server_seed"] = None
    kept = [i for i, s in enumerate(rec["fairness"]["statements"]) if s["statement"]["kind"] != "reveal"]
    for name in ("statements", "log_proofs"):  # a statement and its log proof go together
        rec["fairness"][name] = [rec["fairness"][name][i] for i in kept]
    verdict = audit_record(rec)
    assert verdict.reason is Reason.NOT_REVEALED


def test_a_different_operator_key_fails(kitti_archive):
    from audit.signing import SigningKey

    ledger, run, records = kitti_archive
    verdict = audit_record(records[0][0], public_key=SigningKey.generate().public_hex)
    assert verdict.reason is Reason.SIGNATURE


@pytest.mark.parametrize("text, where", [
    ("{", "line 1"),
    ('{"format": "tiplu.hand/1"}', "$"),
    ("[1, 2]", "$"),
])
def test_malformed_input_gets_a_located_error(text, where):
    verdict = audit_record(text)
    assert verdict.reason is Reason.MALFORMED
    assert where in verdict.faults[0].message


def test_schema_error_names_its_location(kitti_archive):
    rec = copy.deepcopy(kitti_archive[2][0][0])
    rec["table"]["seats"][2]["player"] = 7
    verdict = audit_record(json.dumps(rec))
    assert verdict.reason is Reason.MALFORMED
    assert "$.table.seats[2].player" in verdict.faults[0].message


def test_a_hand_without_moves_is_only_forged_in_ways_that_apply(kitti_archive):
    # rule K-20: four of a kind settles a Kitti deal at once, with no move at all
    from audit.operator.sim.tamper import MOVE_KINDS, applicable

    rec = copy.deepcopy(kitti_archive[2][0][0])
    rec["moves"] = []
    kinds = applicable(rec)
    assert kinds and not set(kinds) & set(MOVE_KINDS)
    assert "reordered_moves" in applicable(kitti_archive[2][0][0])
