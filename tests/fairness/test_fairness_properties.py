"""Hypothesis properties of the v1 shuffle, the commitments and rejection sampling."""
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from replay.errors import CommitmentMismatchError, MalformedError
from replay.fairness import (commit_player_seed, commit_server_seed, hand_randomness, parse_player_seed,
                             parse_server_seed, verify_player_seed, verify_server_seed)
from replay.rulesets import PRESETS, allowed_players, resolve
from replay.shoes import canonical_shoe
from replay.stream import Stream

SEEDS = st.binary(min_size=32, max_size=32)
PSEED = st.binary(min_size=16, max_size=64)
HAND_IDS = st.text(min_size=1, max_size=40)
ASCII_IDS = st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=40)


def flip(data: bytes, i: int, mask: int) -> bytes:
    return data[:i] + bytes([data[i] ^ mask]) + data[i + 1:]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PRESETS), SEEDS, HAND_IDS, st.data())
def test_shuffle_is_a_deterministic_permutation(preset, server, hand_id, data):  # rules R-22, D-3
    rs = resolve(preset)
    n = data.draw(st.sampled_from(allowed_players(rs)))
    seeds = data.draw(st.lists(PSEED, min_size=n, max_size=n))
    a = hand_randomness(server, hand_id, rs, seeds).shoe()
    b = hand_randomness(server, hand_id, rs, seeds).shoe()
    assert a == b
    assert Counter(a) == Counter(canonical_shoe(rs, n))


@settings(max_examples=100, deadline=None)
@given(SEEDS, st.lists(PSEED, min_size=4, max_size=4), ASCII_IDS, st.data())
def test_any_single_input_byte_changes_the_deck(server, seeds, hand_id, data):  # rules R-21, D-1
    rs = resolve("kitti")
    base = hand_randomness(server, hand_id, rs, seeds).shoe()
    which = data.draw(st.sampled_from(["server", "seed", "hand", "ruleset"]))
    if which == "server":
        server = flip(server, data.draw(st.integers(0, 31)), data.draw(st.integers(1, 255)))
    elif which == "seed":
        s = data.draw(st.integers(0, 3))
        seeds = list(seeds)
        seeds[s] = flip(seeds[s], data.draw(st.integers(0, len(seeds[s]) - 1)), data.draw(st.integers(1, 255)))
    elif which == "hand":
        raw = flip(hand_id.encode(), data.draw(st.integers(0, len(hand_id) - 1)), data.draw(st.integers(1, 127)))
        hand_id = raw.decode()
    else:  # D-1: a different rule binds a different deck
        rs = resolve("kitti", data.draw(st.sampled_from([{"win_rule": "consecutive"}, {"stake": 2},
                                                          {"two_three_five": True}])))
    assert hand_randomness(server, hand_id, rs, seeds).shoe() != base


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.lists(PSEED, min_size=3, max_size=3))
def test_seat_order_of_the_seeds_matters(server, seeds):  # rule R-21
    rs = resolve("kitti")
    if seeds[0] != seeds[1]:
        swapped = [seeds[1], seeds[0], seeds[2]]
        assert hand_randomness(server, "h", rs, seeds).shoe() != hand_randomness(server, "h", rs, swapped).shoe()


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.lists(PSEED, min_size=2, max_size=2), st.lists(st.integers(0, 53), max_size=200))
def test_inlined_shuffle_equals_fisher_yates_over_randbelow(server, seeds, items):  # rule D-3
    hr = hand_randomness(server, "h", resolve("kitti"), seeds)
    fast = hr.stream("reshuffle:1").shuffle(items)
    ref, s = list(items), hr.stream("reshuffle:1")
    for i in range(len(ref) - 1, 0, -1):
        j = s.randbelow(i + 1)
        ref[i], ref[j] = ref[j], ref[i]
    assert fast == ref
    assert hr.reshuffle(1, items) == fast


@settings(max_examples=30, deadline=None)
@given(SEEDS, st.lists(PSEED, min_size=2, max_size=2))
def test_sub_streams_are_distinct(server, seeds):  # rule D-3: each event under its own label
    hr = hand_randomness(server, "h", resolve("kitti"), seeds)
    labels = ["deal", "tiplu", "reshuffle:1", "reshuffle:2", "redeal:1", "redeal:2"]
    assert len({hr.stream(label).block(0) for label in labels}) == len(labels)
    assert hr.redeal(1) != hr.shoe() and Counter(hr.redeal(1)) == Counter(hr.shoe())


def test_event_numbers_start_at_one():  # rule D-3
    hr = hand_randomness(bytes(32), "h", resolve("kitti"), [bytes(16), bytes(16)])
    with pytest.raises(ValueError):
        hr.reshuffle(0, [])
    with pytest.raises(ValueError):
        hr.redeal(0)


# --- commitments (R-21) ----------------------------------------------------------------------

