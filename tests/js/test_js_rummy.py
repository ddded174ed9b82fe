"""The browser verifier's Rummy engine (web/static/verifier/games/rummy13.mjs) against the
Python one (replay/rummy/), hand by hand (issue #28, docs/browser-verifier.md).

Every hand is replayed twice -- by :func:`replay.replayer.replay_record` and by
tests/js/rummy13_replay.mjs under Node (one process for all of them) -- and the two must
agree exactly: the moves applied, the first fault's kind, move index and rule, the outcome
as JSON (points, net points, winner, the breakdown with the solver's groups and counted
cards, the detail) and the settlement in decimal strings.  The Node side is the browser
verifier's own driver (replay.mjs's replayRecord, strict) over record.mjs's parsed record.
The hands (made by tests/js/rummy_records.py):

* honest hands simulated by the bots (audit/operator/sim) for every rummy13 preset, at every seat
  count the preset allows and at others an override allows, dealers going round, under
  overridden scores, ``joker_pickup`` off, ``max_missed_turns`` 1, 10 and 7 cards a hand and
  a one-deck shoe with four jokers;
* the same deals played on by a stalling strategy that runs the closed pile out, so the
  open pile is reshuffled into a new one (D-20, D-3: the stream "reshuffle:k"), before the
  bots finish them;
* those hands tampered by the simulator's dishonest operator (audit/operator/sim/tamper.py: edited,
  dropped and reordered moves, illegal shows, deck mismatches) and by small edits made here
  (a field removed, added or retyped, a move repeated, the hand cut short);
* detours: one move replaced by one the bots seldom play, then the bots play on; jokers
  thrown to the open pile and picked back (D-24); chosen tables the bots never reach;
* fixtures/records/rummy13 (golden and corrupted) and the conformance records of rummy13;
* and, for the solvers alone, random hands and a hand-computed one (R-5, R-15).
"""
from __future__ import annotations

from typing import Any

import pytest

from replay.cards import parse_cards
from replay.records import parse_record
from replay.replayer import replay_record
from replay.rummy.groups import wild_rank_of
from replay.rummy.solver import solve
from tests.js.node import ROOT, run_lines
from tests.js.rummy_records import (STALLED, TABLES, chosen_tables, fixture_records, joker_thrown, random_hands,
                                    simulate)

SCRIPT = ROOT / "tests" / "js" / "rummy13_replay.mjs"


def python_replay(record: dict[str, Any]) -> dict[str, Any]:
    result = replay_record(parse_record(record))
    fault = result.faults[0] if result.faults else None
    return {"moves_applied": result.moves_applied,
            "fault": None if fault is None else {"kind": fault.reason.value, "index": fault.move_index,
                                                 "rule": fault.rule},
            "outcome": None if result.outcome is None else result.outcome.to_json(),
            "settlement": None if result.settlement is None else result.settlement.to_json()}


