"""The browser verifier's Marriage engine (web/static/verifier/games/marriage.mjs) against
the Python one (replay/marriage/), hand by hand: the same moves accepted, the first refused
move at the same index with the same kind and rule, and the same outcome as JSON.

One Node process replays every request (tests/js/marriage_replay.mjs: the browser verifier's
record.mjs and replay.mjs driving the engine); the Python side is replay.replayer.replay_record
in strict mode.  The settlement in decimals is compared too.  The hands: simulated honest hands of both
presets at every seat count they allow, dealers varied, settings overridden, stocks run out
and reshuffled (tests/js/marriage_records.py); the same hands tampered the ways
audit/operator/sim/tamper.py forges moves; the golden and corrupted fixture records and the
conformance suite's Marriage records.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from audit.operator.sim.tamper import TamperContext, tamper
from replay.records import parse_record
from replay.replayer import replay_record
from replay.rulesets import allowed_players, resolve

from .marriage_records import (PRESETS, honest_records, huge_points_records, maal_requests, stream,
                               void_stock_records)
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
            "outcome": None if result.outcome is None else result.outcome.to_json(),
            "settlement": None if result.settlement is None else result.settlement.to_json()}


def malformed_variants(record: dict):
    """The record with one move changed into JSON the parser must judge (most refused as
    malformed, a few -- "10H" for "TH", ``"auto": true`` -- accepted), and one move too many."""
    moves = record["moves"]
    i = len(moves) // 2
    m = moves[i]

    def variant(name, new):
        r = copy.deepcopy(record)
        if new is None:
            del r["moves"][i]
        else:
            r["moves"][i] = new
        return name, r

    yield variant("extra-field", {**m, "extra": 1})
    yield variant("seat-negative", {**m, "seat": -1})
    yield variant("seat-bool", {**m, "seat": True})
    yield variant("seat-text", {**m, "seat": str(m["seat"])})
    yield variant("seat-missing", {k: v for k, v in m.items() if k != "seat"})
    yield variant("auto-text", {**m, "auto": "yes"})
    yield variant("auto-true", {**m, "auto": True})
    yield variant("type-unknown", {**m, "type": "pass"})
    yield variant("type-missing", {k: v for k, v in m.items() if k != "type"})
    if m["type"] == "discard" or (m["type"] == "draw" and "card" in m):
        yield variant("card-bad", {**m, "card": "1H"})
        yield variant("card-number", {**m, "card": 7})
        yield variant("card-ten", {**m, "card": m["card"].replace("T", "10")})
    if m["type"] == "draw":
        yield variant("source-bad", {**m, "source": "deck"})
        yield variant("source-missing", {k: v for k, v in m.items() if k != "source"})
        yield variant("card-null", {**m, "card": None})
    if m["type"] == "discard":
        yield variant("card-null", {**m, "card": None})
    yield variant("show-sets-text", {"type": "show", "seat": m["seat"], "sets": "7H 8H 9H"})
    yield variant("show-card-number", {"type": "show", "seat": m["seat"], "sets": [["7H", 8, "9H"]]})
    yield variant("finish-no-discard", {"type": "finish", "seat": m["seat"], "groups": []})
    r = copy.deepcopy(record)
    r["moves"].append(dict(moves[-1]))
    yield "one-too-many", r


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
    for record in [*honest_records(), *void_stock_records(), *huge_points_records()]:
        cases.append((record["hand_id"], record))
        if len(cases) % 9 == 1:
            cases += [(f"{record['hand_id']}/{name}", r) for name, r in malformed_variants(record)]
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
    ours = [(name, py) for name, rec, py, _ in compared if "/" not in name and rec["table"]["table_id"] == "js-marriage"]
    honest = [py for name, py in ours if not name.startswith("huge-")]
    assert all(py["fault"]["kind"] == "malformed" for name, py in ours if name.startswith("huge-"))
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
    assert sum(py["outcome"]["detail"]["void_reason"] == "stock" for _, _, py, _ in compared
               if py["outcome"]) >= 2
    kinds = {py["fault"]["kind"] for _, _, py, _ in compared if py["fault"]}
    assert {"illegal_move", "deck_mismatch", "incomplete", "malformed"} <= kinds


def test_maal_agrees():
    """countMaal against count_maal on holdings rich in maal (items, their order, points)."""
    from replay.cards import parse_card, parse_cards
    from replay.errors import MalformedError
    from replay.marriage.maal import count_maal

    requests = list(maal_requests())
    answers = run_lines(SCRIPT, [{"maal": r} for r in requests])
    for r, js in zip(requests, answers):
        try:
            py = count_maal(hand=parse_cards(r["hand"]), table=parse_cards(r["table"]),
                            tunnelas_at_deal=[parse_cards(t) for t in r["tunnelas_at_deal"]],
                            tiplu=parse_card(r["tiplu"]) if r["tiplu"] else None, seen=r["seen"],
                            ruleset=resolve(r["preset"])).to_json()
        except MalformedError:
            py = {"kind": "malformed"}
            js = {"kind": js.get("kind")}
        assert py == js, r
    assert sum(bool(js.get("items")) for js in answers) > len(answers) // 2


def test_maal_by_hand():
    """Counted by hand: under tiplu 7H a seen nepal player holding 6H 7H 8H, 7D, 7C, JK has
    a marriage (10, MN-27) rather than 3 + 2 + 2, an alter (5, MN-25), a man (0, MN-26: no
    item) and a putali (5, MN-28): 20.  Unseen, only the putali scores (MN-34): 5."""
    request = {"preset": "marriage/nepal", "hand": ["6H", "7H", "8H", "7D", "7C", "JK", "2S"], "table": [],
               "tunnelas_at_deal": [], "tiplu": "7H"}
    seen, unseen = run_lines(SCRIPT, [{"maal": {**request, "seen": True}}, {"maal": {**request, "seen": False}}])
    assert seen == {"maal": 20, "items": [
        {"item": "marriage", "cards": ["7H", "8H", "6H"], "points": 10},
        {"item": "alter", "cards": ["7D"], "points": 5},
        {"item": "putali", "cards": ["JK"], "points": 5}]}
    assert unseen == {"maal": 5, "items": [{"item": "putali", "cards": ["JK"], "points": 5}]}


def test_payments_by_hand():
    """MC-31 by hand: four seats, maal 10, 0, 5, 3 (T = 18), seat 0 finished on dublees,
    seat 1 has not seen.  Seat i pays the winner T + w - n*S: seat 1 18 + (10 + 5) - 0 = 33,
    seat 2 18 + (3 + 5) - 20 = 6, seat 3 18 + 8 - 12 = 14; the winner gains 53.  The basic
    method (MC-30: pairwise differences, then w) comes to the same.  Void (D-10): n*S - T."""
    won, void = run_lines(SCRIPT, [
        {"nets": {"preset": "marriage/classic", "scores": [10, 0, 5, 3], "winner": 0,
                  "seen": [True, False, True, True], "dublee_finish": True}},
        {"nets": {"preset": "marriage/classic", "scores": [10, 0, 5, 3], "winner": None,
                  "seen": [True, False, True, True], "dublee_finish": False}}])
    assert won == {"nets": [53, -33, -6, -14], "pairwise": [53, -33, -6, -14]}
    assert void == {"nets": [22, -18, 2, -6], "pairwise": [22, -18, 2, -6]}