@settings(max_examples=50)
@given(SEEDS, st.integers(0, 31), st.integers(1, 255))
def test_server_commitment_verifies_and_mismatches(seed, i, mask):  # rules
    c = commit_server_seed(seed)
    verify_server_seed(seed, c)
    verify_server_seed(seed, c.upper())
    with pytest.raises(CommitmentMismatchError):
        verify_server_seed(flip(seed, i, mask), c)


@settings(max_examples=50)
@given(HAND_IDS, st.integers(0, 7), PSEED)
def test_seat_commitment_binds_hand_seat_and_seed(hand_id, seat, seed):  # rule R-21
    c = commit_player_seed(hand_id, seat, seed)
    verify_player_seed(hand_id, seat, seed, c)
    for args in [(hand_id + "x", seat, seed), (hand_id, seat + 1, seed), (hand_id, seat, seed + b"\0")]:
        with pytest.raises(CommitmentMismatchError):
            verify_player_seed(*args, c)


def test_commitment_mismatch_is_a_value_error():
    with pytest.raises(ValueError):
        verify_server_seed(bytes(32), "00" * 32)


@pytest.mark.parametrize("bad", ["", "zz" * 32, "AB" * 32, "ab" * 31, "ab" * 33, "abc", None, 5])
def test_bad_server_seeds_are_refused_without_echo(bad):
    with pytest.raises(MalformedError) as err:
        parse_server_seed(bad)
    if isinstance(bad, str) and bad:
        assert bad not in str(err.value)


@pytest.mark.parametrize("bad", ["ab" * 15, "ab" * 65, "gg" * 16])
def test_bad_player_seeds_are_refused(bad):
    with pytest.raises(MalformedError) as err:
        parse_player_seed(bad)
    assert bad not in str(err.value)


# --- randbelow: unbiased by construction ------------------------------------------------------

class FakeWords(Stream):
    """A Stream whose words come from a list (to probe the rejection rule exactly)."""

    def __init__(self, words):
        super().__init__(bytes(32), bytes(32), "fake")
        self._fake = list(words)

    def next_u32(self):
        return self._fake.pop(0)


@pytest.mark.parametrize("n", list(range(1, 65)) + [100, 106, 159, 160, 1000, 2**31 + 1, 2**32 - 1, 2**32])
def test_rejection_limit_is_the_largest_multiple_of_n(n):
    two32 = 2**32
    limit = two32 - two32 % n
    assert limit % n == 0 and two32 - n < limit <= two32
    # Every word below the limit is accepted; the residues 0..n-1 each have limit // n words.
    assert FakeWords([limit - 1]).randbelow(n) == (limit - 1) % n
    assert FakeWords([0]).randbelow(n) == 0
    # Every word from the limit up is rejected (exhaustively for small n) and the next word used.
    for w in range(limit, two32) if n <= 64 else [limit] if limit < two32 else []:
        assert FakeWords([w, 7]).randbelow(n) == 7 % n


def test_randbelow_exhaustive_histogram_on_a_small_word_space():
    """Scale the argument down: with 8-bit words the same rule is exactly uniform."""
    for n in range(1, 40):
        limit = 256 - 256 % n
        counts = Counter(w % n for w in range(256) if w < limit)
        assert set(counts) == set(range(n)) and len(set(counts.values())) == 1


def test_randbelow_range_is_checked():
    s = FakeWords([])
    for bad in (0, -1, 2**32 + 1):
        with pytest.raises(ValueError):
            s.randbelow(bad)


@settings(max_examples=30, deadline=None)
@given(SEEDS, st.lists(PSEED, min_size=4, max_size=4), st.integers(1, 5), st.integers(2, 120))
def test_reshuffle_is_a_replayable_permutation_of_the_discards(server, seeds, k, size):  # rules D-6, D-20, D-3
    hr = hand_randomness(server, "h", resolve("rummy13"), seeds)
    discards = list(hr.shoe()[:size])  # oldest first
    new_stock = hr.reshuffle(k, discards)
    assert Counter(new_stock) == Counter(discards)
    assert new_stock == hand_randomness(server, "h", resolve("rummy13"), seeds).reshuffle(k, discards)
    assert new_stock == hr.stream(f"reshuffle:{k}").shuffle(discards)


@settings(max_examples=20, deadline=None)
@given(SEEDS, st.lists(PSEED, min_size=3, max_size=3), st.integers(1, 4))
def test_redeal_is_a_fresh_shoe_from_its_own_label(server, seeds, k):  # rules K-21, D-3
    rs = resolve("kitti", {"four_pairs_void": True})
    hr = hand_randomness(server, "h", rs, seeds)
    shoe = hr.redeal(k)
    assert Counter(shoe) == Counter(canonical_shoe(rs, 3))
    assert list(shoe) == hr.stream(f"redeal:{k}").shuffle(canonical_shoe(rs, 3))
    assert shoe != hr.redeal(k + 1) and shoe != hr.shoe()
