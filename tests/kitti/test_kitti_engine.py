"""The Kitti engine, its moves and the bot: K-1 ... K-7, K-19 ... K-21, D-12, D-14, D-15."""
import hashlib
from dataclasses import dataclass

import pytest
from hypothesis import given, settings, strategies as st

from replay.cards import STANDARD, parse_cards
from replay.deal import deal as deal_shoe
from replay.errors import IllegalMoveError, MalformedError, RulesetError
from replay.fairness import hand_randomness
from replay.game import engine_for
from audit.operator.sim.bots.kitti import choose_move
from replay.kitti.engine import KittiEngine
from replay.kitti.moves import Arrange, Fold, parse_move, parse_move_text
from replay.kitti.strategy import default_arrangement
from replay.kitti.table import TableState, play_deal
from replay.rulesets import resolve
from replay.settlement import settle

RS = resolve("kitti")


def randomness(n=4, seed=b"s", hand="h-1", rs=RS):
    return hand_randomness(hashlib.sha256(seed).digest(), hand, rs, [bytes([i]) * 16 for i in range(n)])


def shoe_for(hands, dealer):
    """A shoe that deals exactly ``hands`` (seat order) when ``dealer`` deals (one at a time, left first)."""
    n = len(hands)
    order = [(dealer + k) % n for k in range(1, n + 1)]
    shoe = [hands[seat][j] for j in range(9) for seat in order]
    rest = [c for c in STANDARD if c not in shoe]
    return shoe + rest


@dataclass
class FixedRandomness:
    """Stands in for HandRandomness with chosen shoes (the engine uses n_seats, deal, redeal)."""
    shoes: list
    n_seats: int
    ruleset: object = RS

    def deal(self, dealer):
        return deal_shoe(self.ruleset, self.shoes[0], self.n_seats, dealer)

    def redeal(self, k):
        return tuple(self.shoes[k])


def test_registry_and_start():
    # rules K-1, K-4, D-12: nine cards each, dealt from the dealer's left, from one deck
    engine = engine_for(RS)
    assert isinstance(engine, KittiEngine)
    r = randomness(4)
    state = engine.start(r, dealer=2)
    shoe = r.shoe()
    assert state.hands[3] == tuple(shoe[0:36:4])           # seat 3 is on dealer 2's left
    assert all(len(h) == 9 for h in state.hands)
    assert len({c for h in state.hands for c in h}) == 36
    with pytest.raises(RulesetError, match=r"^Kitti is played by 2-5 players, not 6 \(D-12\)$"):  # rule D-12: 2-5 players
        engine.start(randomness(6), dealer=0)
    with pytest.raises(RulesetError, match=r"^Kitti deals from a kitti hand's randomness, not a rummy13 hand's$"):
        engine.start(randomness(6, rs=resolve("rummy13")), dealer=0)


def test_speaking_order_starts_on_the_dealers_right():
    # rule K-4: dealer 1 at a table of 4: right is seat 0, then 3, then 2, the dealer last
    engine = KittiEngine(RS)
    state = engine.start(randomness(4, seed=b"order"), dealer=1)
    seen = []
    while not engine.is_over(state):
        seat = engine.to_move(state)
        seen.append(seat)
        state = engine.apply(state, Arrange(seat, default_arrangement(state.hands[seat], engine.ranker)))
    assert seen == [0, 3, 2, 1]
    assert engine.to_move(state) is None and engine.legal_moves(state) == []


def test_legal_moves_are_fold_and_280_arrangements():
    # rules K-2, K-7
    engine = KittiEngine(RS)
    state = engine.start(randomness(3), dealer=0)
    moves = engine.legal_moves(state)
    assert moves[0] == Fold(2) and len(moves) == 281
    assert all(isinstance(m, Arrange) and m.seat == 2 for m in moves[1:])


