"""The Rummy records tests/js/test_js_rummy.py replays in Python and in Node: simulated
tables of every rummy13 preset, deals played on until the open pile is reshuffled, tampered
and edited records, detours, jokers thrown to the open pile, chosen tables, the fixture and
conformance records, and random hands for the two solvers."""
from __future__ import annotations

import copy
import json
from datetime import timedelta
from typing import Any

from audit.operator.ledger import Ledger
from audit.operator.sim.archive import OPERATOR, ensure_operator, operator_key_for
from audit.operator.sim.bots.rummy13 import choose_move
from audit.operator.sim.tables import EPOCH, SimStreams, simulate_table
from audit.operator.sim.tamper import MOVE_KINDS, TamperContext, applicable, tamper
from replay.cards import ALL_CARDS
from replay.errors import IllegalMoveError, TipluError
from replay.fairness import hand_randomness
from replay.records import parse_record
from replay.rulesets import PRESETS, preset_spec
from replay.rummy.engine import DISCARD, RummyEngine
from replay.rummy.groups import is_joker
from replay.rummy.moves import Declare, Discard, Drop, Pick
from replay.rummy.solver import solve
from tests.js.node import ROOT

SEED = "js-rummy13"
RUMMY_PRESETS = [p for p in PRESETS if preset_spec(p)["game"] == "rummy13"]
#: (players, overrides, hands) per table, for every rummy13 preset
TABLES = [
    (4, None, 36), (6, None, 30), (8, None, 24),
    (2, {"players": {"allowed": [2, 3, 5, 7]}}, 24),
    (3, {"players": {"allowed": [2, 3, 5, 7]}, "joker_pickup": False, "max_missed_turns": 1}, 24),
    (5, {"players": {"allowed": [5]}, "high_card_points": 11, "first_drop": 25, "middle_drop": 50,
         "wrong_declaration": 99}, 20),
    (7, {"players": {"allowed": [7]}, "joker_pickup": False}, 16),
    (4, {"hand_size": 10}, 10),
    (6, {"hand_size": 7, "shoe_by_players": [{"max_players": 8, "decks": 1, "jokers": 4, "masters": 0}]}, 8),
]
STALLED = 40  # honest deals played on by the stalling strategy (reshuffles)


def _dealt(record: dict[str, Any]) -> tuple[RummyEngine, Any]:
    parsed = parse_record(record)
    engine = RummyEngine(parsed.ruleset)
    randomness = hand_randomness(bytes.fromhex(record["fairness"]["server_seed"]), parsed.hand_id, parsed.ruleset,
                                 [bytes.fromhex(s) for s in record["fairness"]["player_seeds"]])
    return engine, engine.start(randomness, dealer=parsed.table.dealer)


def stalled_moves(record: dict[str, Any], stall_turns: int) -> list[dict[str, Any]]:
    """The record's deal played again: for ``stall_turns`` turns every seat picks the closed
    pile's top card and throws it away (so the closed pile runs out and the open pile is
    reshuffled into it, D-20), then the bots play the deal out."""
    engine, state = _dealt(record)
    rng = SimStreams(SEED).stream(f"stall:{record['hand_id']}")
    moves = []
    while not engine.is_over(state):
        assert len(moves) < 5000
        seat = state.turn
        if state.turns < stall_turns and state.phase == "pick" and state.closed:
            move = Pick(seat, "closed")
        elif state.turns < stall_turns and state.phase == DISCARD and not state.picked_auto:
            move = Discard(seat, state.picked)
        else:
            move = choose_move(engine, state, rng)
        state = engine.apply(state, move)
        moves.append(move.to_json())
    return moves


