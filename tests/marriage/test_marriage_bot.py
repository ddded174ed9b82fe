"""The seeded bot: it finishes rounds, it is reproducible, and any game it plays replays
clean through a fresh engine from its JSON move list."""
import json
import statistics

from hypothesis import given, settings, strategies as st

from replay.fairness import hand_randomness
from replay.rulesets import resolve
from replay.stream import Stream
from audit.operator.sim.bots.marriage import choose_move
from replay.marriage.engine import MarriageEngine, first_dealer
from replay.marriage.moves import Discard, Draw, parse_move_text

PRESETS = ("marriage/nepal", "marriage/classic")
ROUNDS = 40


def play(preset, seed: bytes, n=4, dealer=None, overrides=None):
    """One bot round: the final state, the JSON moves and the randomness."""
    rs = resolve(preset, overrides)
    eng = MarriageEngine(rs)
    r = hand_randomness(seed, "bot-" + seed.hex()[:8], rs, [seed[:16] + bytes([s]) for s in range(n)])
    state = eng.start(r, dealer=first_dealer(n) if dealer is None else dealer)
    rng = Stream(seed, bytes(32), "bot")
    moves = []
    while not eng.is_over(state):
        move = choose_move(eng, state, rng)
        moves.append(json.dumps(move.to_json()))
        state = eng.apply(state, move)
    return eng, state, moves, r


def replay_moves(preset, r, moves, dealer, overrides=None):
    eng = MarriageEngine(resolve(preset, overrides))
    state = eng.start(r, dealer=dealer)
    for text in moves:
        move = eng.parse_move(json.loads(text))
        assert parse_move_text(str(move)) == move
        state = eng.apply(state, move)
    return eng, state


# rules D-7, D-10: at 4 players at least 90% of bot rounds end with a finish, not void
def test_bot_rounds_mostly_finish():
    for preset in PRESETS:
        finished, lengths, dublee, autos = 0, [], 0, 0
        for k in range(ROUNDS):
            eng, state, moves, _ = play(preset, bytes([k, 1]) * 16)
            finished += state.winner is not None
            dublee += bool(state.finish and state.finish.dublee)
            autos += sum('"auto": true' in m for m in moves)
            lengths.append(state.turns)
            out = eng.outcome(state)
            assert sum(out.net_points) == 0
        assert finished >= 0.9 * ROUNDS, (preset, finished)
        assert autos > 0                        # the bot sometimes times out
        assert 5 <= statistics.median(lengths) <= 200


# property: any bot game replays clean through a fresh engine from its JSON move list
@settings(max_examples=12, deadline=None)
@given(st.sampled_from(PRESETS), st.binary(min_size=32, max_size=32), st.integers(2, 5), st.data())
def test_bot_games_replay_clean(preset, seed, n, data):
    dealer = data.draw(st.integers(0, n - 1))
    see = data.draw(st.sampled_from(["after_discard", "immediately"]))
    overrides = {"see_maal": see}
    eng, state, moves, r = play(preset, seed, n, dealer, overrides)
    eng2, again = replay_moves(preset, r, moves, dealer, overrides)
    assert eng2.is_over(again)
    assert again.to_json() == state.to_json()
    assert eng2.outcome(again) == eng.outcome(state)


def test_bot_is_reproducible():
    _, a, moves_a, _ = play("marriage/nepal", b"\x05" * 32)
    _, b, moves_b, _ = play("marriage/nepal", b"\x05" * 32)
    assert moves_a == moves_b and a.to_json() == b.to_json()


# An auto-played turn draws from the stock and discards the card drawn, both flagged.
def test_auto_play_discards_the_card_drawn():
    for k in range(6):
        _, _, moves, _ = play("marriage/classic", bytes([k, 9]) * 16)
        decoded = [json.loads(m) for m in moves]
        for i, m in enumerate(decoded):
            if m.get("auto") and m["type"] == "draw":
                nxt = decoded[i + 1]
                assert m["source"] == "stock" and nxt["type"] == "discard" and nxt.get("auto")
                return
    raise AssertionError("no auto-played turn in six rounds")


def test_bot_moves_are_always_among_what_apply_accepts_and_flags_roundtrip():
    eng, state, moves, _ = play("marriage/classic", b"\x11" * 32)
    kinds = {json.loads(m)["type"] for m in moves}
    assert {"draw", "discard", "finish"} <= kinds
    assert isinstance(eng.parse_move({"type": "draw", "seat": 0, "source": "stock", "auto": True}), Draw)
    assert eng.parse_move(Discard(1, state.discards[-1], auto=True).to_json()).auto


# rules MC-14, D-7: a bot record with one move corrupted no longer replays: the engine
# names the broken rule (or the record no longer parses)
def test_corrupted_records_are_refused():
    from replay.errors import IllegalMoveError, MalformedError
    preset, seed = "marriage/classic", b"\x21" * 32
    _, state, moves, r = play(preset, seed)
    decoded = [json.loads(m) for m in moves]
    i_discard = next(i for i, m in enumerate(decoded) if m["type"] == "discard")
    i_finish = len(decoded) - 1
    assert decoded[i_finish]["type"] == "finish"
    mutations = []
    m = dict(decoded[i_discard]); m["seat"] = (m["seat"] + 1) % 4; mutations.append((i_discard, m))
    i_stock = next(i for i, m in enumerate(decoded) if m["type"] == "draw" and m["source"] == "stock")
    m = dict(decoded[i_stock]); m["card"] = "MC"; mutations.append((i_stock, m))   # no MC in classic
    m = dict(decoded[i_finish]); m["groups"] = m["groups"][:-1]; mutations.append((i_finish, m))
    m = dict(decoded[i_finish]); m["discard"] = m["groups"][0][0]; mutations.append((i_finish, m))
    m = dict(decoded[i_discard]); m["type"] = "jump"; mutations.append((i_discard, m))
    for index, bad in mutations:
        record = [json.dumps(x) for x in decoded]
        record[index] = json.dumps(bad)
        try:
            replay_moves(preset, r, record, dealer=first_dealer(4))
        except (IllegalMoveError, MalformedError):
            continue
        raise AssertionError(f"corrupted move {index} replayed: {bad}")
