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
    with pytest.raises(IllegalMoveError, match=r"^sets must be placed strongest first \(rule K-6\)$") as e:
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
    with pytest.raises(IllegalMoveError, match=r"^card 8D is not in the player's hand \(rule K-2\)$") as e:
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


def _outcome(fn, *args, **kw):
    try:
        return ("ok", fn(*args, **kw))
    except IllegalMoveError as exc:
        return ("illegal", exc.rule, exc.reason)


def _shapes(arrangement, hand, rnd):
    """The arrangement as given and changed in the ways a record can be wrong or unusual."""
    flat = [c for s in arrangement for c in s]
    yield arrangement, hand
    yield [list(s) for s in arrangement], list(hand)
    yield arrangement[::-1], hand                                       # K-6 order
    yield (arrangement[1], arrangement[0], arrangement[2]), hand
    swapped = list(flat)
    i, j = rnd.sample(range(9), 2)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    yield (tuple(swapped[0:3]), tuple(swapped[3:6]), tuple(swapped[6:9])), hand
    dup = list(flat)
    dup[rnd.randrange(9)] = flat[rnd.randrange(9)]                      # a card twice
    yield (tuple(dup[0:3]), tuple(dup[3:6]), tuple(dup[6:9])), hand
    other = next(c for c in STANDARD if c not in hand)                 # a card not held
    stray = list(flat)
    stray[rnd.randrange(9)] = other
    yield (tuple(stray[0:3]), tuple(stray[3:6]), tuple(stray[6:9])), hand
    yield (tuple(stray[0:3]), tuple(stray[3:6]), tuple(stray[6:9])), None
    yield arrangement, hand[:8]
    yield arrangement, None
    yield (arrangement[0], arrangement[1]), hand                        # K-2 shapes
    yield (arrangement[0], arrangement[1], arrangement[2][:2]), hand
    yield (arrangement[0], arrangement[1], arrangement[2] + (other,)), hand
    yield (arrangement[0], arrangement[1], (parse_cards("JK")[0],) + arrangement[2][1:]), hand
    yield (arrangement[0], arrangement[1], ("AS",) + arrangement[2][1:]), hand
    yield list(arrangement) + [()], hand
    yield "AS KS QS", hand


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(STANDARD), min_size=9, max_size=9, unique=True), st.randoms(use_true_random=False))
def test_the_fast_check_decides_as_the_rule_by_rule_check(cards, rnd):
    # rules K-2, K-6, D-12: check_arrangement's code-level fast path must accept exactly
    # what checked_arrangement accepts, and leave every refusal to it (the same rule and words)
    from replay.kitti.arrangement import checked_arrangement
    for arrangement in rnd.sample(splits(cards, R), 3):
        for given_sets, hand in _shapes(arrangement, tuple(cards), rnd):
            assert _outcome(check_arrangement, given_sets, R, hand=hand) == \
                _outcome(checked_arrangement, given_sets, R, hand=hand)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(STANDARD + parse_cards("JK MC")), min_size=0, max_size=14))
def test_four_of_a_kind_by_its_definition(cards):
    # rule K-20: the highest rank held exactly four times (Ace high), jokers never counted
    counts = {}
    for c in cards:
        if c.is_standard:
            counts[c.rank] = counts.get(c.rank, 0) + 1
    quads = [14 if r == 1 else int(r) for r, n in counts.items() if n == 4]
    assert four_of_a_kind(cards) == (max(quads) if quads else None)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(STANDARD), min_size=9, max_size=9, unique=True),
       st.sampled_from([("akq-high", False), ("a23-high", False), ("akq-high", True)]))
def test_the_default_arrangement_is_the_first_best_scored_split(cards, setting):
    # docs/kitti.md (timeouts): the split with the highest score, then the greatest keys,
    # then the first in the order of the splits -- as scored_splits lists them
    from replay.kitti.strategy import default_arrangement, scored_splits, sets_of
    r = ranker(*setting)
    best = None
    for score, keys, pos in scored_splits(cards, r):
        if best is None or (score, keys) > best[:2]:
            best = (score, keys, pos)
    assert default_arrangement(cards, r) == sets_of(cards, best[2], r)
    assert default_arrangement(cards[::-1], r) == sets_of(cards, best[2], r)