def _odd_moves(engine: RummyEngine, state: Any) -> list[Any]:
    """Moves for the seat to act, legal or not, that the bots seldom or never play."""
    seat, hand, n = state.turn, state.hands[state.turn], state.n_seats
    top = state.open_pile[-1] if state.open_pile else None
    odd: list[Any] = [Drop(seat), Drop(seat, auto=True), Drop((seat + 1) % n),
                      Pick(seat, "open", top), Pick(seat, "open", top, auto=True), Pick(seat, "closed", auto=True),
                      Pick(seat, "closed", hand[0]), Discard(seat, hand[-1]), Discard(seat, hand[0], auto=True)]
    if state.closed:
        odd.append(Pick(seat, "closed", state.closed[0]))
    sol = solve(hand[1:], state.wild, high=engine.ruleset["high_card_points"])
    odd.append(Declare(seat, hand[0], sol.groups + ((sol.loose,) if sol.loose else ())))
    return odd + engine.legal_moves(state)


def detoured(record: dict[str, Any], k: int) -> dict[str, Any]:
    """The record with one move replaced by another the bots seldom play (a middle drop, an
    open pick of a joker where ``joker_pickup`` forbids it, an automatic turn, a declaration
    as the solver groups the hand, a pick that names the card ...): if Python accepts it, the
    bots play the deal out after it, else the record's own moves follow."""
    engine, state = _dealt(record)
    rng = SimStreams(SEED).stream(f"detour:{record['hand_id']}:{k}")
    moves = record["moves"]
    at = rng.randbelow(len(moves))
    for m in moves[:at]:
        state = engine.apply(state, engine.parse_record_move(m))
    odd = _odd_moves(engine, state)
    move = odd[rng.randbelow(len(odd))]
    out = [*moves[:at], move.to_json()]
    try:
        state = engine.apply(state, move)
    except TipluError:
        return {**record, "moves": out + moves[at + 1:]}
    while not engine.is_over(state):
        move = choose_move(engine, state, rng)
        state = engine.apply(state, move)
        out.append(move.to_json())
    return {**record, "moves": out}


