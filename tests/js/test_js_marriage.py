"""The browser verifier's Marriage engine (web/static/verifier/games/marriage.mjs) against
the Python one (replay/marriage/), hand by hand: the same moves accepted, the first refused
move at the same index with the same kind and rule, the same outcome as JSON, the same
settlement to the cent and the same worked point terms (T + w - n*S, MC-31; D-10).

One Node process replays every request (tests/js/marriage_replay.mjs: the browser
verifier's record.mjs and replay.mjs driving the engine); the Python side is
replay.replayer.replay_record in strict mode.  The hands (tests/js/marriage_records.py):
simulated honest hands of both presets at every seat count they allow, dealers varied,
settings overridden, stocks run out and reshuffled; the same hands tampered the ways
audit/operator/sim/tamper.py forges moves, with malformed move JSON, and with one move
replaced by a random one made from the cards of the seat to move; the golden and corrupted
fixture records and the conformance suite's Marriage records.  Beside them: maal counted
and three-card combinations judged by both, and hand-computed examples.
"""
from __future__ import annotations

import copy
import json

import pytest

from audit.operator.sim.tamper import TamperContext, tamper
from replay.game import engine_for
from replay.records import parse_record
from replay.replayer import replay_record
from replay.rulesets import allowed_players, resolve

from .marriage_records import (PRESETS, fuzzed_records, honest_records, huge_points_records, maal_requests, stream,
                               void_stock_records)
from .node import ROOT, run_lines

SCRIPT = ROOT / "tests" / "js" / "marriage_replay.mjs"
MOVE_TAMPERS = ("edited_move", "dropped_move", "reordered_moves", "deck_mismatch", "illegal_show")


def python_replay(record: dict, strict: bool = True) -> dict:
    """What tests/js/marriage_replay.mjs answers, from the Python replay."""
    result = replay_record(parse_record(record), strict=strict)
    faults = [{"kind": f.reason.value, "index": f.move_index, "rule": f.rule} for f in result.faults]
    return {"moves_applied": result.moves_applied,
            **({"fault": faults[0] if faults else None} if strict else {"faults": faults}),
            "outcome": None if result.outcome is None else result.outcome.to_json(),
            "settlement": None if result.settlement is None else result.settlement.to_json(),
            "worked": None if result.outcome is None else engine_for(result.record.ruleset).work_points(result.outcome)}


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
    honest = list(honest_records())
    cases += fuzzed_records(honest)
    for k, record in enumerate([*honest, *void_stock_records(), *huge_points_records()]):
        cases.append((record["hand_id"], record))
        if k % 12 == 0:
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


def test_report_mode_agrees(compared):
    """Report mode (every refused move skipped and the replay going on): the same faults,
    in order, with their indexes and rules, the same moves applied and the same outcome, for
    every record the strict replay refused."""
    refused = [rec for _, rec, py, _ in compared if py["fault"] is not None][::2]
    answers = run_lines(SCRIPT, [{"record": r, "strict": False} for r in refused])
    bad = [(py, js) for py, js in ((python_replay(r, strict=False), js) for r, js in zip(refused, answers))
           if py != js]
    assert not bad, f"{len(bad)} of {len(refused)} differ; first: {json.dumps(bad[0])[:3000]}"
    assert sum(len(js["faults"]) > 1 for js in answers) > 50


def test_the_hands_cover_what_they_claim(compared):
    """The comparison is worth what it holds: every preset at every seat count it allows,
    honest hands won and void, reshuffled stocks, and refusals of each kind."""
    ours = [(name, py) for name, rec, py, _ in compared
            if "/" not in name and rec["table"]["table_id"] == "js-marriage"]
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


#: (preset, overrides, tiplu): the tiplus of every kind -- none (not drawn, or not seen), a
#: standard card at each corner of the ranks, the putali and the master card (nepal)
COMBO_TABLES = [
    ("marriage/nepal", {}, None), ("marriage/nepal", {}, "7H"), ("marriage/nepal", {}, "KC"),
    ("marriage/nepal", {"master_in_pure": True}, "JK"), ("marriage/classic", {}, "AS"),
    ("marriage/classic", {}, None),
]
#: the tables whose shown sets are judged too (a shown set does not depend on the tiplu)
SHOW_TABLES = {0, 3, 5}


def test_combinations_agree():
    """Every sorted triple of card codes judged by both: as a finishing combination under
    each tiplu (its kind, or the kind and rule of the refusal: MC-10, MN-12/MC-9, D-7 ...)
    and as a shown set (MN-10, MN-11, MN-14, MC-15 ..., the master card with and without
    master_in_pure)."""
    from replay.cards import ALL_CARDS, parse_card
    from replay.errors import IllegalMoveError
    from replay.marriage.combos import check_finish_set, check_show_set

    answers = run_lines(SCRIPT, [{"combos": {"preset": p, "overrides": o, "tiplu": t, "show": i in SHOW_TABLES}}
                                 for i, (p, o, t) in enumerate(COMBO_TABLES)])

    def judge(fn):
        try:
            return str(fn())
        except IllegalMoveError as exc:
            return f"illegal_move:{exc.rule}"

    for i, ((preset, overrides, tiplu), js) in enumerate(zip(COMBO_TABLES, answers)):
        ruleset = resolve(preset, overrides)
        t = parse_card(tiplu) if tiplu else None
        finish, show = [], []
        for a in range(54):
            for b in range(a, 54):
                for c in range(b, 54):
                    cards = (ALL_CARDS[a], ALL_CARDS[b], ALL_CARDS[c])
                    finish.append(judge(lambda: check_finish_set(cards, tiplu=t, ruleset=ruleset)))  # noqa: B023 - called within this iteration
                    if i in SHOW_TABLES:
                        show.append(judge(lambda: check_show_set(cards, ruleset=ruleset)))  # noqa: B023 - called within this iteration
        assert js["finish"] == finish, (preset, tiplu)
        assert js["show"] == show, (preset, tiplu)
        assert len(set(finish)) >= 6   # every kind and refusal is in play, not one answer


