"""Kitti hand records and cases for the JavaScript differential test (tests/js/test_js_kitti.py).

* :data:`TABLES` and :func:`simulated_table`: honest tables of every Kitti preset through the
  real ledger and the simulator (audit/operator/sim/), settings, seat counts and dealers
  varied; :class:`Pick` has the simulated operator pick seeds for K-21 redeals or K-20.
* :data:`EDITS` and :func:`tampered_records`: the simulator's move tampers and hand-made
  faults of moves, carries and dealers, each on a share of the honest hands.
* :func:`shoe_for`, :class:`ChosenShoes`, :func:`python_fixed`: hands dealt from chosen
  shoes, replayed by the Python engine the way replay_record does.
Everything comes from labelled v1 streams: a run is reproducible.
"""
from __future__ import annotations

import copy
import json

from audit.operator.ledger import Ledger
from audit.operator.sim.tables import simulate_table
from audit.operator.sim.tamper import MOVE_KINDS, TAMPERS, TamperContext
from audit.signing import SigningKey
from replay.cards import STANDARD, parse_cards
from replay.deal import deal as deal_shoe
from replay.errors import IllegalMoveError, MalformedError, TipluError
from replay.fairness import hand_randomness
from replay.faults import Reason
from replay.kitti.engine import KittiEngine
from replay.kitti.moves import parse_record_move
from replay.rulesets import resolve
from replay.stream import Stream

from .node import ROOT

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


def simulated_table(preset, players, hands, overrides, *, seed="js-kitti", table_id="t", bias=None, tamper_rate=0.0):
    ledger = Ledger(":memory:")
    ledger.new_operator("demo-operator")
    out: list[dict] = []
    simulate_table(ledger, preset=preset, players=players, hands=hands, seed=seed, table_id=table_id,
                   overrides=overrides or None, bias=bias, tamper_rate=tamper_rate,
                   on_record=lambda r, k: out.append(r))
    return out


def rank_counts(hand):
    counts: dict[int, int] = {}
    for c in hand:
        counts[c.code % 13] = counts.get(c.code % 13, 0) + 1
    return counts.values()


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


def tampered_records(honest: list[dict]) -> list[tuple[str, dict]]:
    """Every simulator tamper class that edits moves (audit/operator/sim/tamper.py) and every hand-made
    fault, each on a share of the honest hands."""
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


def arrange(seat: int, sets: str, **extra) -> dict:
    """An arrange move from its sets' texts (``"AS AH AD / KS QS JS / 2C 3D 5H"``)."""
    return {"type": "arrange", "seat": seat, "sets": [s.split() for s in sets.split(" / ")], **extra}


# Three seats, seat 2 deals: seat 1 speaks first, then seat 0, then seat 2 (K-4).
