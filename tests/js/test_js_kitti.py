"""The browser verifier's Kitti engine (web/static/verifier/games/kitti.mjs) agrees with
replay/kitti/ hand for hand: the same moves accepted, the first refused move at the same
index with the same kind, and the outcome equal as JSON to ``Outcome.to_json()``.

Every hand is replayed by Python's :func:`replay.replayer.replay_record` and by
tests/js/kitti_replay.mjs (one Node process for all of them): simulated honest tables of
every Kitti preset under varied settings, seat counts and dealers (the pot carried from
hand to hand, D-14), tables whose seeds were picked for K-21 redeals and K-20 four of a
kind, tampered records (audit/operator/sim/tamper.py and hand-made malformed moves), and the
Kitti records of fixtures/records/ and fixtures/conformance/.  Chosen shoes (a stand-in
for the randomness, as tests/kitti/test_kitti_engine.py does) reach what seeds cannot:
a hand void after MAX_REDEALS redeals.
"""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from audit.operator.sim.tamper import MOVE_KINDS
from replay.cards import STANDARD
from replay.errors import TipluError
from replay.kitti.engine import MAX_REDEALS
from replay.records import parse_record
from replay.replayer import replay_record
from replay.stream import Stream

from .kitti_records import (EDITS, PRESETS, TABLES, Pick, arrange, python_fixed, rank_counts, shoe_for,
                            simulated_table, tampered_records)
from .node import ROOT, node_or_skip, run_lines

SCRIPT = ROOT / "tests" / "js" / "kitti_replay.mjs"


def python_answer(record: dict) -> dict[str, Any]:
    """What replay_record says of ``record``, in the Node script's answer shape."""
    res = replay_record(parse_record(record), strict=True)
    fault = res.faults[0] if res.faults else None
    return {"moves_applied": res.moves_applied,
            "fault": None if fault is None else {"kind": fault.reason.value, "index": fault.move_index,
                                                 "rule": fault.rule},
            "outcome": None if res.outcome is None else res.outcome.to_json(),
            "settlement": None if res.settlement is None else res.settlement.to_json()}


def compare(records: list[dict]) -> tuple[list[dict], list[dict]]:
    """Both answers for every record; fails on the first disagreement, naming the hand."""
    py = [python_answer(r) for r in records]
    js = run_lines(SCRIPT, [{"record": r} for r in records])
    assert len(js) == len(records)
    for rec, p, j in zip(records, py, js):
        assert j == p, f"{rec['hand_id']}: JavaScript {json.dumps(j)[:2000]} != Python {json.dumps(p)[:2000]}"
    return py, js


# -- honest simulated tables ------------------------------------------------------------