def random_hands(count: int) -> list[dict[str, Any]]:
    """Solver requests: hands of 7 to 14 cards from a two-deck shoe, every third one from a
    narrow corner of it (one or two suits, seven ranks, up to four printed jokers), with a
    random wild rank (or none) and card values."""
    rng = SimStreams(SEED).stream("solver-hands")
    out = []
    for i in range(count):
        size = (13, 13, 13, 10, 7, 14)[rng.randbelow(6)]
        if i % 3 == 0:
            suits, lo = 1 + rng.randbelow(2), rng.randbelow(7)
            pool = [c for c in range(52) if c // 13 < suits and lo <= c % 13 < lo + 7] * 2 + [52] * rng.randbelow(5)
        else:
            pool = list(range(52)) * 2 + [52, 52]
        cards = [pool.pop(rng.randbelow(len(pool))) for _ in range(size)]
        indicator = (["JK"] + [f"{r}S" for r in "A23456789TJQK"])[rng.randbelow(14)]
        out.append({"cards": [str(ALL_CARDS[c]) for c in cards], "indicator": indicator,
                    "high": (10, 10, 10, 0, 11)[rng.randbelow(5)]})
    return out


def small_edits(record: dict[str, Any], k: int) -> list[dict[str, Any]]:
    """Edits the simulator's operator does not make: each gives one tampered copy."""
    moves = record["moves"]
    i = (7 * k + 3) % len(moves)
    edits = []

    def edited(change) -> None:
        rec = copy.deepcopy(record)
        change(rec["moves"])
        edits.append(rec)

    edited(lambda ms: ms[i].pop("seat"))                               # malformed: no seat
    edited(lambda ms: ms[i].update(extra=1))                           # malformed: unknown field
    edited(lambda ms: ms[i].update(seat=-1))                           # malformed: negative seat
    edited(lambda ms: ms[i].update(auto="yes"))                        # malformed, or an unknown field
    edited(lambda ms: ms[i].update(seat=ms[i]["seat"] + len(record["table"]["seats"])))  # no such seat
    edited(lambda ms: ms.insert(i, dict(ms[i])))                       # a move played twice
    edited(lambda ms: ms.__setitem__(i, {**ms[i], "auto": True}))      # the clock did not run out (D-23)
    edited(lambda ms: ms.append(dict(ms[-1])))                         # a move after the end
    edited(lambda ms: ms.__delitem__(slice(i, None)))                  # cut short: incomplete
    edited(lambda ms: ms.__setitem__(i, {**ms[i], "type": "drop"}))    # a drop in place of a move
    picks = [j for j, m in enumerate(moves) if m["type"] == "pick" and m.get("source") == "open"]
    if picks:
        j = picks[k % len(picks)]
        edited(lambda ms: ms.__setitem__(j, {**ms[j], "card": "JK" if ms[j]["card"] != "JK" else "AS"}))
        edited(lambda ms: ms[j].pop("card"))                           # an open pick may omit its card
    declares = [j for j, m in enumerate(moves) if m["type"] == "declare"]
    if declares:
        j = declares[-1]
        edited(lambda ms: ms[j].update(finish_card="MC"))              # a finish card not held
        edited(lambda ms: ms[j]["groups"].append([]))                  # an empty group (D-21)
        edited(lambda ms: ms[j]["groups"][0].reverse())                # order inside a group: still valid
        edited(lambda ms: ms[j].update(groups=[sum(ms[j]["groups"], [])]))  # one group of 13: wrong
    return edits


def joker_thrown(record: dict[str, Any]) -> dict[str, Any] | None:
    """The record's deal played by its moves until a seat about to discard holds a joker
    (R-5): it throws the joker away and the next seat picks it from the open pile -- refused
    where ``joker_pickup`` is off (D-24), else the bots play the deal out."""
    engine, state = _dealt(record)
    rng = SimStreams(SEED).stream(f"joker:{record['hand_id']}")
    out = []
    for m in record["moves"]:
        jokers = [c for c in state.hands[state.turn] if is_joker(c, state.wild)]
        if state.phase == DISCARD and not state.picked_auto and jokers:
            throw = Discard(state.turn, jokers[0])
            state = engine.apply(state, throw)
            if engine.is_over(state):
                return None
            pick = Pick(state.turn, "open", jokers[0])
            out += [throw.to_json(), pick.to_json()]
            try:
                state = engine.apply(state, pick)
            except IllegalMoveError:
                return {**record, "moves": out}
            while not engine.is_over(state):
                move = choose_move(engine, state, rng)
                state = engine.apply(state, move)
                out.append(move.to_json())
            return {**record, "moves": out}
        state = engine.apply(state, engine.parse_record_move(m))
        out.append(m)
    return None


def _with(record: dict[str, Any], moves: list[Any], **settings: Any) -> dict[str, Any]:
    rec = copy.deepcopy(record)
    rec["ruleset"]["settings"].update(settings)
    rec["moves"] = [m if isinstance(m, dict) else m.to_json() for m in moves]
    return rec


def chosen_tables(honest: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Deals the bots never reach, from a two-seat record under other settings (the replay
    deals from the record's ruleset, whatever hash the record claims):

    * one deck, no jokers, 25 cards each: the closed pile is empty from the start and the
      open pile too small to refill it (D-20), so only the open card can be picked, by hand
      or by the table (D-23);
    * a shoe with a master card (not a rummy card): a seat that shows it in a group, and a
      deal whose indicator is the master card."""
    base = next(r for r in honest if len(r["table"]["seats"]) == 2)
    bare = {"hand_size": 25, "shoe_by_players": [{"max_players": 8, "decks": 1, "jokers": 0, "masters": 0}]}
    engine, state = _dealt(_with(base, [], **bare))
    assert not state.closed and len(state.open_pile) == 1
    t, u = state.turn, 1 - state.turn
    top, mine = state.open_pile[-1], state.hands[t][0]
    theirs = state.hands[u][0]
    ping_pong = [Pick(t, "open", top), Discard(t, mine), Pick(u, "open", mine), Discard(u, theirs),
                 Pick(t, "open", theirs, auto=True), Discard(t, theirs, auto=True), Pick(u, "open", theirs),
                 Discard(u, state.hands[u][1])]
    out = [_with(base, moves, **bare) for moves in (
        [Pick(t, "closed")],                                         # D-20: nothing to pick
        [Pick(t, "closed", auto=True)],                              # D-23: the table picks the open card
        [Pick(t, "open", top, auto=True), Discard(t, top, auto=True), Pick(u, "closed")],
        [Pick(t, "open", top), Discard(t, mine), Drop(u)],          # first drop: the last player left wins
        ping_pong + [Drop(t)],                                       # middle drop
        ping_pong + [Pick(t, "closed")],
    )]
    masters = {"shoe_by_players": [{"max_players": 8, "decks": 2, "jokers": 2, "masters": 1}]}
    shown = indicator = None
    for k in range(2000):
        rec = _with({**base, "hand_id": f"{base['hand_id']}-mc{k}"}, [], **masters)
        try:
            engine, state = _dealt(rec)
        except TipluError:  # the indicator is the master card: no wild rank can come of it
            indicator = indicator or rec
        else:
            t = state.turn
            held = [str(c) for c in state.hands[t]]
            if shown is None and "MC" in held:
                rest = sorted([*held, str(state.closed[0])], key=lambda c: c != "MC")
                finish = rest.pop()
                rec["moves"] = [Pick(t, "closed").to_json(), {"type": "declare", "seat": t, "finish_card": finish,
                                                            "groups": [rest[:3], rest[3:8], rest[8:]]}]
                shown = rec
        if shown is not None and indicator is not None:
            break
    assert shown is not None and indicator is not None
    return out + [shown, indicator]


def simulate() -> dict[str, list[dict[str, Any]]]:
    """The simulated records by group: honest, stalled (reshuffled), forged (the simulator's
    tampers and the small edits) and detours."""
    honest: list[dict[str, Any]] = []
    forged: list[dict[str, Any]] = []
    with Ledger(":memory:") as ledger:
        ensure_operator(ledger, seed=SEED)
        for p, preset in enumerate(RUMMY_PRESETS):
            for i, (players, overrides, hands) in enumerate(TABLES):
                simulate_table(ledger, preset=preset, players=players, hands=hands, seed=SEED,
                               table_id=f"{preset}-{players}p-t{p}-{i}", operator=OPERATOR, overrides=overrides,
                               start=EPOCH + timedelta(days=10 * p + i), tamper_rate=0.15,
                               on_record=lambda r, kind: (honest if kind is None else forged).append(r))
    ctx = TamperContext(operator_key_for(SEED), SimStreams(SEED).stream("js-tamper"))
    tampered = []
    for k, rec in enumerate(honest[::2]):
        kinds = [kind for kind in MOVE_KINDS if kind in applicable(rec)]
        if kinds:
            tampered.append(tamper(rec, kinds[k % len(kinds)], ctx))
    stalled = []
    for k, rec in enumerate(honest[:STALLED]):
        stalled.append({**rec, "moves": stalled_moves(rec, 60 + 40 * (k % 5))})
    edits = [e for k, rec in enumerate(honest[1::4]) for e in small_edits(rec, k)]
    detours = [detoured(rec, k) for k, rec in enumerate(honest + honest[::2]) if rec["moves"]]
    return {"honest": honest, "stalled": stalled, "forged": forged + tampered + edits, "detours": detours}


def fixture_records() -> list[dict[str, Any]]:
    out = [json.loads(p.read_text()) for p in sorted((ROOT / "fixtures" / "records" / "rummy13").glob("*.json"))]
    for p in sorted((ROOT / "fixtures" / "conformance" / "records").rglob("*.json")):
        try:
            data = json.loads(p.read_text())
        except json.JSONDecodeError:
            continue  # a case of a record cut short (edited/truncated.json): no hand to replay
        if isinstance(data, dict) and isinstance(data.get("ruleset"), dict) and data["ruleset"].get("game") == "rummy13":
            out.append(data)
    return out
