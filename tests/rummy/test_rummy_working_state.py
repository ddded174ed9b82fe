"""A Rummy replay without a visitor runs on one working state (replay/rummy/state.py,
``WorkingRummy``) that ``apply`` changes in place, instead of a new frozen state per move:
it must end exactly where the frozen replay ends, with the same faults, in strict and in
report mode, on every rummy fixture record, on tampered copies of them, on simulated tables
with tampering, and after every move of bot-played deals (a timeout, a reshuffle, a wrong
declaration included).  A refused move leaves the working state as it was."""
from __future__ import annotations

import copy
import json
import pathlib
from dataclasses import fields

import pytest

from audit.operator.sim.bots.rummy13 import choose_move
from replay.cards import STANDARD
from replay.errors import TipluError
from replay.fairness import hand_randomness
from replay.records import parse_record
from replay.replayer import replay_record
from replay.rulesets import resolve
from replay.rummy.engine import RummyEngine
from replay.rummy.moves import Discard, Drop, Pick
from replay.rummy.state import RummyState, WorkingRummy
from replay.stream import Stream

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures" / "records" / "rummy13").glob("*.json"))


def both(record, *, strict: bool):
    """(working, frozen): the replay without a visitor, and with one (frozen states)."""
    seen: list[type] = []
    frozen = replay_record(record, strict=strict, visit=lambda i, m, s: seen.append(type(s)))
    working = replay_record(record, strict=strict)
    assert WorkingRummy not in seen   # a visitor only ever sees frozen values
    return working, frozen


def same(a, b) -> None:
    assert a.faults == b.faults and a.moves_applied == b.moves_applied
    assert a.outcome == b.outcome and a.settlement == b.settlement


def test_there_are_rummy_fixtures():
    assert len(FIXTURES) >= 10


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
@pytest.mark.parametrize("strict", [True, False])
def test_every_fixture_replays_the_same_on_a_working_state(path, strict):
    record = parse_record(json.loads(path.read_text(encoding="utf-8")))  # every fixture here is a record
    same(*both(record, strict=strict))


def _tampered(record_json: dict) -> list[dict]:
    """Copies of a record, each with one move changed: a seat, a card, a source, a move
    dropped or repeated."""
    out = []
    moves = record_json["moves"]
    for i in range(0, len(moves), max(1, len(moves) // 15)):
        for how in ("seat", "card", "source", "drop", "repeat"):
            rec = copy.deepcopy(record_json)
            m = rec["moves"]
            if how == "seat":
                m[i]["seat"] = (m[i]["seat"] + 1) % 4
            elif how == "card" and m[i].get("card"):
                m[i]["card"] = "JK" if m[i]["card"] != "JK" else "2S"
            elif how == "source" and m[i].get("type") == "pick":
                m[i]["source"] = "open" if m[i].get("source") == "closed" else "closed"
            elif how == "drop":
                del m[i]
            elif how == "repeat":
                m.insert(i, copy.deepcopy(m[i]))
            out.append(rec)
    return out


def test_tampered_moves_give_the_same_faults_in_report_mode():
    clean = [p for p in FIXTURES if not p.stem.startswith("corrupted")]
    assert clean
    checked = 0
    for path in clean:
        for rec in _tampered(json.loads(path.read_text(encoding="utf-8"))):
            try:
                record = parse_record(rec)
            except TipluError:
                continue
            for strict in (True, False):
                working, frozen = both(record, strict=strict)
                same(working, frozen)
                checked += 1 if frozen.faults else 0
    assert checked >= 20


@pytest.mark.parametrize("overrides", [{}, {"max_missed_turns": 1}, {"joker_pickup": False}])
def test_bot_deals_end_in_the_same_state_after_every_move(overrides):
    rs = resolve("rummy13", overrides) if overrides else resolve("rummy13")
    eng = RummyEngine(rs)
    kinds = set()
    for k in range(8):
        r = hand_randomness(bytes([k, 9]) * 16, f"w-{k}", rs, [bytes([k, s]) * 8 for s in range(4)])
        state = eng.start(r, dealer=k % 4)
        work = eng.working(state)
        assert type(work) is WorkingRummy and work.freeze() == state
        rng = Stream(bytes([k]) * 32, bytes(32), "bot")
        while not eng.is_over(state):
            move = choose_move(eng, state, rng)
            kinds.add((type(move).__name__, getattr(move, "auto", False)))
            state = eng.apply(state, move)
            assert type(state) is RummyState
            assert eng.apply(work, move) is work          # changed in place, the same object
            assert work.freeze() == state
        assert eng.outcome(work.freeze()) == eng.outcome(state)
    assert ("Discard", False) in kinds and ("Pick", False) in kinds


def test_a_refused_move_leaves_the_working_state_unchanged():
    rs = resolve("rummy13")
    eng = RummyEngine(rs)
    r = hand_randomness(bytes(32), "w-x", rs, [bytes([s]) * 8 for s in range(4)])
    work = eng.working(eng.start(r, dealer=0))
    seat = work.turn
    held = work.hands[seat][0]
    refused = [Discard(seat, held), Pick((seat + 1) % 4, "closed"), Drop(seat, auto=True),
               Pick(seat, "closed", card=work.closed[1]), Pick(seat, "open", card=work.closed[0])]
    snapshot = work.freeze()
    for bad in refused:
        with pytest.raises(TipluError):
            eng.apply(work, bad)
        assert work.freeze() == snapshot
    eng.apply(work, Pick(seat, "closed"))
    not_held = next(c for c in STANDARD if c not in work.hands[seat])
    picked = [Discard(seat, not_held), Pick(seat, "closed"), Drop(seat),
              Discard(seat, held, auto=True) if held != work.picked else Discard(seat, not_held, auto=True)]
    snapshot = work.freeze()
    for bad in picked:
        with pytest.raises(TipluError):
            eng.apply(work, bad)
        assert work.freeze() == snapshot


def test_a_replay_without_a_visitor_uses_the_working_state(monkeypatch):
    made = []
    real = RummyEngine.working
    monkeypatch.setattr(RummyEngine, "working", lambda self, s: made.append(1) or real(self, s))
    path = next(p for p in FIXTURES if not p.stem.startswith("corrupted"))
    record = parse_record(json.loads(path.read_text(encoding="utf-8")))
    assert not replay_record(record).faults and made == [1]
    replay_record(record, visit=lambda *a: None)
    assert made == [1]


def test_a_working_copy_holds_every_field_of_the_frozen_state():
    """WorkingRummy copies the frozen fields by position: every field, each set to a value
    of its own, comes back from ``freeze`` in its place."""
    values = {}
    for i, f in enumerate(fields(RummyState)):
        if f.name == "hands":
            values[f.name] = ((STANDARD[i],), (STANDARD[i + 1], STANDARD[i + 2]))
        elif f.type.startswith("tuple"):
            values[f.name] = (f"value-{i}", i)
        else:
            values[f.name] = f"value-{i}"
    state = RummyState(**values)
    work = WorkingRummy(state)
    assert work.freeze() == state
    assert all(getattr(work, name) == (list(v) if isinstance(v, tuple) and name != "hands" else v)
               for name, v in values.items() if name != "hands")
    assert work.hands == [list(h) for h in values["hands"]]