@pytest.fixture(scope="module")
def honest() -> list[dict]:
    node_or_skip()
    records = []
    for i, (preset, players, hands, overrides) in enumerate(TABLES):
        records += simulated_table(preset, players, hands, overrides, table_id=f"t{i}")
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
    redealt = simulated_table(PRESETS[0], 5, 12, {"four_pairs_void": True}, table_id="redeal",
                     bias=Pick(lambda s: s.redeals > 0))
    redealt += simulated_table(PRESETS[0], 3, 4, {"four_pairs_void": True}, table_id="redeal2",
                      bias=Pick(lambda s: s.redeals > 1, tries=4000))
    four = simulated_table(PRESETS[0], 4, 8, {}, table_id="four", bias=Pick(lambda s: s.four))
    four += simulated_table(PRESETS[0], 2, 6, {"four_pairs_void": True}, table_id="four2",
                   bias=Pick(lambda s: s.four and s.void is False and any(
                       sum(n // 2 for n in rank_counts(h)) >= 4 for h in s.hands), tries=4000))
    py, _ = compare(redealt + four)
    assert sum(p["outcome"]["detail"]["redeals"] > 0 for p in py) >= 12
    assert any(p["outcome"]["detail"]["redeals"] > 1 for p in py)
    assert sum(p["outcome"]["detail"]["reason"] == "four_of_a_kind" for p in py) >= 8


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


# -- tampered records ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tampered(honest) -> list[tuple[str, dict]]:
    return tampered_records(honest)


def test_tampered_records_agree(tampered):
    py, _ = compare([r for _, r in tampered])
    seen: dict[str, set] = {}
    for (kind, _), p in zip(tampered, py):
        seen.setdefault(kind, set()).add(None if p["fault"] is None else p["fault"]["kind"])
    assert set(MOVE_KINDS) | set(EDITS) <= set(seen)
    faults = set().union(*seen.values())
    assert {"malformed", "illegal_move", "incomplete", None} <= faults
    assert len(tampered) >= 500


def test_tampered_records_agree_in_report_mode(tampered):
    # report mode skips a refused move and goes on: the engine's state is unchanged by it
    records = [r for _, r in tampered]
    js = run_lines(SCRIPT, [{"record": r, "strict": False} for r in records])
    several = 0
    for rec, j in zip(records, js):
        res = replay_record(parse_record(rec), strict=False)
        faults = [{"kind": f.reason.value, "index": f.move_index, "rule": f.rule} for f in res.faults]
        several += len(faults) > 1
        assert j == {"moves_applied": res.moves_applied, "faults": faults,
                     "outcome": None if res.outcome is None else res.outcome.to_json(),
                     "settlement": None if res.settlement is None else res.settlement.to_json()}, rec["hand_id"]
    assert several >= 20


def test_points_beyond_2_53_are_refused_not_miscounted(honest):
    # JSON numbers past 2**53 are not exact in JavaScript: the port says it cannot count
    # such a pot (docs/kitti.md).  Python counts it exactly, and settles a kitti carrying it
    # (its pot changes by the stakes alone, within settle's MAX_POINTS)
    rec = copy.deepcopy(next(r for r in honest if r["outcome"]["detail"]["reason"] == "kitti"))
    rec["table"]["carry"] = {"pot_before": 2**60}
    (js,) = run_lines(SCRIPT, [{"record": rec}])
    assert js["fault"] == {"kind": "malformed", "index": None, "rule": None}
    assert python_answer(rec)["outcome"]["detail"]["pot_before"] == 2**60


# -- chosen shoes -------------------------------------------------------------------------

def compare_fixed(cases: list[dict]) -> list[dict]:
    """Both answers for hands dealt from chosen shoes; fails on the first disagreement."""
    js = run_lines(SCRIPT, [{"fixed": c} for c in cases])
    py = [python_fixed(c) for c in cases]
    for c, p, j in zip(cases, py, js):
        assert j == p, f"{json.dumps(c)[:300]}: JavaScript {json.dumps(j)[:1500]} != Python {json.dumps(p)[:1500]}"
    return js


HANDS = ["KH KD KC 9H 8H 7H 4S 4C 6D",      # seat 0: trail K / pure sequence 9-8-7 / pair 4
         "AS AH AD KS QS JS 2C 3D 5H",      # seat 1: trail A / pure sequence K-Q-J / 5-3-2
         "2S 3S 5S 6S 7S 8S 9S TS 2H"]      # seat 2: folds
SEAT0 = arrange(0, "KH KD KC / 9H 8H 7H / 4S 4C 6D")
FOLD2 = {"type": "fold", "seat": 2}


def test_two_three_five_hand_computed():
    # rule K-22: with two_three_five on, 2-3-5 in three suits beats every set, so placing it
    # last is refused (rule K-6: strongest first) and placing it first wins all three rounds:
    # a salami (D-13).  Points by hand: the pot is 5 carried + 3 stakes = 8.
    node_or_skip()
    shoe = shoe_for(HANDS, dealer=2)
    off = {"settings": {}, "n_seats": 3, "dealer": 2, "pot_before": 5, "shoes": [shoe],
           "moves": [arrange(1, "AS AH AD / KS QS JS / 2C 3D 5H"), SEAT0, FOLD2]}
    on_last = {**off, "settings": {"two_three_five": True}}
    on_first = {**on_last, "moves": [arrange(1, "2C 3D 5H / AS AH AD / KS QS JS"), SEAT0, FOLD2]}
    plain, refused, salami = compare_fixed([off, on_last, on_first])
    # off: seat 1 wins rounds 1 (A-A-A > K-K-K) and 2 (K-Q-J > 9-8-7), seat 0 round 3 (pair > 5-3-2)
    assert plain["outcome"]["points"] == [1, 2, 0]
    assert plain["outcome"]["net_points"] == [-1, -1 + 8, -1]
    assert plain["outcome"]["pot_delta_points"] == -5
    assert plain["outcome"]["breakdown"][1]["classes"] == ["trail", "pure_sequence", "high_card"]
    assert refused["fault"] == {"kind": "illegal_move", "index": 0, "rule": "K-6"}
    # on: seat 1 wins all three; seat 0 (still in) pays one more stake, seat 2 (folded) does not
    assert salami["outcome"]["points"] == [0, 3, 0]
    assert salami["outcome"]["net_points"] == [-1 - 1, -1 + 8 + 1, -1]
    assert salami["outcome"]["breakdown"][1]["classes"][0] == "high_card"   # K-22: its class stays high card
    assert salami["outcome"]["detail"]["salami"] is True


def test_chosen_shoes_agree():
    # rules K-20, K-21, D-17, K-18 where seeds rarely reach: void after MAX_REDEALS redeals,
    # two holders of four of a kind, four of a kind beside four pairs, a redeal that deals
    # four of a kind, tied rounds, and moves after a decided deal
    node_or_skip()
    pairs = ["2S 2H 3S 3H 4S 4H 5S 5H 6S", "7S 8S 9S TS JS QS KS AS 6H", "7H 8H 9H TH JH QH KH AH 6D"]
    quads = ["2S 2H 2D 2C 4S 4H 5S 5H 6S", "AS AH AD AC JS QS KS 3S 6H", "7H 8H 9H TH JH QH KH 3H 6D"]
    quads_and_pairs = ["2S 2H 3S 3H 4S 4H 5S 5H 6S", "AS AH AD AC JS QS KS 7S 6H", "7H 8H 9H TH JH QH KH 3D 6D"]
    ties = ["9S 9H 4S KS QS JS 2C 3D 5H", "9D 9C 4D KH QH JH 2D 3H 5C", "2S 3S 5S 6S 7S 8S TH TS 2H"]
    void = {"settings": {"four_pairs_void": True}, "n_seats": 3, "dealer": 0, "pot_before": 2,
            "shoes": [shoe_for(pairs, 0)] * (MAX_REDEALS + 1), "moves": []}
    cases = [
        void,
        {**void, "moves": [FOLD2]},
        {**void, "shoes": [shoe_for(pairs, 0)] * MAX_REDEALS + [shoe_for(quads, 0)]},
        {**void, "shoes": [shoe_for(pairs, 0)] * 3 + [shoe_for(ties, 0)],
         "moves": [arrange(2, "8S 7S 6S / 5S 3S 2S / TH TS 2H"), arrange(1, "KH QH JH / 9D 9C 4D / 2D 3H 5C"),
                   arrange(0, "KS QS JS / 9S 9H 4S / 2C 3D 5H")]},
        {"settings": {}, "n_seats": 3, "dealer": 1, "pot_before": 0, "shoes": [shoe_for(quads, 1)], "moves": []},
        {"settings": {"four_pairs_void": True}, "n_seats": 3, "dealer": 1, "pot_before": 4,
         "shoes": [shoe_for(quads_and_pairs, 1)], "moves": [{"type": "fold", "seat": 0}]},
        {"settings": {"win_rule": "consecutive"}, "n_seats": 3, "dealer": 0, "pot_before": 0,
         "shoes": [shoe_for(ties, 0)],
         "moves": [arrange(2, "8S 7S 6S / 5S 3S 2S / TH TS 2H"), arrange(1, "KH QH JH / 9D 9C 4D / 2D 3H 5C"),
                   arrange(0, "KS QS JS / 9S 9H 4S / 2C 3D 5H")]},
        {"settings": {}, "n_seats": 3, "dealer": 0, "pot_before": 0, "shoes": [shoe_for(ties, 0)],
         "moves": [{"type": "fold", "seat": 2}, {"type": "fold", "seat": 1}, {"type": "fold", "seat": 0}]},
        {"settings": {}, "n_seats": 6, "dealer": 0, "pot_before": 0, "shoes": [shoe_for(ties, 0)], "moves": []},
    ]
    js = compare_fixed(cases)
    assert js[0]["outcome"]["detail"]["reason"] == "void" and js[0]["outcome"]["detail"]["redeals"] == MAX_REDEALS
    assert js[0]["outcome"]["net_points"] == [-(MAX_REDEALS + 1)] * 3        # a stake per deal dealt (D-14)
    assert js[1]["fault"]["kind"] == "illegal_move" and js[1]["fault"]["index"] == 0   # K-21: the deal is over
    assert js[2]["outcome"]["detail"]["four_of_a_kind"] == {"seat": 1, "rank": 14}
    assert js[4]["outcome"]["detail"]["four_of_a_kind"] == {"seat": 1, "rank": 14}   # aces over twos
    assert js[5]["fault"]["kind"] == "illegal_move" and js[5]["fault"]["index"] == 0   # K-20 before K-21 (D-17)
    assert js[7]["fault"] == {"kind": "illegal_move", "index": 2, "rule": None}      # D-15: over at the second fold
    assert js[8]["fault"] == {"kind": "malformed", "index": None, "rule": None}                     # D-12: 2-5 players
    assert js[6]["outcome"]["detail"]["rounds"][0]["tied"] == [0, 1]                 # K-18
    assert js[6]["outcome"]["winner"] == 2 and js[6]["outcome"]["points"] == [0, 0, 2]  # D-13: rounds 2 and 3
    assert js[3]["outcome"]["detail"]["redeals"] == 3 and js[3]["outcome"]["net_points"] == [-4, -4, 2 + 8]


# -- ranking and the default arrangement, exhaustively --------------------------------------

SETTING_PAIRS = [{"sequence_order": order, "two_three_five": t235}
                 for order in ("akq-high", "a23-high") for t235 in (False, True)]


def test_every_set_ranks_alike():
    # rules K-9 ... K-16, K-22: all 22,100 sets of the pack, under each sequence_order and two_three_five
    node_or_skip()
    from itertools import combinations

    from replay.kitti.ranking import ranker

    answers = run_lines(SCRIPT, [{"table": s} for s in SETTING_PAIRS])
    for settings, js in zip(SETTING_PAIRS, answers):
        rk = ranker(settings["sequence_order"], settings["two_three_five"])
        triples = list(combinations(range(52), 3))
        assert js["keys"] == [rk.key(a, b, c) for a, b, c in triples]
        assert js["labels"] == [rk.label_of_key(rk.key(a, b, c)) for a, b, c in triples]


def test_default_arrangements_alike():
    # the arrangement an ``auto`` move must be (docs/kitti.md), on 600 hands per setting pair
    node_or_skip()
    from replay.kitti.ranking import ranker
    from replay.kitti.strategy import default_arrangement

    rng = Stream(b"\x09" * 32, b"\x0a" * 32, "tests/js/kitti-defaults")
    requests, expected = [], []
    for settings in SETTING_PAIRS:
        rk = ranker(settings["sequence_order"], settings["two_three_five"])
        hands = [rng.shuffle(list(STANDARD))[:9] for _ in range(600)]
        requests.append({"defaults": {"settings": settings, "hands": [[str(c) for c in h] for h in hands]}})
        expected.append([sorted([str(c) for c in sorted(s)] for s in default_arrangement(h, rk)) for h in hands])
    answers = run_lines(SCRIPT, requests)
    assert [js["defaults"] for js in answers] == expected
