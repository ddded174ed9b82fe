"""A rummy deal is fixed by the committed seeds and replays exactly (R-21, R-22, D-1, D-3)."""
import pytest

from replay.errors import CommitmentMismatchError
from replay.fairness import (commit_player_seed, commit_server_seed, hand_randomness,
                             verify_player_seed, verify_server_seed)
from replay.game import engine_for
from replay.rulesets import resolve
from audit.operator.sim.bots.rummy13 import choose_move
from replay.stream import Stream

SERVER = bytes.fromhex("11" * 32)
SEEDS = [bytes([i]) * 20 for i in range(1, 5)]


def deal(server=SERVER, seeds=SEEDS, rs=None, hand_id="deal-7"):
    rs = rs or resolve("rummy13")
    engine = engine_for(rs)
    return engine, engine.start(hand_randomness(server, hand_id, rs, seeds), dealer=3)


def test_deal_is_reproducible_from_published_seeds():  # rules
    # before the deal: the server's commitment and every player's own seed commitment
    commitment = commit_server_seed(SERVER)
    player_commitments = [commit_player_seed("deal-7", i, s) for i, s in enumerate(SEEDS)]
    _, state = deal()
    # after the deal: the revealed seeds match and the deal replays card for card
    verify_server_seed(SERVER, commitment)
    for i, s in enumerate(SEEDS):
        verify_player_seed("deal-7", i, s, player_commitments[i])
    _, again = deal()
    assert (again.hands, again.indicator, again.open_pile, again.closed) == \
        (state.hands, state.indicator, state.open_pile, state.closed)


def test_a_changed_seed_is_caught_or_changes_the_deal():  # rules
    commitment = commit_server_seed(SERVER)
    other = bytes.fromhex("12" + "11" * 31)
    with pytest.raises(CommitmentMismatchError):
        verify_server_seed(other, commitment)
    _, a = deal()
    _, b = deal(seeds=SEEDS[:3] + [bytes([9]) * 20])  # one player's seed differs
    assert a.hands != b.hands


def test_ruleset_is_bound_into_the_deal():  # rule D-1
    _, a = deal()
    _, b = deal(rs=resolve("rummy13", {"joker_pickup": False}))
    assert a.hands != b.hands


def test_whole_bot_deal_replays_bit_for_bit():  # rules D-3, R-22
    def play():
        engine, s = deal()
        rng = Stream(SERVER, bytes(32), "bot")
        moves = []
        while not engine.is_over(s):
            m = choose_move(engine, s, rng)
            moves.append(m.to_json())
            s = engine.apply(s, m)
        return moves, engine.outcome(s).to_json()

    moves, outcome = play()
    assert (moves, outcome) == play()
    # an auditor replays the record from the moves alone
    engine, s = deal()
    for m in moves:
        s = engine.apply(s, engine.parse_move(m))
    assert engine.outcome(s).to_json() == outcome
