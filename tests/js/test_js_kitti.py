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
from pathlib import Path
from typing import Any

import pytest

from audit.operator.ledger import Ledger
from audit.operator.sim.tables import simulate_table
from audit.operator.sim.tamper import MOVE_KINDS, TAMPERS, TamperContext
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
    """The simulated operator picks each hand's seeds (audit/operator/sim/bias.py's ``choose``) until
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


# -- tampered records ------------------------------------------------------------------------

def _move_at(rec, rng, want=lambda m: True):
    """The index of a random move of ``rec`` that ``want``s, or None."""
    idx = [i for i, m in enumerate(rec["moves"]) if want(m)]
    return idx[rng.randbelow(len(idx))] if idx else None


def _arrange(m):
    return m.get("type") == "arrange"


def _edit(field, value):
    def edit(rec, rng):
        i = _move_at(rec, rng)
        if i is None:
            return None
        rec["moves"][i][field] = value
        return rec
    return edit


def _edit_sets(change):
    def edit(rec, rng):
        i = _move_at(rec, rng, _arrange)
        if i is None:
            return None
        m = rec["moves"][i]
        out = change(m["sets"], m, rng)
        if out is None:
            return None
        m["sets"] = out
        return rec
    return edit


def _swap(sets, m, rng):
    a, b = rng.randbelow(3), rng.randbelow(3)
    sets[a][0], sets[b][2] = sets[b][2], sets[a][0]
    return sets


def _not_held(sets, m, rng):
    held = {c for s in sets for c in s}
    sets[rng.randbelow(3)][rng.randbelow(3)] = next(str(c) for c in STANDARD if str(c) not in held)
    return sets


def _ten_alias(sets, m, rng):
    if not any(c[0] == "T" for s in sets for c in s):
        return None
    return [["10" + c[1] if c[0] == "T" else c for c in s] for s in sets]


def _set_carry(value):
    def edit(rec, rng):
        rec["table"]["carry"] = value
        return rec
    return edit


def _append_last(rec, rng):
    if not rec["moves"]:
        return None
    rec["moves"].append(copy.deepcopy(rec["moves"][-1]))
    return rec


def _truncate(rec, rng):
    if not rec["moves"]:
        return None
    rec["moves"].pop()
    return rec


def _fold_instead(rec, rng):
    i = _move_at(rec, rng, _arrange)
    if i is None:
        return None
    m = rec["moves"][i]
    rec["moves"][i] = {"type": "fold", "seat": m["seat"], "time": m["time"]}
    return rec


def _flip_auto(rec, rng):
    i = _move_at(rec, rng, _arrange)
    if i is None:
        return None
    m = rec["moves"][i]
    if m.get("auto"):
        del m["auto"]
    else:
        m["auto"] = True
    return rec


def _next_dealer(rec, rng):
    rec["table"]["dealer"] = (rec["table"]["dealer"] + 1) % len(rec["table"]["seats"])
    return rec


#: hand-made faults: each a function (record, rng) -> record (or None: not applicable)
EDITS = {
    "type_unknown": _edit("type", "show"),
    "extra_field": _edit("card", "AS"),
    "seat_text": _edit("seat", "1"),
    "seat_negative": _edit("seat", -1),
    "seat_bool": _edit("seat", True),
    "seat_fraction": _edit("seat", 1.5),
    "seat_far": _edit("seat", 7),
    "auto_text": _edit("auto", "true"),
    "auto_null": _edit("auto", None),
    "sets_text": _edit("sets", "AS KS QS"),
    "auto_flipped": _flip_auto,
    "bad_card": _edit_sets(lambda s, m, r: [["1S", *s[0][1:]], *s[1:]]),
    "card_number": _edit_sets(lambda s, m, r: [[5, *s[0][1:]], *s[1:]]),
    "card_list": _edit_sets(lambda s, m, r: [[[s[0][0]], *s[0][1:]], *s[1:]]),
    "set_text": _edit_sets(lambda s, m, r: [" ".join(s[0]), *s[1:]]),
    "ten_alias": _edit_sets(_ten_alias),
    "joker": _edit_sets(lambda s, m, r: [["JK", *s[0][1:]], *s[1:]]),
    "master": _edit_sets(lambda s, m, r: [["MC", *s[0][1:]], *s[1:]]),
    "two_sets": _edit_sets(lambda s, m, r: s[:2]),
    "four_sets": _edit_sets(lambda s, m, r: [*s, []]),
    "four_cards": _edit_sets(lambda s, m, r: [s[0] + s[1][:1], s[1][1:], s[2]]),
    "duplicate": _edit_sets(lambda s, m, r: [s[0], [s[0][0], *s[1][1:]], s[2]]),
    "not_held": _edit_sets(_not_held),
    "swapped_cards": _edit_sets(_swap),
    "rotated_sets": _edit_sets(lambda s, m, r: [s[1], s[2], s[0]]),
    "move_after_end": _append_last,
    "truncated": _truncate,
    "fold_instead": _fold_instead,
    "next_dealer": _next_dealer,
    "carry_negative": _set_carry({"pot_before": -1}),
    "carry_text": _set_carry({"pot_before": "3"}),
    "carry_fraction": _set_carry({"pot_before": 2.5}),
    "carry_bool": _set_carry({"pot_before": True}),
    "carry_unknown": _set_carry({"pot_before": 0, "round": 2}),
    "carry_dealer": _set_carry({"pot_before": 0, "dealer": 1}),
    "carry_empty": _set_carry({}),
    "carry_other": _set_carry({"pot_before": 17}),
    "carry_huge": _set_carry({"pot_before": 10**12 - 2}),
}


@pytest.fixture(scope="module")
def tampered(honest) -> list[tuple[str, dict]]:
    """Every simulator tamper class that edits moves (audit/operator/sim/tamper.py) and every hand-made
    fault, each on a share of the honest hands."""
    from audit.signing import SigningKey

    rng = Stream(b"\x07" * 32, b"\x08" * 32, "tests/js/kitti-tamper")
    ctx = TamperContext(SigningKey.from_hex("11" * 32), rng)
    out = []
    with_moves = [r for r in honest if r["moves"]]
    for n, rec in enumerate(with_moves[:150]):
        for kind in MOVE_KINDS:
            if n % 3 == MOVE_KINDS.index(kind) % 3:
                out.append((kind, TAMPERS[kind](copy.deepcopy(rec), ctx)))
        for j, (name, edit) in enumerate(EDITS.items()):
            if n % 4 == j % 4:
                forged = edit(copy.deepcopy(rec), rng)
                if forged is not None:
                    out.append((name, forged))
    return out


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

def shoe_for(hands: list[str], dealer: int) -> list[str]:
    """A shoe (card texts) that deals ``hands`` (by seat, nine cards as text each) when
    ``dealer`` deals one card at a time from the left (K-1, K-4)."""
    cards = [parse_cards(h) for h in hands]
    n = len(cards)
    order = [(dealer + k) % n for k in range(1, n + 1)]
    shoe = [cards[seat][j] for j in range(9) for seat in order]
    assert len(set(shoe)) == 9 * n
    return [str(c) for c in shoe + [c for c in STANDARD if c not in shoe]]


class ChosenShoes:
    """The randomness the engine reads (n_seats, deal, redeal), from chosen shoes."""

    def __init__(self, ruleset, n_seats, shoes):
        self.ruleset, self.n_seats, self.shoes = ruleset, n_seats, [parse_cards(s) for s in shoes]

    def deal(self, dealer):
        return deal_shoe(self.ruleset, self.shoes[0], self.n_seats, dealer)

    def redeal(self, k):
        return tuple(self.shoes[k])


def python_fixed(case: dict) -> dict:
    """replay_record's loop (replay/replayer.py) over chosen shoes."""
    from replay.errors import IllegalMoveError, MalformedError
    from replay.kitti.moves import parse_record_move

    engine = KittiEngine(resolve("kitti", case["settings"]))
    try:
        state = engine.start(ChosenShoes(engine.ruleset, case["n_seats"], case["shoes"]), dealer=case["dealer"],
                             pot_before=case["pot_before"])
    except TipluError:
        return {"moves_applied": 0, "fault": {"kind": "malformed", "index": None, "rule": None}, "outcome": None}
    for i, raw in enumerate(case["moves"]):
        try:
            move = parse_record_move(raw)
            if engine.is_over(state):
                raise IllegalMoveError("a move after the hand is over")
            state = engine.apply(state, move)
        except (IllegalMoveError, MalformedError) as exc:
            illegal = isinstance(exc, IllegalMoveError)
            kind = Reason.ILLEGAL_MOVE if illegal else Reason.MALFORMED
            return {"moves_applied": i, "fault": {"kind": kind.value, "index": i, "rule": exc.rule if illegal else None},
                    "outcome": None}
    if not engine.is_over(state):
        return {"moves_applied": len(case["moves"]),
                "fault": {"kind": "incomplete", "index": len(case["moves"]), "rule": None}, "outcome": None}
    return {"moves_applied": len(case["moves"]), "fault": None, "outcome": engine.outcome(state).to_json()}


def compare_fixed(cases: list[dict]) -> list[dict]:
    js = run_lines(SCRIPT, [{"fixed": c} for c in cases])
    py = [python_fixed(c) for c in cases]
    for c, p, j in zip(cases, py, js):
        assert j == p, f"{json.dumps(c)[:300]}: JavaScript {json.dumps(j)[:1500]} != Python {json.dumps(p)[:1500]}"
    return js


def arrange(seat, sets, **extra):
    return {"type": "arrange", "seat": seat, "sets": [s.split() for s in sets.split(" / ")], **extra}


# Three seats, seat 2 deals: seat 1 speaks first, then seat 0, then seat 2 (K-4).
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
