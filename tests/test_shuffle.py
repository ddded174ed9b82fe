from collections import Counter

from hypothesis import given, settings, strategies as st

from replay.fairness import hand_randomness
from replay.rulesets import PRESETS, allowed_players, resolve
from replay.shoes import canonical_shoe

SEEDS = st.binary(min_size=32, max_size=32)
PSEED = st.binary(min_size=16, max_size=64)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PRESETS), SEEDS, st.data())
def test_shuffle_is_a_deterministic_permutation(preset, server, data):
    rs = resolve(preset)
    n = data.draw(st.sampled_from(allowed_players(rs)))
    seeds = data.draw(st.lists(PSEED, min_size=n, max_size=n))
    a = hand_randomness(server, "hand-1", rs, seeds).shoe()
    b = hand_randomness(server, "hand-1", rs, seeds).shoe()
    assert a == b
    assert Counter(a) == Counter(canonical_shoe(rs, n))


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.lists(PSEED, min_size=4, max_size=4), st.data())
def test_any_single_input_byte_changes_the_deck(server, seeds, data):
    rs = resolve("kitti")
    base = hand_randomness(server, "hand-1", rs, seeds).shoe()
    which = data.draw(st.sampled_from(["server", "seed", "hand", "ruleset"]))
    if which == "server":
        i = data.draw(st.integers(0, 31))
        server = server[:i] + bytes([server[i] ^ data.draw(st.integers(1, 255))]) + server[i + 1:]
    elif which == "seed":
        s = data.draw(st.integers(0, 3))
        i = data.draw(st.integers(0, len(seeds[s]) - 1))
        b = seeds[s]
        seeds = seeds[:s] + [b[:i] + bytes([b[i] ^ data.draw(st.integers(1, 255))]) + b[i + 1:]] + seeds[s + 1:]
    elif which == "hand":
        return_hand = "hand-2"
        assert hand_randomness(server, return_hand, rs, seeds).shoe() != base
        return
    else:
        rs = resolve("kitti", {"win_rule": "consecutive"})
    assert hand_randomness(server, "hand-1", rs, seeds).shoe() != base