def test_apply_rejects_with_the_rule_and_never_mutates():
    # rules K-4, K-6, K-2, K-19
    hands = [parse_cards("AS AH AD KS QS JS 9C 9D 2H"), parse_cards("KH KD KC 7S 6S 5S JH TD 2C")]
    engine = KittiEngine(RS)
    state = engine.start(FixedRandomness([shoe_for(hands, 0)], 2), dealer=0)
    assert engine.to_move(state) == 1                       # dealer 0's right at a table of 2
    good = (parse_cards("KH KD KC"), parse_cards("7S 6S 5S"), parse_cards("JH TD 2C"))
    with pytest.raises(IllegalMoveError, match=r"^seat 1 speaks now, not seat 0 \(rule K-4\)$") as e:
        engine.apply(state, Fold(0))
    assert e.value.rule == "K-4"
    with pytest.raises(IllegalMoveError, match=r"^sets must be placed strongest first \(rule K-6\)$") as e:
        engine.apply(state, Arrange(1, (good[1], good[0], good[2])))
    assert e.value.rule == "K-6"
    with pytest.raises(IllegalMoveError, match=r"^card 2H is not in the player's hand \(rule K-2\)$") as e:                # a card not held
        engine.apply(state, Arrange(1, (good[0], good[1], parse_cards("JH TD 2H"))))
    assert e.value.rule == "K-2"
    with pytest.raises(IllegalMoveError, match=r"^card KC is used twice \(rule K-2\)$") as e:                # a card used twice
        engine.apply(state, Arrange(1, (good[0], good[1], parse_cards("JH TD KC"))))
    assert e.value.rule == "K-2"
    with pytest.raises(IllegalMoveError, match=r"^an arrangement is exactly three sets \(rule K-2\)$") as e:                # wrong count
        engine.apply(state, Arrange(1, (good[0], good[1])))
    assert e.value.rule == "K-2"
    after = engine.apply(state, Fold(1))
    assert state.moves == () and after.moves == (Fold(1),)
    assert engine.is_over(after)                 # rule D-15: one player left
    with pytest.raises(IllegalMoveError, match=r"^the deal is over: everyone has spoken \(rule K-19\)$") as e:
        engine.apply(after, Fold(0))
    assert e.value.rule == "K-19"
    assert engine.apply(state, Arrange(1, good)).moves == (Arrange(1, good),)


def test_uncontested_player_takes_the_pot_without_speaking():
    # rule D-15, K-5
    engine = KittiEngine(RS)
    state = engine.start(randomness(3, seed=b"u"), dealer=0, pot_before=4)
    state = engine.apply(state, Fold(2))
    state = engine.apply(state, Fold(1))
    assert engine.is_over(state)
    out = engine.outcome(state)
    assert out.winner == 0 and out.net_points == (-1 + 7, -1, -1) and out.pot_delta_points == -4
    assert out.detail["reason"] == "uncontested" and out.points == (0, 0, 0)


def test_timeout_is_the_default_arrangement_and_checked():
    # docs/kitti.md (timeouts): an auto move must be the default arrangement
    engine = KittiEngine(RS)
    state = engine.start(randomness(2, seed=b"t"), dealer=0)
    seat = engine.to_move(state)
    best = default_arrangement(state.hands[seat], engine.ranker)
    ok = engine.apply(state, Arrange(seat, best, auto=True))
    assert ok.moves[-1].auto
    other = next(m for m in engine.legal_moves(state)[1:]
                 if {frozenset(s) for s in m.sets} != {frozenset(s) for s in best})
    with pytest.raises(IllegalMoveError, match=r"^a timed-out seat plays the default arrangement \(docs/kitti\.md\)$"):
        engine.apply(state, Arrange(seat, other.sets, auto=True))
    engine.apply(state, other)  # the same arrangement chosen by the player is fine