def node_replays(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    answers = run_lines(SCRIPT, [{"record": r} for r in records])
    assert len(answers) == len(records)
    return answers


@pytest.fixture(scope="module")
def simulated() -> dict[str, list[dict[str, Any]]]:
    return simulate()


def assert_same(records: list[dict[str, Any]]) -> None:
    for record, js in zip(records, node_replays(records)):
        assert js == python_replay(record), record["hand_id"]


def test_honest_hands_replay_alike(simulated):
    honest = simulated["honest"]
    # every seat count, every ending and the timeouts are among them
    assert {len(r["table"]["seats"]) for r in honest} == {t[0] for t in TABLES}
    lefts = {b["left"] for r in honest for b in r["outcome"]["breakdown"]}
    assert {"declared", "counted", "first_drop", "timeout_drop", "last_left"} <= lefts
    assert len(honest) >= 140
    assert_same(honest)


def test_reshuffled_hands_replay_alike(simulated):  # rule D-20
    stalled = simulated["stalled"]
    assert all(python_replay(r)["fault"] is None for r in stalled)
    assert sum(python_replay(r)["outcome"]["detail"]["reshuffles"] >= 1 for r in stalled) >= STALLED // 2
    assert_same(stalled)


def test_tampered_hands_fail_alike(simulated):
    forged = simulated["forged"]
    faults = [python_replay(r)["fault"] for r in forged]
    kinds = {f["kind"] for f in faults if f is not None}
    assert {"malformed", "illegal_move", "deck_mismatch", "incomplete"} <= kinds
    assert_same(forged)


def test_detours_replay_alike(simulated):
    detours = simulated["detours"]
    results = [python_replay(r) for r in detours]
    faults = {(f["kind"], f["rule"]) for f in (r["fault"] for r in results) if f is not None}
    # refusals of many rules, and hands that the odd move did not spoil
    assert {("illegal_move", "D-23"), ("illegal_move", "R-6"), ("illegal_move", "R-17"),
            ("deck_mismatch", "D-3")} <= faults
    assert sum(r["fault"] is None for r in results) >= len(detours) // 3
    lefts = {b["left"] for r in results if r["outcome"] for b in r["outcome"]["breakdown"]}
    assert {"middle_drop", "wrong_declaration"} <= lefts
    assert_same(detours)


def test_solver_agrees_on_random_hands():  # rule R-12, rule R-15: the least points, and the same groups
    hands = random_hands(1500)
    js = run_lines(SCRIPT, [{"solve": h} for h in hands])
    for hand, answer in zip(hands, js):
        sol = solve(parse_cards(hand["cards"]), wild_rank_of(parse_cards([hand["indicator"]])[0]), high=hand["high"])
        assert answer == {"points": sol.points, "case": sol.case, "groups": [[str(c) for c in g] for g in sol.groups],
                          "loose": [str(c) for c in sol.loose]}, hand


def test_open_jokers_picked_alike(simulated):  # rule D-24, rule R-5
    records = [r for r in map(joker_thrown, simulated["honest"]) if r is not None]
    results = [python_replay(r) for r in records]
    refused = [r for r in results if r["fault"] == {"kind": "illegal_move", "index": r["moves_applied"], "rule": "D-24"}]
    off = sum(not r["ruleset"]["settings"]["joker_pickup"] for r in records)
    assert len(refused) == off >= 5  # every table that forbids it refuses it, and only those
    assert sum(r["fault"] is None for r in results) >= 50
    assert_same(records)


def test_chosen_tables_replay_alike(simulated):  # rule D-20, rule D-23, rule R-5
    records = chosen_tables(simulated["honest"])
    results = [python_replay(r) for r in records]
    assert [r["fault"] for r in results] == [
        {"kind": "illegal_move", "index": 0, "rule": "D-20"},
        {"kind": "illegal_move", "index": 0, "rule": "D-23"},
        {"kind": "illegal_move", "index": 2, "rule": "D-20"},
        None, None,
        {"kind": "illegal_move", "index": 8, "rule": "D-20"},
        {"kind": "malformed", "index": 1, "rule": None},
        {"kind": "malformed", "index": None, "rule": None},
    ]
    assert [b["left"] for b in results[4]["outcome"]["breakdown"]] in (["last_left", "middle_drop"],
                                                                        ["middle_drop", "last_left"])
    assert_same(records)


def test_fixture_and_conformance_records_replay_alike():
    records = fixture_records()
    assert len(records) >= 16
    assert_same(records)


# rule R-5: the indicator's rank is wild in all four suits; rule R-15: the three cases
def test_wild_rank_turns_a_count_into_a_sequence():
    hand = "2H 3H 4H 5S 6S 7D KC KD KS 9C QD 8H 3C"
    # indicator 7C: 7D is a joker, 5S 6S 7D an impure sequence beside the pure 2H 3H 4H, the
    # kings a set; loose 9C QD 8H 3C = 9 + 10 + 8 + 3
    # indicator JK: no wild rank, 7D counts 7; one sequence only, so every card but the best
    # pure run counts: 2+3+4+5+6+7+10+10+10+9+10+8+3 = 87, less 2H 3H 4H = 78
    asked = [{"solve": {"cards": hand.split(), "indicator": ind}} for ind in ("7C", "JK")]
    js = run_lines(SCRIPT, asked)
    assert [a["points"] for a in js] == [30, 78]
    assert [a["case"] for a in js] == ["two_sequences", "pure_only"]
    assert js[0]["loose"] == ["8H", "QD", "3C", "9C"]  # in code order: hearts, diamonds, clubs
    for a, ind in zip(js, ("7C", "JK")):
        sol = solve(parse_cards(hand), wild_rank_of(parse_cards(ind)[0]))
        assert a == {"points": sol.points, "case": sol.case, "groups": [[str(c) for c in g] for g in sol.groups],
                     "loose": [str(c) for c in sol.loose]}
