"""The browser verifier's Marriage engine (web/static/verifier/games/marriage.mjs) against
the Python one (replay/marriage/), hand by hand: the same moves accepted, the first refused
move at the same index with the same kind and rule, and the same outcome as JSON.

One Node process replays every request (tests/js/marriage_replay.mjs); the Python side is
replay.replayer.replay_record in strict mode.  The hands: simulated honest hands of both
presets at every seat count they allow, dealers varied, settings overridden, stocks run out
and reshuffled (tests/js/marriage_records.py); the same hands tampered the ways
audit/sim/tamper.py forges moves; the golden and corrupted fixture records and the
conformance suite's Marriage records.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit.sim.tamper import TamperContext, tamper
from replay.records import parse_record
from replay.replayer import replay_record
from replay.rulesets import allowed_players, resolve

from .marriage_records import PRESETS, honest_records, stream
from .node import ROOT, run_lines

SCRIPT = ROOT / "tests" / "js" / "marriage_replay.mjs"
MOVE_TAMPERS = ("edited_move", "dropped_move", "reordered_moves", "deck_mismatch", "illegal_show")


def python_replay(record: dict) -> dict:
    """What tests/js/marriage_replay.mjs answers, from the Python replay."""
    result = replay_record(parse_record(record), strict=True)
    fault = result.faults[0] if result.faults else None
    return {"moves_applied": result.moves_applied,
            "fault": None if fault is None else {"kind": fault.reason.value, "index": fault.move_index,
                                                 "rule": fault.rule},
            "outcome": None if result.outcome is None else result.outcome.to_json()}


def fixture_records() -> list[tuple[str, dict]]:
    """The fixture records of Marriage (fixtures/records) and the conformance suite's."""
    out = []
    for path in sorted((ROOT / "fixtures" / "records").glob("marriage-*/*.json")):
        out.append((str(path.relative_to(ROOT)), json.loads(path.read_text(encoding="utf-8"))))
    for path in sorted((ROOT / "fixtures" / "conformance" / "records").rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:   # the suite's unparsable records: no replay to compare
            continue
        if (isinstance(data, dict) and data.get("ruleset", {}).get("game") == "marriage"
                and data.get("fairness", {}).get("server_seed")):
            out.append((str(path.relative_to(ROOT)), data))
    return out


@pytest.fixture(scope="module")
def compared():
    """Every request replayed on both sides: [(name, record, python answer, js answer)]."""
    cases: list[tuple[str, dict]] = []
    for record in honest_records():
        cases.append((record["hand_id"], record))
        if len(record["moves"]) < 2:
            continue
        for kind in MOVE_TAMPERS:   # the operator's own signature is not in play: no statements
            ctx = TamperContext(key=None, rng=stream(f"tamper:{record['hand_id']}:{kind}"))
            cases.append((f"{record['hand_id']}/{kind}", tamper(record, kind, ctx)))
    cases += fixture_records()
    answers = run_lines(SCRIPT, [{"record": r} for _, r in cases])
    assert len(answers) == len(cases)
    return [(name, rec, python_replay(rec), js) for (name, rec), js in zip(cases, answers)]


def test_every_hand_agrees(compared):
    bad = [(name, py, js) for name, _, py, js in compared if py != js]
    assert not bad, f"{len(bad)} of {len(compared)} differ; first: {json.dumps(bad[0])[:3000]}"


def test_the_hands_cover_what_they_claim(compared):
    """The comparison is worth what it holds: every preset at every seat count it allows,
    honest hands won and void, reshuffled stocks, and refusals of each kind."""
    honest = [py for name, rec, py, _ in compared if "/" not in name and rec["table"]["table_id"] == "js-marriage"]
    assert len(honest) >= 100
    seen = {(rec["ruleset"]["preset"], len(rec["table"]["seats"])) for _, rec, _, _ in compared}
    for preset in PRESETS:
        for n in allowed_players(resolve(preset)):
            assert (preset, n) in seen
    assert all(py["fault"] is None for py in honest)
    assert sum(py["outcome"]["winner"] is not None for py in honest) >= 50
    assert sum(py["outcome"]["detail"]["void_reason"] == "turn_cap" for py in honest) >= 5
    assert sum(py["outcome"]["detail"]["reshuffles"] > 0 for py in honest) >= 10
    assert sum(bool(py["outcome"]["detail"].get("finish", {}).get("dublee")) for py in honest) >= 1
    kinds = {py["fault"]["kind"] for _, _, py, _ in compared if py["fault"]}
    assert {"illegal_move", "deck_mismatch", "incomplete"} <= kinds