def test_four_of_a_kind_is_shown_at_once():
    # rules K-20, D-17: the deal is over before anyone speaks
    hands = [parse_cards("2S 2H 2D 2C 7S 8D 9C JH KC"), parse_cards("AS AH AD KS QS JS 9H 9D 3H")]
    engine = KittiEngine(RS)
    state = engine.start(FixedRandomness([shoe_for(hands, 0)], 2), dealer=0)
    assert engine.is_over(state) and engine.to_move(state) is None
    out = engine.outcome(state)
    assert out.winner == 0 and out.net_points == (1, -1)
    assert out.detail["four_of_a_kind"] == {"seat": 0, "rank": 2}
    with pytest.raises(IllegalMoveError, match=r"^four of a kind was shown at once: the deal is decided \(rule K-20\)$") as e:
        engine.apply(state, Fold(1))
    assert e.value.rule == "K-20"


FOUR_PAIRS = parse_cards("2S 2H 3S 3H 4S 4H 5S 5H 9C")
PLAIN = parse_cards("AS AH AD KS QS JS TD TC 6D")


def test_four_pairs_redeal_inside_the_hand_only_when_enabled():
    # rules K-21, D-14, D-3: void deal -> everyone stakes again, redeal(1) is dealt
    second = [parse_cards("AS KH 7C 8C 9D 2D 3D 4C 6S"), parse_cards("KD QD JD 7H 7D 5C 6C TH TS")]
    shoes = [shoe_for([FOUR_PAIRS, PLAIN], 1), shoe_for(second, 1)]
    on = KittiEngine(resolve("kitti", {"four_pairs_void": True}))
    state = on.start(FixedRandomness(shoes, 2, on.ruleset), dealer=1, pot_before=2)
    assert state.redeals == 1 and state.hands == tuple(tuple(h) for h in second)
    while not on.is_over(state):
        state = on.apply(state, on.legal_moves(state)[1])
    out = on.outcome(state)
    assert out.detail["voided_deals"][0]["four_pairs"] == [0]
    assert [b["stakes"] for b in out.breakdown] == [2, 2]      # staked for two deals
    assert sum(out.net_points) + out.pot_delta_points == 0
    off = KittiEngine(RS)
    state = off.start(FixedRandomness(shoes, 2), dealer=1)
    assert state.redeals == 0 and state.hands[0] == FOUR_PAIRS


def test_void_after_too_many_redeals_keeps_the_pot():
    # rules K-21, D-14
    shoes = [shoe_for([FOUR_PAIRS, PLAIN], 0)] * 30
    on = KittiEngine(resolve("kitti", {"four_pairs_void": True}))
    state = on.start(FixedRandomness(shoes, 2, on.ruleset), dealer=0, pot_before=3)
    assert on.is_over(state)
    out = on.outcome(state)
    assert out.winner is None and out.detail["void"] is True
    assert out.pot_delta_points == 2 * 21 and out.net_points == (-21, -21)


def test_outcome_breakdown():
    # rules K-3, K-17, K-19: once placed, the deal settles itself
    hands = [parse_cards("AS AH AD KS QS JS 9C 9D 2H"), parse_cards("KH KD KC 7S 6S 5S JH TD 2C"),
             parse_cards("3S 4D 8H 8S TH QC 5C 6D 7D")]
    engine = KittiEngine(RS)
    state = engine.start(FixedRandomness([shoe_for(hands, 2)], 3), dealer=2)
    state = engine.apply(state, Fold(1))
    s0 = (parse_cards("AS AH AD"), parse_cards("KS QS JS"), parse_cards("9C 9D 2H"))
    state = engine.apply(state, Arrange(0, s0))
    state = engine.apply(state, Arrange(2, (parse_cards("7D 6D 5C"), parse_cards("8H 8S QC"),
                                            parse_cards("TH 4D 3S"))))
    out = engine.outcome(state)
    assert out.points == (3, 0, 0) and out.winner == 0
    assert out.net_points == (-1 + 3 + 1, -1, -1 - 1)         # salami from seat 2 only (seat 1 folded)
    assert out.breakdown[0]["classes"] == ["trail", "pure_sequence", "pair"]
    assert out.breakdown[0]["rounds"] == [1, 2, 3] and out.breakdown[1]["folded"]
    assert out.detail["salami"] is True


