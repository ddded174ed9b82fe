"""A replay without a visitor runs on one working state (for Marriage a ``WorkingRound``:
the frozen ``RoundState``'s own class and values, changed in place, replay/marriage/state.py)
instead of a new frozen state per move: it must end exactly where the frozen replay ends,
with the same faults, in strict and in report mode, on every fixture record, on simulated
tables with tampering, and on every move of bot-played rounds."""
from __future__ import annotations

import copy
import json
import pathlib

import pytest

from replay.errors import TipluError
from audit.operator.sim.bots.marriage import choose_move
from replay.marriage.engine import MarriageEngine, first_dealer
from replay.marriage.state import RoundState, WorkingRound
from replay.records import parse_record
from replay.replayer import replay_record
from replay.rulesets import resolve
from replay.stream import Stream

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _is_hand_record(path: pathlib.Path) -> bool:
    """A hand record (``tiplu.hand/N``), not a folder's manifest or a receipt kept beside
    the records (fixtures/records/legacy-v2 holds both)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return isinstance(data, dict) and str(data.get("format", "")).startswith("tiplu.hand/")


# every hand record under fixtures/records; the other files there are not generated as
# cases (they used to be, and were skipped: issue 29 item 19, no skips under CI)
FIXTURES = [p for p in sorted((ROOT / "fixtures" / "records").glob("*/*.json")) if _is_hand_record(p)]


def both(record, *, strict: bool):
    """(working, frozen): the replay without a visitor, and with one (frozen states)."""
    seen: list[object] = []
    frozen = replay_record(record, strict=strict, visit=lambda i, m, s: seen.append(type(s)))
    working = replay_record(record, strict=strict)
    assert WorkingRound not in seen   # a visitor only ever sees frozen values
    return working, frozen


def same(a, b) -> None:
    assert a.faults == b.faults and a.moves_applied == b.moves_applied
    assert a.outcome == b.outcome and a.settlement == b.settlement


def test_there_are_marriage_fixtures():
    assert sum("marriage" in p.parent.name for p in FIXTURES) >= 10


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
@pytest.mark.parametrize("strict", [True, False])
def test_every_fixture_replays_the_same_on_a_working_state(path, strict):
    record = parse_record(json.loads(path.read_text(encoding="utf-8")))
    same(*both(record, strict=strict))


def _tampered_moves(record_json: dict) -> list[dict]:
    """Copies of a record, each with one move changed: a seat, a card, a move dropped or repeated."""
    out = []
    moves = record_json["moves"]
    for i in range(0, len(moves), max(1, len(moves) // 12)):
        for how in ("seat", "card", "drop", "repeat"):
            rec = copy.deepcopy(record_json)
            m = rec["moves"]
            if how == "seat":
                m[i]["seat"] = (m[i]["seat"] + 1) % 4
            elif how == "card" and "card" in m[i] and m[i]["card"]:
                m[i]["card"] = "JK" if m[i]["card"] != "JK" else "2S"
            elif how == "drop":
                del m[i]
            elif how == "repeat":
                m.insert(i, copy.deepcopy(m[i]))
            out.append(rec)
    return out


@pytest.mark.parametrize("preset", ["marriage-nepal", "marriage-classic"])
def test_tampered_moves_give_the_same_faults_in_report_mode(preset):
    clean = [p for p in FIXTURES if p.parent.name == preset and not p.stem.startswith("corrupted")]
    assert clean
    checked = 0
    for path in clean[:2]:
        for rec in _tampered_moves(json.loads(path.read_text(encoding="utf-8"))):
            try:
                record = parse_record(rec)
            except TipluError:
                continue
            working, frozen = both(record, strict=False)
            same(working, frozen)
            checked += 1 if frozen.faults else 0
    assert checked >= 10


@pytest.mark.parametrize("preset", ["marriage/nepal", "marriage/classic"])
def test_bot_rounds_end_in_the_same_state_after_every_move(preset):
    from replay.fairness import hand_randomness

    rs = resolve(preset)
    eng = MarriageEngine(rs)
    for k in range(6):
        r = hand_randomness(bytes([k, 7]) * 16, f"w-{k}", rs, [bytes([k, s]) * 8 for s in range(4)])
        state = eng.start(r, dealer=first_dealer(4))
        work = eng.working(state)
        rng = Stream(bytes([k]) * 32, bytes(32), "bot")
        while not eng.is_over(state):
            move = choose_move(eng, state, rng)
            state = eng.apply(state, move)
            assert eng.apply(work, move) is work          # changed in place, the same object
            assert work.freeze() == state and isinstance(work.freeze(), RoundState)
        assert eng.outcome(work.freeze()) == eng.outcome(state)


def test_a_refused_move_leaves_the_working_state_unchanged():
    from replay.errors import IllegalMoveError
    from replay.fairness import hand_randomness
    from replay.marriage.moves import Discard, Draw

    rs = resolve("marriage/nepal")
    eng = MarriageEngine(rs)
    r = hand_randomness(bytes(32), "w-x", rs, [bytes([s]) * 8 for s in range(4)])
    work = eng.working(eng.start(r, dealer=first_dealer(4)))
    snapshot = work.freeze()
    seat = work.turn_seat
    for bad in (Discard(seat, work.seat(seat).hand[0]), Draw((seat + 1) % 4, "stock"), Draw(seat, "stock", work.discards[-1])):
        with pytest.raises(TipluError):
            eng.apply(work, bad)
        assert work.freeze() == snapshot
    assert issubclass(IllegalMoveError, TipluError)


@pytest.mark.parametrize("preset", ["marriage/nepal", "marriage/classic"])
def test_simulated_tables_with_tampering_replay_the_same(tmp_path, preset):
    from audit.operator.ledger import Ledger
    from audit.operator.sim.tables import simulate_table

    records: list[tuple[dict, str | None]] = []
    ledger = Ledger(str(tmp_path / "sim.db"), create=True)
    ledger.new_operator("demo-operator")
    simulate_table(ledger, preset=preset, players=4, hands=4, seed="working-state", table_id="w",
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


def test_a_replay_without_a_visitor_uses_the_working_state(monkeypatch):
    """One working state per replay without a visitor (dealt into it: ``start_working``;
    an engine without that copies the frozen start: ``working``), none with one."""
    made = []
    real = MarriageEngine.working
    monkeypatch.setattr(MarriageEngine, "working", lambda self, s: made.append(1) or real(self, s))
    path = next(p for p in FIXTURES if p.parent.name == "marriage-nepal" and not p.stem.startswith("corrupted"))
    record = parse_record(json.loads(path.read_text(encoding="utf-8")))
    seen = []
    assert not replay_record(record, visit=lambda i, m, s: seen.append(type(s))).faults and made == []
    assert WorkingRound not in seen
    result = replay_record(record)
    assert not result.faults and made == []   # dealt straight into one
    monkeypatch.delattr(MarriageEngine, "start_working")
    assert replay_record(record) == result and made == [1]


def test_a_working_copy_holds_every_field_of_the_frozen_state():
    """WorkingRound and WorkingSeat (the frozen classes with assignment allowed) copy the
    frozen fields by position: every field, each set to a value of its own, is the same
    value in the copy and comes back from ``freeze`` in its place."""
    from dataclasses import fields

    from replay.cards import STANDARD
    from replay.marriage.state import FinishRecord, SeatState, WorkingSeat

    seat_values = {f.name: (STANDARD[i],) if f.name == "hand" else ((STANDARD[i],),)
                   if f.type.startswith("tuple") else True for i, f in enumerate(fields(SeatState))}
    seat = SeatState(**seat_values)
    round_values = {}
    for i, f in enumerate(fields(RoundState)):
        if f.name == "seats":
            round_values[f.name] = (seat, SeatState(hand=()))
        elif f.name in ("stock", "discards"):
            round_values[f.name] = (STANDARD[i],)
        elif f.name in ("tiplu", "taken", "drawn"):
            round_values[f.name] = STANDARD[i]
        elif f.name == "finish":
            round_values[f.name] = FinishRecord((), STANDARD[51], True)
        elif f.type.startswith("bool"):
            round_values[f.name] = True
        elif f.type.startswith("str"):
            round_values[f.name] = f"value-{i}"
        else:
            round_values[f.name] = 100 + i
    state = RoundState(**round_values)
    work = WorkingRound.of(state)
    assert isinstance(work, RoundState) and type(work.freeze()) is RoundState and work.freeze() == state
    assert all(getattr(work, name) == value for name, value in round_values.items())
    thawed = work.thaw(0)
    assert type(thawed) is WorkingSeat and work.seats[0] is thawed and work.seats[1] is state.seats[1]
    assert all(getattr(thawed, name) == value for name, value in seat_values.items())
    assert thawed.codes == [c.code for c in thawed.hand]
    assert work.freeze() == state and work.freeze().randomness == round_values["randomness"]
    assert type(work.freeze().seats[0]) is SeatState


def test_the_frozen_state_stays_frozen_and_the_working_one_has_no_hash():
    """Assignment is lifted only on the replay's own copy; a value that changes in place
    cannot be hashed (a dict or set would lose it)."""
    import dataclasses

    from replay.marriage.state import SeatState, WorkingSeat

    state = RoundState.position([(), ()], stock=(), discards=())
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.turns = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.seats[0].hand = ()
    work = WorkingRound.of(state)
    work.turns = 3
    assert work.turns == 3 and state.turns == 0
    hash(state)
    with pytest.raises(TypeError, match="changes in place"):
        hash(work)
    with pytest.raises(TypeError, match="changes in place"):
        hash(WorkingSeat.of(SeatState(hand=())))


def _add(hand, card):
    """The reference: the hand with ``card``, sorted by code."""
    return tuple(sorted((*hand, card), key=lambda c: c.code))


def _without(hand, cards):
    """The reference: the hand less ``cards`` as multisets, sorted; ``None`` if one is missing."""
    rest = list(hand)
    for card in cards:
        if card not in rest:
            return None
        rest.remove(card)
    return tuple(sorted(rest, key=lambda c: c.code))


def test_a_working_seat_adds_and_removes_cards_as_multisets():
    """WorkingSeat.add / find + remove_at / take (bisection over the codes beside a sorted
    hand) give the sorted multiset sums and differences, keep the codes in step, and leave
    the seat unchanged when a card is missing; a hand-made unsorted hand is sorted when the
    seat is copied."""
    import random

    from replay.cards import ALL_CARDS
    from replay.marriage.state import SeatState, WorkingSeat

    rng = random.Random(5)
    for _ in range(3000):
        hand = tuple(rng.choices(ALL_CARDS, k=rng.randint(0, 22)))
        ordered = _without(hand, ())
        seat = WorkingSeat.of(SeatState(hand=hand))
        assert seat.hand == ordered and seat.codes == [c.code for c in ordered]
        card = rng.choice(ALL_CARDS if rng.random() < 0.5 or not hand else hand)
        seat.add(card)
        assert seat.hand == _add(ordered, card) and seat.codes == [c.code for c in seat.hand]
        assert seat.freeze() == SeatState(hand=_add(ordered, card))
        removed = WorkingSeat.of(SeatState(hand=hand))
        i = removed.find(card)
        want = _without(hand, [card])
        assert (i is None) == (want is None)
        if i is not None:
            assert removed.hand[i] == card and (i == 0 or removed.codes[i - 1] < card.code)   # the first copy
            removed.remove_at(i)
            assert removed.hand == want and removed.codes == [c.code for c in want]
        cards = rng.choices(ALL_CARDS if rng.random() < 0.3 or not hand else hand, k=rng.randint(1, 9))
        taker = WorkingSeat.of(SeatState(hand=hand))
        want = _without(hand, cards)
        assert taker.take(cards) is (want is not None)
        if want is None:
            assert taker.hand == ordered and taker.codes == [c.code for c in ordered]
        else:
            assert taker.hand == want and taker.codes == [c.code for c in want]


# --- mutated records, strict and in report mode ---------------------------------------------

_JUNK = [None, 7, "draw", [], {"type": "draw"}, {"type": "finish", "seat": 0, "groups": [], "discard": "2S"},
         {"type": "discard", "seat": 0, "card": "JK"}, {"type": "draw", "seat": 1, "source": "stock"},
         {"type": "show", "seat": 2, "sets": [["2S", "3S", "4S"]]}, {"type": "tunnela", "seat": 3, "cards": ["KH"] * 3}]


@pytest.mark.parametrize("preset", ["marriage-nepal", "marriage-classic"])
def test_mutated_records_give_the_same_faults_on_the_working_state(preset):
    """Records whose moves are swapped, dropped, doubled, overwritten with junk or extended
    past the end: the working-state replay (no visitor) gives the faults, indexes, applied count,
    outcome and settlement of the move-by-move frozen replay, strict and in report mode."""
    import random

    rng = random.Random(18)
    clean = [p for p in FIXTURES if p.parent.name == preset and not p.stem.startswith("corrupted")]
    checked = 0
    for path in clean[:3]:
        base = json.loads(path.read_text(encoding="utf-8"))
        for _ in range(40):
            rec = copy.deepcopy(base)
            m = rec["moves"]
            for _ in range(rng.randint(1, 3)):
                how, i = rng.choice(["swap", "drop", "double", "junk", "tail"]), rng.randrange(len(m))
                if how == "swap" and i + 1 < len(m):
                    m[i], m[i + 1] = m[i + 1], m[i]
                elif how == "drop":
                    del m[i]
                elif how == "double":
                    m.insert(i, copy.deepcopy(m[i]))
                elif how == "junk":
                    m[i] = copy.deepcopy(rng.choice(_JUNK))
                else:
                    m.append(copy.deepcopy(rng.choice(m)))
            try:
                record = parse_record(rec)
            except TipluError:
                continue
            for strict in (True, False):
                working, frozen = both(record, strict=strict)
                same(working, frozen)
                checked += bool(frozen.faults)
    assert checked >= 100


@pytest.mark.parametrize("preset", ["marriage/nepal", "marriage/classic"])
def test_apply_never_changes_the_frozen_state_it_is_given(preset):
    """The working copy's lists (stock, discards, hands) are its own: applying every move of
    bot rounds to frozen states leaves each given state exactly as it was."""
    from replay.fairness import hand_randomness

    rs = resolve(preset)
    eng = MarriageEngine(rs)
    for k in range(4):
        r = hand_randomness(bytes([k, 9]) * 16, f"f-{k}", rs, [bytes([k, s]) * 8 for s in range(4)])
        state = eng.start(r, dealer=first_dealer(4))
        rng = Stream(bytes([k + 1]) * 32, bytes(32), "bot")
        while not eng.is_over(state):
            before = json.dumps(state.to_json())
            move = choose_move(eng, state, rng)
            after = eng.apply(state, move)
            assert json.dumps(state.to_json()) == before and after is not state
            state = after


def _fields(work):
    """Every field of a working round and of its seats, and each seat's type and codes."""
    from dataclasses import fields

    out = {f.name: getattr(work, f.name) for f in fields(work) if f.name != "seats"}
    out["seats"] = [(type(s), s.codes, {f.name: getattr(s, f.name) for f in fields(s)}) for s in work.seats]
    return out


