"""The browser verifier's Kitti engine (web/static/verifier/games/kitti.mjs) agrees with
replay/kitti/ hand for hand: the same moves accepted, the first refused move at the same
index with the same kind, and the outcome equal as JSON to ``Outcome.to_json()``.

Every hand is replayed by Python's :func:`replay.replayer.replay_record` and by
tests/js/kitti_replay.mjs (one Node process for all of them): simulated honest tables of
every Kitti preset under varied settings, seat counts and dealers (the pot carried from
hand to hand, D-14), tables whose seeds were picked for K-21 redeals and K-20 four of a
kind, tampered records (audit/sim/tamper.py and hand-made malformed moves), and the
Kitti records of fixtures/records/ and fixtures/conformance/.  Chosen shoes (a stand-in
for the randomness, as tests/kitti/test_kitti_engine.py does) reach what seeds cannot:
a hand void after MAX_REDEALS redeals.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from audit.ledger import Ledger
from audit.sim.tables import simulate_table
from audit.sim.tamper import MOVE_KINDS, TAMPERS, TamperContext
from replay.cards import STANDARD, parse_cards
from replay.deal import deal as deal_shoe
from replay.errors import TipluError
from replay.fairness import hand_randomness
from replay.faults import Reason
from replay.kitti.engine import MAX_REDEALS, KittiEngine
from replay.records import parse_record
from replay.replayer import replay_record
from replay.rulesets import resolve
from replay.stream import Stream

from .node import ROOT, node_or_skip, run_lines

SCRIPT = ROOT / "tests" / "js" / "kitti_replay.mjs"
PRESETS = sorted(json.loads(p.read_text())["preset"] for p in (ROOT / "replay" / "kitti" / "presets").glob("*.json")
                 if "preset" in json.loads(p.read_text()))

#: (preset, players, hands, settings overrides): every setting the engine reads is varied
TABLES = [(preset, players, hands, overrides) for preset in PRESETS for players, hands, overrides in [
    (2, 30, {}),
    (3, 30, {}),
    (4, 30, {}),
    (5, 30, {}),
    (3, 25, {"sequence_order": "a23-high", "two_three_five": True}),
    (5, 25, {"two_three_five": True, "stake": 3}),
    (4, 25, {"win_rule": "consecutive", "salami_stakes": 0}),
    (2, 25, {"win_rule": "consecutive", "salami_stakes": 3, "sequence_order": "a23-high"}),
    (4, 25, {"four_pairs_void": True}),
]]


class Pick:
    """The simulated operator picks each hand's seeds (audit/sim/bias.py's ``choose``) until
    the deal has what ``wanted(state)`` asks of the Python engine's start state."""

    def __init__(self, wanted, tries: int = 400) -> None:
        self.wanted, self.tries = wanted, tries

    def choose(self, ruleset, hand_id, dealer, draw):
        engine = KittiEngine(ruleset)
        for attempt in range(self.tries):
            server, seeds = draw(attempt)
            if self.wanted(engine.start(hand_randomness(server, hand_id, ruleset, seeds), dealer=dealer)):
                break
        return server, seeds


def _table(preset, players, hands, overrides, *, seed="js-kitti", table_id="t", bias=None, tamper_rate=0.0):
    ledger = Ledger(":memory:")
    ledger.new_operator("demo-operator")
    out: list[dict] = []
    simulate_table(ledger, preset=preset, players=players, hands=hands, seed=seed, table_id=table_id,
                   overrides=overrides or None, bias=bias, tamper_rate=tamper_rate,
                   on_record=lambda r, k: out.append(r))
    return out


def python_answer(record: dict) -> dict[str, Any]:
    """What replay_record says of ``record``, in the Node script's answer shape."""
    res = replay_record(parse_record(record), strict=True)
    fault = res.faults[0] if res.faults else None
    return {"moves_applied": res.moves_applied,
            "fault": None if fault is None else {"kind": fault.reason.value, "index": fault.move_index},
            "outcome": None if res.outcome is None else res.outcome.to_json()}