MOVES = st.one_of(
    st.builds(Fold, st.integers(0, 4)),
    st.builds(lambda seat, cards, auto: Arrange(seat, (tuple(cards[0:3]), tuple(cards[3:6]), tuple(cards[6:9])), auto),
              st.integers(0, 4), st.lists(st.sampled_from(STANDARD), min_size=9, max_size=9, unique=True),
              st.booleans()))


@given(MOVES)
def test_moves_round_trip(move):
    assert parse_move(move.to_json()) == move
    assert parse_move_text(str(move)) == move
    assert KittiEngine(RS).parse_move(move.to_json()) == move


@pytest.mark.parametrize("bad", [{"type": "fold"}, {"type": "fold", "seat": -1}, {"type": "hit", "seat": 0},
                                 {"type": "arrange", "seat": 0, "sets": "AS"},
                                 {"type": "arrange", "seat": 0, "sets": [["XX"]]},
                                 {"type": "fold", "seat": 0, "auto": True}])
def test_bad_moves_are_malformed(bad):
    with pytest.raises(MalformedError):
        parse_move(bad)


def bot_table(server, n, deals, settings_):
    rs = resolve("kitti", settings_)
    engine = KittiEngine(rs)
    table = TableState.open(n, point_value="0.25", commission_pct="5")
    moves = []
    for d in range(deals):
        r = hand_randomness(server, f"deal-{d}", rs, [bytes([i]) * 16 for i in range(n)])
        rng = r.stream("bot")
        table, state, s = play_deal(engine, table, r, lambda e, st_: choose_move(e, st_, rng))  # noqa: B023 - called within this iteration
        assert sum(s.nets) + s.commission + s.pot_delta == 0
        moves.append([m.to_json() for m in state.moves])
    return table, moves


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(2, 5),
       st.fixed_dictionaries({"win_rule": st.sampled_from(["two-rounds", "consecutive"]),
                              "four_pairs_void": st.booleans(), "two_three_five": st.booleans(),
                              "sequence_order": st.sampled_from(["akq-high", "a23-high"])}))
def test_bot_tables_settle_to_zero_and_replay(server, n, settings_):
    # rules D-2, D-14: every settlement sums to zero; the bot is reproducible (D-3)
    table, moves = bot_table(server, n, 3, settings_)
    table.check_zero_sum()
    again, moves2 = bot_table(server, n, 3, settings_)
    assert moves == moves2 and again == table
    # every recorded move replays through parse_move + apply
    rs = resolve("kitti", settings_)
    engine = KittiEngine(rs)
    r = hand_randomness(server, "deal-0", rs, [bytes([i]) * 16 for i in range(n)])
    state = engine.start(r, dealer=0)
    for m in moves[0]:
        state = engine.apply(state, engine.parse_move(m))
    assert engine.is_over(state)
    out = engine.outcome(state)
    assert sum(out.net_points) + out.pot_delta_points == 0
    settle(out.net_points, point_value=table.point_value, commission_pct=table.commission_pct,
           pot_delta_points=out.pot_delta_points)


def test_play_op_replays_a_bot_deal_and_locates_illegal_moves():
    # rules K-4, D-1, D-3: the same seeds and moves give the same outcome; a bad move names its index
    from replay.kitti.eval_requests import evaluate
    rs = resolve("kitti")
    server, seeds = bytes(range(32)), [bytes([7 * i + 1]) * 16 for i in range(3)]
    r = hand_randomness(server, "h-9", rs, seeds)
    engine = KittiEngine(rs)
    rng = r.stream("bot")
    _, state, s = play_deal(engine, TableState.open(3, point_value="0.25"), r, lambda e, st_: choose_move(e, st_, rng))
    req = {"op": "play", "server_seed": server.hex(), "player_seeds": [x.hex() for x in seeds],
           "hand_id": "h-9", "dealer": 0, "point_value": "0.25", "moves": [m.to_json() for m in state.moves]}
    out = evaluate(req)
    assert out["to_move"] is None and out["outcome"] == engine.outcome(state).to_json()
    assert out["settlement"] == s.to_json()
    assert out["hands"] == [[str(c) for c in h] for h in state.hands]
    first = engine.to_move(engine.start(r, dealer=0))
    with pytest.raises(IllegalMoveError, match=r"^hand h-9, move 0: seat 2 speaks now, not seat 0 \(rule K-4\)$") as e:
        evaluate({**req, "moves": [{"type": "fold", "seat": (first + 1) % 3}]})
    assert e.value.rule == "K-4" and e.value.move_index == 0 and e.value.hand_id == "h-9"


