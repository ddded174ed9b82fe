"""A Kitti replay without a visitor runs on one ``WorkingDeal`` (replay/kitti/engine.py)
changed in place, and deals the v1 shoe by slices: it must end exactly where the frozen
replay ends, with the same faults, in strict and in report mode -- on every Kitti fixture,
on simulated tables with tampering, on hand-tampered copies of clean records, and after
every move of bot deals (rules K-1, K-2, K-4, K-6, K-19, K-20)."""
from __future__ import annotations

import copy
import json
import pathlib

import pytest

from audit.operator.sim.bots.kitti import choose_move
from replay.deal import deal
from replay.errors import TipluError
from replay.fairness import hand_randomness
from replay.kitti.engine import KittiEngine, KittiState, WorkingDeal
from replay.kitti.moves import Arrange, Fold
from replay.records import parse_record
from replay.replayer import replay_record
from replay.rulesets import resolve
from replay.stream import Stream

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures" / "records" / "kitti").glob("*.json"))


def both(record, *, strict: bool):
    """(working, frozen): the replay without a visitor, and with one (frozen states)."""
    seen: list[type] = []
    frozen = replay_record(record, strict=strict, visit=lambda i, m, s: seen.append(type(s)))
    working = replay_record(record, strict=strict)
    assert WorkingDeal not in seen and (not seen or KittiState in seen)
    return working, frozen


def same(a, b) -> None:
    assert a.faults == b.faults and a.moves_applied == b.moves_applied
    assert a.outcome == b.outcome and a.settlement == b.settlement


def test_there_are_kitti_fixtures():
    assert len(FIXTURES) >= 5


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
@pytest.mark.parametrize("strict", [True, False])
def test_every_kitti_fixture_replays_the_same_on_a_working_state(path, strict):
    record = parse_record(json.loads(path.read_text(encoding="utf-8")))  # every fixture here is a record
    same(*both(record, strict=strict))


def _tampered(rec: dict) -> list[dict]:
    """Copies of a record, each with its moves changed: a seat, two cards swapped (K-6 order,
    or across sets), a card not held, a card twice, a move dropped, repeated or reordered,
    ``auto`` flipped, a fold turned into nothing but its seat."""
    out = []
    moves = rec["moves"]
    for i, _m in enumerate(moves):
        for how in ("seat", "swap_sets", "swap_across", "not_held", "twice", "drop", "repeat", "auto", "fold"):
            r = copy.deepcopy(rec)
            mm = r["moves"]
            sets = mm[i].get("sets")
            if how == "seat":
                mm[i]["seat"] = (mm[i]["seat"] + 1) % len(r["table"]["seats"])
            elif how == "swap_sets" and sets:
                sets[0], sets[2] = sets[2], sets[0]
            elif how == "swap_across" and sets:
                sets[0][0], sets[1][0] = sets[1][0], sets[0][0]
            elif how == "not_held" and sets:
                held = {c for s in sets for c in s}
                sets[1][1] = next(c for c in ("AS", "KH", "2C", "7D", "9S", "QC", "5H", "JD", "3S", "TH")
                                  if c not in held)
            elif how == "twice" and sets:
                sets[2][2] = sets[0][0]
            elif how == "drop":
                del mm[i]
            elif how == "repeat":
                mm.insert(i, copy.deepcopy(mm[i]))
            elif how == "auto" and sets:
                mm[i]["auto"] = not mm[i].get("auto", False)
            elif how == "fold":
                mm[i] = {"type": "fold", "seat": mm[i]["seat"]}
            else:
                continue
            out.append(r)
    if len(moves) > 1:
        r = copy.deepcopy(rec)
        r["moves"][0], r["moves"][1] = r["moves"][1], r["moves"][0]
        out.append(r)
    return out


def test_tampered_records_give_the_same_faults_in_both_modes():
    clean = [p for p in FIXTURES if not p.stem.startswith("corrupted")]
    assert clean
    faulty = 0
    for path in clean:
        for rec in _tampered(json.loads(path.read_text(encoding="utf-8"))):
            try:
                record = parse_record(rec)
            except TipluError:
                continue
            for strict in (True, False):
                working, frozen = both(record, strict=strict)
                same(working, frozen)
                faulty += bool(frozen.faults)
    assert faulty >= 20


def test_simulated_tables_with_tampering_replay_the_same(tmp_path):
    from audit.operator.ledger import Ledger
    from audit.operator.sim.tables import simulate_table

    records: list[tuple[dict, str | None]] = []
    ledger = Ledger(str(tmp_path / "sim.db"), create=True)
    ledger.new_operator("demo-operator")
    simulate_table(ledger, preset="kitti", players=4, hands=16, seed="kitti-working", table_id="kw",
                   tamper_rate=0.5, on_record=lambda r, k: records.append((r, k)))
    ledger.close()
    assert any(k for _, k in records) and any(not k for _, k in records)
    for rec, _ in records:
        try:
            record = parse_record(rec)
        except TipluError:
            continue
        for strict in (True, False):
            same(*both(record, strict=strict))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_bot_deals_end_in_the_same_state_after_every_move(n):
    rs = resolve("kitti")
    eng = KittiEngine(rs)
    for k in range(12):
        r = hand_randomness(bytes([k, n]) * 16, f"kw-{k}", rs, [bytes([k, s]) * 8 for s in range(n)])
        state = eng.start(r, dealer=k % n, pot_before=k)
        work = eng.working(state)
        rng = Stream(bytes([k]) * 32, bytes(32), "bot")
        while not eng.is_over(state):
            assert eng.to_move(work) == eng.to_move(state)
            move = choose_move(eng, state, rng)
            state = eng.apply(state, move)
            assert eng.apply(work, move) is work          # changed in place, the same object
            assert work.freeze() == state and isinstance(work.freeze(), KittiState)
            assert eng.is_over(work) == eng.is_over(state)
        assert eng.to_move(work) is None
        assert eng.outcome(work.freeze()) == eng.outcome(state)


