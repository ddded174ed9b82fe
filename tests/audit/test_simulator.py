"""The operator simulator: every preset plays real games that audit clean; forgeries are caught."""
from __future__ import annotations

import statistics

import pytest

from audit.auditor.verdict.verify import audit_record
from replay.rulesets import PRESETS

@pytest.mark.parametrize("preset", PRESETS)
def test_simulated_hands_audit_clean_and_every_forgery_is_caught(preset, simulate):
    ledger, run, records = simulate(preset, 4, 10, seed=f"sim-{preset}", tamper_rate=0.3)
    assert run.tampered, "the dishonest operator forged nothing: raise the rate"
    for record, kind in records:
        verdict = audit_record(record)
        if kind is None:
            assert verdict.ok, (record["hand_id"], [str(f) for f in verdict.faults])
        else:
            assert not verdict.ok, (record["hand_id"], kind)
    assert set(run.tampered) == {r["hand_id"] for r, k in records if k}


@pytest.mark.parametrize("preset", ["marriage/nepal", "marriage/classic"])
def test_marriage_rounds_mostly_finish(preset, simulate):
    # rules D-7, D-10: a round ends with a finish; a void round is the exception
    _, run, records = simulate(preset, 4, 12, seed=f"finish-{preset}")
    assert run.finished / run.hands >= 0.9
    assert statistics.median(run.turns) > 0


def test_rummy_deals_mostly_end_with_a_valid_declaration(simulate):
    # rules R-7, D-21: the deal ends when a declaration is valid
    _, run, records = simulate("rummy13", 4, 12, seed="declare")
    declared = sum(1 for r, _ in records
                   if r["outcome"]["winner"] is not None
                   and r["outcome"]["breakdown"][r["outcome"]["winner"]].get("left") == "declared")
    assert declared / len(records) > 0.5


def test_timeouts_happen_and_replay(simulate):
    # rules: bots sometimes time out, so auto-play occurs in simulated games
    _, run, records = simulate("rummy13", 4, 12, seed="timeouts")
    autos = sum(1 for r, _ in records for m in r["moves"] if m.get("auto"))
    assert autos > 0