def _comparable(answer: dict) -> dict:
    fault = answer["fault"]
    return {**answer, "fault": None if fault is None else {"kind": fault["kind"], "index": fault["index"]}}


def compare(records: list[dict]) -> tuple[list[dict], list[dict]]:
    """Both answers for every record; fails on the first disagreement, naming the hand."""
    py = [python_answer(r) for r in records]
    js = run_lines(SCRIPT, [{"record": r} for r in records])
    assert len(js) == len(records)
    for rec, p, j in zip(records, py, js):
        assert _comparable(j) == p, f"{rec['hand_id']}: JavaScript {json.dumps(j)[:2000]} != Python {json.dumps(p)[:2000]}"
    return py, js


# -- honest simulated tables ------------------------------------------------------------

@pytest.fixture(scope="module")
def honest() -> list[dict]:
    node_or_skip()
    records = []
    for i, (preset, players, hands, overrides) in enumerate(TABLES):
        records += _table(preset, players, hands, overrides, table_id=f"t{i}")
    return records


def test_honest_tables_agree(honest):
    py, _ = compare(honest)
    assert len(honest) == sum(t[2] for t in TABLES) >= 240
    assert all(p["fault"] is None for p in py)
    reasons = {p["outcome"]["detail"]["reason"] for p in py}
    assert {"rounds", "kitti"} <= reasons
    assert any(p["outcome"]["detail"]["pot_before"] > 0 for p in py)          # D-14 carry
    assert any(p["outcome"]["detail"]["salami"] for p in py)                   # D-13
    assert any(b["auto"] for p in py for b in p["outcome"]["breakdown"])       # timeouts
    assert {len(r["table"]["seats"]) for r in honest} == {2, 3, 4, 5}
    assert len({(len(r["table"]["seats"]), r["table"]["dealer"]) for r in honest}) == 14


def test_redeals_and_four_of_a_kind_agree():
    # rule K-21: redeals from randomness.redeal(k); rule K-20: four of a kind ends the deal at once
    node_or_skip()
    redealt = _table(PRESETS[0], 5, 12, {"four_pairs_void": True}, table_id="redeal",
                     bias=Pick(lambda s: s.redeals > 0))
    redealt += _table(PRESETS[0], 3, 4, {"four_pairs_void": True}, table_id="redeal2",
                      bias=Pick(lambda s: s.redeals > 1, tries=4000))
    four = _table(PRESETS[0], 4, 8, {}, table_id="four", bias=Pick(lambda s: s.four))
    four += _table(PRESETS[0], 2, 6, {"four_pairs_void": True}, table_id="four2",
                   bias=Pick(lambda s: s.four and s.void is False and any(
                       sum(n // 2 for n in _rank_counts(h)) >= 4 for h in s.hands), tries=4000))
    py, _ = compare(redealt + four)
    assert sum(p["outcome"]["detail"]["redeals"] > 0 for p in py) >= 12
    assert any(p["outcome"]["detail"]["redeals"] > 1 for p in py)
    assert sum(p["outcome"]["detail"]["reason"] == "four_of_a_kind" for p in py) >= 8


def _rank_counts(hand):
    counts: dict[int, int] = {}
    for c in hand:
        counts[c.code % 13] = counts.get(c.code % 13, 0) + 1
    return counts.values()


# -- fixtures ------------------------------------------------------------------------------

def _fixture_records() -> list[dict]:
    out = []
    paths = sorted((ROOT / "fixtures" / "records").rglob("*.json")) + sorted((ROOT / "fixtures" / "conformance").rglob("*.json"))
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if not isinstance(data, dict) or not isinstance(data.get("ruleset"), dict):
            continue
        if data["ruleset"].get("game") != "kitti" or not data.get("fairness", {}).get("server_seed"):
            continue
        try:
            parse_record(data)
        except TipluError:
            continue
        out.append(data)
    return out


def test_fixture_records_agree():
    node_or_skip()
    records = _fixture_records()
    assert len(records) >= 15
    compare(records)