@pytest.mark.parametrize("preset", ["marriage/nepal", "marriage/classic"])
def test_a_round_dealt_straight_into_a_working_state_is_the_copied_one(preset):
    """``start_working`` (the deal straight into a working state) holds what
    ``working(start(...))`` holds, field by field, every seat thawed as the first move of each
    seat would thaw it -- for every dealer, both directions (MN-6, MC-12, MC-33)."""
    from replay.fairness import hand_randomness
    from replay.marriage.state import WorkingSeat

    for direction in ("clockwise", "anticlockwise"):
        rs = resolve(preset, {"direction": direction}) if direction != resolve(preset)["direction"] else resolve(preset)
        eng = MarriageEngine(rs)
        for k in range(12):
            make = lambda: hand_randomness(bytes([k, 3]) * 16, f"s-{k}", rs, [bytes([k, s]) * 8 for s in range(4)])  # noqa: E731, B023
            dealer = k % 4
            direct = eng.start_working(make(), dealer=dealer)
            copied = eng.working(eng.start(make(), dealer=dealer))
            for i in range(4):
                copied.thaw(i)
            assert all(type(s) is WorkingSeat for s in direct.seats)
            assert _fields(direct) == _fields(copied) and direct.freeze() == copied.freeze()
            assert direct.randomness is not None and direct.freeze() == eng.start(make(), dealer=dealer)
    with pytest.raises(TipluError):
        eng.start_working(make(), dealer=0, carry=1)


def test_a_replay_without_a_visitor_deals_into_the_working_state(monkeypatch):
    made = []
    real = MarriageEngine.start_working
    monkeypatch.setattr(MarriageEngine, "start_working", lambda self, *a, **k: made.append(1) or real(self, *a, **k))
    path = next(p for p in FIXTURES if p.parent.name == "marriage-classic" and not p.stem.startswith("corrupted"))
    record = parse_record(json.loads(path.read_text(encoding="utf-8")))
    assert not replay_record(record).faults and made == [1]
    assert not replay_record(record, visit=lambda *a: None).faults and made == [1]