@pytest.mark.parametrize("override", [{"hand_size": 8}, {"shoe": {"decks": 2, "jokers": 0, "masters": 0}}])
def test_engine_refuses_rulesets_that_are_not_kitti(override):
    # rules K-1, D-12, D-1
    with pytest.raises(RulesetError):
        KittiEngine(resolve("kitti", override))


def test_cli_eval_kitti(tmp_path):
    from click.testing import CliRunner
    from audit.cli import main
    import json
    lines = ['{"op": "rank", "cards": ["AS","KS","QS"]}', '{"op": "rank", "cards": ["AS"]}', "",
             '{"op": "check", "sets": [["2S","3S","4S"],["AS","AH","AD"],["KS","QH","9D"]]}']
    res = CliRunner().invoke(main, ["eval", "kitti"], input="\n".join(lines) + "\n")
    out = [json.loads(x) for x in res.output.splitlines()]
    assert res.exit_code == 1 and len(out) == 3
    assert out[0] == {"class": "pure_sequence", "strength": [5, 12, 0, 0]}
    assert set(out[1]) == {"error"}
    assert out[2]["rule"] == "K-6"          # rule K-6


def test_the_kitti_package_stays_pure():
    # the house rule for replay/: no clock, no `random`/`secrets`, no flask or sqlite
    import pathlib
    import re
    bad = re.compile(r"^\s*(import|from)\s+(random|secrets|time|datetime|flask|sqlite3|sqlite_utils|audit|web)\b", re.M)
    for path in pathlib.Path("replay/kitti").glob("*.py"):
        assert not bad.search(path.read_text(encoding="utf-8")), path


def test_cli_eval_answers_a_line_before_the_input_ends():
    # A program that writes one request and waits must get its answer while stdin stays open
    # (the driver flushes what it has answered before it reads again).
    import json
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "audit.cli", "eval", "kitti"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for cards, cls in ((["AS", "KS", "QS"], "pure_sequence"), (["2H", "2D", "2C"], "trail")):
            proc.stdin.write((json.dumps({"op": "rank", "cards": cards}) + "\n").encode())
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline())["class"] == cls
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert proc.returncode == 0


def test_cli_eval_bad_bytes_and_a_last_line_without_newline():
    from click.testing import CliRunner
    from audit.cli import main
    import json
    data = b'\xff\xfe{"op": "rank"}\n{"op": "rank", "cards": ["AS","KS","QS"]}'
    res = CliRunner().invoke(main, ["eval", "kitti"], input=data)
    out = [json.loads(x) for x in res.output.splitlines()]
    assert res.exit_code == 1 and len(out) == 2
    assert out[0]["error"].startswith("not UTF-8")
    assert out[1] == {"class": "pure_sequence", "strength": [5, 12, 0, 0]}


def test_cli_eval_settings_are_resolved_per_request():
    # rule K-22: the resolved-ruleset cache is keyed by the settings, so each line gets its own
    from audit.cli.evaluate import evaluate_line
    plain = '{"op": "rank", "cards": ["2S","3H","5D"]}'
    special = '{"op": "rank", "cards": ["2S","3H","5D"], "settings": {"two_three_five": true}}'
    assert "special" not in evaluate_line("kitti", plain)
    assert evaluate_line("kitti", special)["special"] == "2-3-5"
    assert "special" not in evaluate_line("kitti", plain)
    assert "error" in evaluate_line("kitti", '{"op": "rank", "cards": ["2S","3H","5D"], "settings": {"nope": 1}}')


