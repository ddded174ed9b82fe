"""Arrangements: K-2, K-6, K-7, D-16."""
import pytest
from hypothesis import given, settings, strategies as st

from replay.cards import STANDARD, parse_cards
from replay.errors import IllegalMoveError
from replay.kitti.arrangement import check_arrangement, count_pairs, four_of_a_kind, splits
from replay.kitti.eval_requests import evaluate
from replay.kitti.ranking import ranker

R = ranker()
HAND = parse_cards("AS KS QS 2H 2D 9C TC 5D 7H")


def sets(text):
    return tuple(parse_cards(s.split()) for s in text.split("/"))


def test_280_distinct_partitions():
    # rule K-7: nine cards split into three sets of three in 9!/(3!^3 3!) = 280 ways
    out = splits(HAND, R)
    assert len(out) == 280
    parts = {frozenset(frozenset(s) for s in a) for a in out}
    assert len(parts) == 280
    for a in out:
        assert sorted(c for s in a for c in s) == sorted(HAND)
        assert all(len(s) == 3 for s in a)


def test_each_split_comes_in_its_forced_order():
    # rules K-6, K-7, D-16: choosing the split fixes the order, strongest first
    for a in splits(HAND, R):
        keys = [R.key_of(s) for s in a]
        assert keys == sorted(keys, reverse=True)
        check_arrangement(a, R, hand=HAND)


def test_a_trail_goes_first():
    # rule K-6: if a trail forms it goes in the first round, whether that suits the player or not
    hand = parse_cards("AS AH AD KS QS JS 2C 3C 5D")
    for a in splits(hand, R):
        if set(parse_cards("AS AH AD")) in [set(s) for s in a]:
            assert set(a[0]) == set(parse_cards("AS AH AD"))
    with pytest.raises(IllegalMoveError) as e:
        check_arrangement(sets("KS QS JS / AS AH AD / 2C 3C 5D"), R, hand=hand)
    assert e.value.rule == "K-6"


@pytest.mark.parametrize("text, rule, why", [
    ("2S 3S 4S / AS AH AD / KS QH 9D", "K-6", "weaker set first"),             # rule K-6
    ("AS AH AD / KS QH 9D / 2S 3S 4S", "K-6", "pure sequence after high card"),  # rule D-16
    ("AS AH AD / 2S 3S 4S / KS QH AD", "K-2", "a card used twice"),            # rule K-2
    ("AS AH AD / 2S 3S 4S", "K-2", "two sets"),                                 # rule K-2
    ("AS AH AD / 2S 3S 4S / KS QH", "K-2", "a set of two"),                     # rule K-2
    ("AS AH AD / 2S 3S 4S / KS QH JK", "K-2", "a joker"),                       # rule K-2
])
def test_illegal_arrangements_name_the_rule(text, rule, why):
    with pytest.raises(IllegalMoveError) as e:
        check_arrangement(sets(text), R)
    assert e.value.rule == rule, why


def test_a_card_not_held():
    # rule K-2: the player splits *their* nine cards
    hand = parse_cards("AS AH AD 2S 3S 4S KS QH 9D")
    with pytest.raises(IllegalMoveError) as e:
        check_arrangement(sets("AS AH AD / 2S 3S 4S / KS QH 8D"), R, hand=hand)
    assert e.value.rule == "K-2" and "8D" in e.value.reason


def test_equal_sets_may_come_in_either_order():
    # rules K-16, D-16: non-increasing strength, so two equal sets are legal both ways
    check_arrangement(sets("9S 9H 4D / 9C 9D 4S / 2S 3H 7C"), R)
    check_arrangement(sets("9C 9D 4S / 9S 9H 4D / 2S 3H 7C"), R)


def test_check_op():
    # rule K-6
    bad = evaluate({"op": "check", "sets": [["2S", "3S", "4S"], ["AS", "AH", "AD"], ["KS", "QH", "9D"]]})
    assert bad == {"valid": False, "rule": "K-6", "reason": "sets must be placed strongest first"}
    good = evaluate({"op": "check", "sets": [["AS", "AH", "AD"], ["2S", "3S", "4S"], ["KS", "QH", "9D"]]})
    assert good == {"valid": True, "rule": None}
    # rule K-2
    twice = evaluate({"op": "check", "sets": [["AS", "AH", "AD"], ["2S", "3S", "4S"], ["KS", "QH", "AS"]]})
    assert twice["valid"] is False and twice["rule"] == "K-2"
    held = evaluate({"op": "check", "sets": [["AS", "AH", "AD"], ["2S", "3S", "4S"], ["KS", "QH", "9D"]],
                     "hand": ["AS", "AH", "AD", "2S", "3S", "4S", "KS", "QH", "9C"]})
    assert held["valid"] is False and held["rule"] == "K-2"
    # rules K-22, K-6: with 2-3-5 on it is the strongest set and must go first
    on = {"sequence_order": "akq-high", "two_three_five": True}
    order = [["AS", "AH", "AD"], ["2S", "3H", "5D"], ["5C", "3S", "2C"]]
    assert evaluate({"op": "check", "sets": order, "settings": on})["rule"] == "K-6"
    assert evaluate({"op": "check", "sets": order})["valid"]  # off: 5-3-2 ties 5-3-2


def test_splits_op():
    out = evaluate({"op": "splits", "cards": [str(c) for c in HAND]})
    assert out["count"] == 280 and len(out["splits"]) == 280
    assert [["AS", "KS", "QS"], ["TC", "9C", "2D"], ["7H", "5D", "2H"]] in out["splits"]


def test_four_of_a_kind_and_pairs_of_a_hand():
    # rules K-20, K-21
    assert four_of_a_kind(parse_cards("2S 2H 2D 2C AS AH AD AC 9C")) == 14
    assert four_of_a_kind(parse_cards("2S 2H 2D 3C AS AH AD KC 9C")) is None
    assert count_pairs(parse_cards("2S 2H 3S 3H 4S 4H 5S 5H 9C")) == 4
    assert count_pairs(parse_cards("2S 2H 2D 3H 4S 4H 5S 5H 9C")) == 3


NINE = st.lists(st.sampled_from(STANDARD), min_size=9, max_size=9, unique=True)


@settings(max_examples=40, deadline=None)
@given(NINE, st.randoms(use_true_random=False))
def test_any_permutation_gives_the_same_280_splits(cards, rnd):
    # rule K-7
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    for r in (R, ranker("a23-high", True)):
        assert splits(cards, r) == splits(shuffled, r)


@settings(max_examples=30, deadline=None)
@given(NINE)
def test_fast_split_keys_match_the_splits(cards):
    # rule K-7: the bots' fast form lists the same 280 splits, keys strongest first
    from replay.kitti.arrangement import split_keys
    from replay.kitti.strategy import sets_of
    fast = split_keys(cards, R)
    slow = splits(cards, R)
    assert len(fast) == 280
    for (keys, pos), arr in zip(fast, slow):
        assert keys == tuple(R.key_of(s) for s in arr)
        assert sets_of(cards, pos, R) == arr