def _shoe(seat0: str, seat1: str, rest: str) -> list[str]:
    """A two-seat shoe, top first, dealing ``seat1`` and ``seat0`` (21 cards each; dealer 0,
    so seat 1 is dealt first, MC-13) one card at a time, then the card turned up and the stock."""
    a, b = seat0.split(), seat1.split()
    assert len(a) == len(b) == 21
    return [c for pair in zip(b, a) for c in pair] + rest.split()


#: seat 1 holds K-A-2 of spades, 4-5-6 of diamonds, 2-3-4 of hearts and three 9 of clubs;
#: QD is turned up to start the discards
SEAT0 = "3C 3C 4C 4C 6C 6C 7C 7C 8C 8C TC TC JC JC QC QC KC KC 5S 6S 7S"
SEAT1 = "KS AS 2S 4D 5D 6D 2H 3H 4H 9C 9C 9C 8H 9H TH JH QH KH 8D 9D TD"
HAND_SHOE = _shoe(SEAT0, SEAT1, "QD 5C 6H 7H AH")


def test_rules_by_hand():
    """Three hands dealt from a chosen shoe (not from Python's answers):
    * MC-14: a card just taken from the discards may not be discarded in the same turn --
      seat 1 takes the turned-up QD and throws it back: refused at move 1;
    * MC-9: K-A-2 is not a sequence, so it never shows -- seat 1's dealt-hand show of
      KS AS 2S: refused at move 0;
    * the same show with 9C 9C 9C (a tunnela) for K-A-2 is accepted, and the tiplu is drawn
      at the stock position the hand's stream picks (D-5: here position 2 of 5C 6H 7H AH)."""
    base = {"preset": "marriage/classic", "n_seats": 2, "dealer": 0, "shoe": HAND_SHOE, "tiplu_at": 2}
    show = lambda first: {"type": "dealt_show", "seat": 1, "sets": [first, ["4D", "5D", "6D"], ["2H", "3H", "4H"]]}
    thrown_back, wrapped, shown = run_lines(SCRIPT, [
        {"fixed": {**base, "moves": [{"type": "draw", "seat": 1, "source": "discard", "card": "QD"},
                                     {"type": "discard", "seat": 1, "card": "QD"}]}},
        {"fixed": {**base, "moves": [show(["KS", "AS", "2S"])]}},
        {"fixed": {**base, "moves": [show(["9C", "9C", "9C"])]}}])
    assert thrown_back == {"moves_applied": 1, "fault": {"kind": "illegal_move", "index": 1, "rule": "MC-14"}}
    assert wrapped == {"moves_applied": 0, "fault": {"kind": "illegal_move", "index": 0, "rule": "MC-9"}}
    assert shown == {"moves_applied": 1, "fault": None, "tiplu": "7H"}


#: table overrides: the valid ones resolve to the same hash in both, the ones Python refuses
#: (a nested setting not of its default's shape, an integer beyond 2**53) are refused by both
RULESET_OVERRIDES = [
    ("marriage/nepal", {"maal_table": {**resolve("marriage/nepal")["maal_table"], "alter": [6, 16, 31]}}),
    ("marriage/nepal", {"maal_table": {**resolve("marriage/nepal")["maal_table"], "tiplu": 3}}),
    ("marriage/nepal", {"maal_table": {**resolve("marriage/nepal")["maal_table"], "tiplu": [3, "7"]}}),
    ("marriage/nepal", {"maal_table": {**resolve("marriage/nepal")["maal_table"], "marriage": [10, 2**54]}}),
    ("marriage/nepal", {"seen_points": 2**53}),
    ("marriage/classic", {"shoe": {"decks": "3", "jokers": 0, "masters": 0}}),
    ("marriage/classic", {"shoe": {"decks": 2, "jokers": 0, "masters": 0}}),
    ("marriage/classic", {"maal_table": {**resolve("marriage/classic")["maal_table"],
                                         "tunnela_at_deal": {"ordinary": "5", "ordinary_joker": 10, "poplu": 20,
                                                             "jhiplu": 20}}}),
]


def test_rulesets_refused_alike():
    """A table's overrides the Python ruleset refuses (D-1: a nested setting not of its
    default's shape, or an integer JavaScript cannot hold exactly) are refused by the
    browser's too -- so no engine meets a number where it reads a list -- and the valid
    ones resolve to the same hash."""
    from replay.errors import RulesetError

    answers = run_lines(SCRIPT, [{"ruleset": {"preset": p, "overrides": o}} for p, o in RULESET_OVERRIDES])
    for (preset, overrides), js in zip(RULESET_OVERRIDES, answers):
        try:
            py = {"hash": resolve(preset, overrides).hash}
        except RulesetError:   # refused: by the ruleset's checks, or as a number JSON cannot carry
            py = {"refused": True}
            js = {"refused": js.get("kind") in ("ruleset", "malformed")}
        assert py == js, (preset, overrides)
    assert sum("hash" in js for js in answers) == 2