def test_cli_eval_writes_what_json_dumps_writes():
    # the driver's compact encoder (the C encoder made once) against json.dumps, byte for byte
    import json
    from audit.cli.evaluate import _dumps, answer_lines, evaluate_line
    samples = [{"class": "trail", "strength": [6, 14, 0, 0]}, {"error": "not a card: 'Ä♠' \u202e\n\"x\""},
               {"valid": False, "rule": None, "n": [1, [2, [3]], {"k": True}]}, {}, {"big": 2 ** 70, "neg": -1}]
    for obj in samples:
        assert _dumps(obj) == json.dumps(obj, separators=(",", ":"))
    lines = ['{"op": "rank", "cards": ["AS","KS","QS"]}', '{"op": "rank", "cards": ["Ä"]}', "  ", "[1]",
             '{"op": "splits", "cards": ["AS","KS","QS","2H","2D","9C","TC","5D","7H"]}', "{bad"]
    data, failed = answer_lines("kitti", [x.encode() for x in lines])
    expected = [json.dumps(evaluate_line("kitti", x), separators=(",", ":")) for x in lines if x.strip()]
    assert data.decode() == "\n".join(expected) + "\n" and failed


def test_the_result_is_settle_deal_of_the_dealt_hands():
    # rules K-20, K-21, D-17: the engine hands its cards to settle_deal only when the deal
    # found four of a kind or four pairs; every result must be that of the full hands
    from replay.fairness import hand_randomness
    from replay.kitti.showdown import settle_deal

    def full(engine, state):
        spoken = state.spoken
        return settle_deal(engine.ruleset, hands=state.hands,
                           arranged=[m.sets if isinstance(m, Arrange) else None for m in map(spoken.get, range(state.n_seats))],
                           folded=[isinstance(spoken.get(i), Fold) for i in range(state.n_seats)],
                           pot_before=state.pot_before, dealer=state.dealer, deals=1 + state.redeals)

    cases = []
    for rs in (RS, resolve("kitti", {"four_pairs_void": True})):
        engine = KittiEngine(rs)
        for k in range(40):
            r = hand_randomness(bytes([k]) * 32, f"res-{k}", rs, [bytes([k, s]) * 8 for s in range(3)])
            cases.append((engine, engine.start(r, dealer=k % 3)))
    on = KittiEngine(resolve("kitti", {"four_pairs_void": True}))
    cases.append((on, on.start(FixedRandomness([shoe_for([FOUR_PAIRS, PLAIN], 0)] * 30, 2, on.ruleset), dealer=0)))
    quads = [parse_cards("2S 2H 2D 2C KS QS JS 9C 9D"), PLAIN]
    cases.append((KittiEngine(RS), KittiEngine(RS).start(FixedRandomness([shoe_for(quads, 1)], 2), dealer=1)))
    for engine, state in cases:
        while not engine.is_over(state):
            state = engine.apply(state, engine.legal_moves(state)[1 + len(state.moves) % 3])
        assert engine.result(state) == full(engine, state)
    assert any(s.four for _, s in cases) and any(s.void for _, s in cases)


@pytest.mark.parametrize("other", ["rummy13", "marriage/nepal"])
def test_another_games_randomness_is_refused(other):  # rules K-1, D-12
    # found beside mypy's finding in the rummy engine: given another game's randomness at a
    # table size both allow, the engine dealt that game's hands (13 or 21 cards each)
    with pytest.raises(RulesetError, match=f"Kitti deals from a kitti hand's randomness, not a {other.split('/')[0]} hand's"):
        KittiEngine(RS).start(randomness(4, rs=resolve(other)), dealer=0)