def test_a_refused_move_leaves_the_working_state_unchanged():
    rs = resolve("kitti")
    eng = KittiEngine(rs)
    r = hand_randomness(bytes(32), "kw-x", rs, [bytes([s]) * 8 for s in range(4)])
    work = eng.working(eng.start(r, dealer=1))
    snapshot = work.freeze()
    seat = eng.to_move(work)
    hand = work.hands[seat]
    sets = (hand[0:3], hand[3:6], hand[6:9])
    for bad in (Fold((seat + 1) % 4), Arrange(seat, (hand[0:3], hand[3:6], hand[5:8])),
                Arrange(seat, (hand[0:3], hand[3:6], work.hands[(seat + 1) % 4][0:3])), Arrange(seat, sets[::-1], auto=True)):
        with pytest.raises(TipluError):
            eng.apply(work, bad)
        assert work.freeze() == snapshot


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_engine_deals_the_v1_shoe_as_replay_deal_does(n):
    # rules K-1, K-4: nine cards each, one at a time from the dealer's left
    rs = resolve("kitti")
    eng = KittiEngine(rs)
    for k in range(8):
        r = hand_randomness(bytes([k]) * 32, f"kd-{k}", rs, [bytes([k, s]) * 8 for s in range(n)])
        for dealer in range(n):
            want = tuple(tuple(h) for h in deal(rs, r.shoe(), n, dealer).hands)
            assert eng.start(r, dealer=dealer).hands == want


@pytest.mark.parametrize("n, folders", [(n, f) for n in (2, 3, 4, 5) for f in range(n)])  # fewer folders than seats
def test_folds_end_the_deal_on_a_working_state_as_on_a_frozen_one(n, folders):
    # rules K-2, K-5, D-15: the deal ends when all but one seat have folded
    rs = resolve("kitti")
    eng = KittiEngine(rs)
    r = hand_randomness(bytes([n, folders]) * 16, f"kf-{n}", rs, [bytes([n, s]) * 8 for s in range(n)])
    state = eng.start(r, dealer=0)
    work = eng.working(state)
    from replay.kitti.strategy import default_arrangement
    spoken = 0
    while not eng.is_over(state):
        seat = eng.to_move(state)
        move = Fold(seat) if spoken < folders else Arrange(seat, default_arrangement(state.hands[seat], eng.ranker))
        state, spoken = eng.apply(state, move), spoken + 1
        eng.apply(work, move)
        assert eng.is_over(work) == eng.is_over(state) and eng.to_move(work) == eng.to_move(state)
    assert work.freeze() == state and eng.outcome(work.freeze()) == eng.outcome(state)
    assert spoken == (n - 1 if folders == n - 1 else n)


def test_record_moves_read_without_a_copy_as_with_one():
    # rules K-2, K-5: the replayer reads each record move with parse_record_move (its
    # envelope field ``time`` let through); it must give the move, or the error, that
    # parse_move gives for the copy without ``time``
    from replay.kitti.moves import parse_move, parse_record_move

    def outcome(fn, data):
        try:
            m = fn(data)
            return ("ok", type(m), m)
        except TipluError as exc:
            return ("error", type(exc), str(exc))

    good_sets = [["AS", "KS", "QS"], ["2H", "3H", "4H"], ["9C", "TC", "JC"]]
    bodies = [{"type": "fold", "seat": 1}, {"type": "arrange", "seat": 0, "sets": good_sets},
              {"type": "arrange", "seat": 2, "sets": good_sets, "auto": True}, {"type": "arrange", "seat": 2, "sets": good_sets, "auto": 1},
              {"type": "fold", "seat": 1, "sets": good_sets}, {"type": "fold", "seat": -1}, {"type": "fold", "seat": True},
              {"type": "arrange", "seat": 0, "sets": [["AS", "XX", "QS"]]}, {"type": "arrange", "seat": 0, "sets": "AS"},
              {"type": "arrange", "seat": 0, "sets": good_sets, "extra": 1}, {"type": "pass", "seat": 0}, {"seat": 0}]
    checked = 0
    for body in bodies:
        for time in (None, "2026-11-01T00:05:11.000Z", 7):
            rec = dict(body) if time is None else {**body, "time": time}
            assert outcome(parse_record_move, rec) == outcome(parse_move, {k: v for k, v in rec.items() if k != "time"}), rec
            checked += 1
    assert checked == 36
