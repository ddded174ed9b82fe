"""Ranking of three-card sets: K-9 ... K-16, K-22, D-16."""
from collections import Counter
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings, strategies as st

from replay.cards import STANDARD, parse_cards
from replay.errors import MalformedError
from replay.kitti.ranking import SPECIAL_235, SetClass, classify, pack, ranker
from replay.kitti.eval_requests import evaluate

AKQ = ranker("akq-high")
A23 = ranker("a23-high")


def rank(text, r=AKQ):
    return r.rank(parse_cards(text))


def key(text, r=AKQ):
    return r.key_of(parse_cards(text))


# rules K-9, K-10, K-11, K-12, K-13, K-14
@pytest.mark.parametrize("cards, cls", [
    ("AS AH AD", "trail"), ("2S 2H 2C", "trail"),
    ("QH JH TH", "pure_sequence"), ("4C 3C 2C", "pure_sequence"),
    ("QH JS TH", "sequence"), ("AS 2H 3D", "sequence"),
    ("AS KS 9S", "colour"), ("5D 3D 2D", "colour"),
    ("7S 7H KD", "pair"), ("AS AH 2D", "pair"),
    ("AS KH JD", "high_card"), ("5S 3H 2D", "high_card"),
])
def test_each_class_by_the_rule_text(cards, cls):
    assert rank(cards).cls.label == cls


def test_class_frequencies_over_the_whole_pack():
    # rules K-9, K-10, K-11, K-12, K-13, K-14 -- the three-card-poker counts, by hand:
    # trail 13*C(4,3)=52; pure sequence 12*4=48; sequence 12*(64-4)=720;
    # colour 4*(C(13,3)-12)=1096; pair 13*C(4,2)*48=3744; high card 22100-rest=16440
    counts = Counter(AKQ.rank((STANDARD[a], STANDARD[b], STANDARD[c])).cls.label
                     for a, b, c in combinations(range(52), 3))
    assert counts == {"trail": 52, "pure_sequence": 48, "sequence": 720, "colour": 1096,
                      "pair": 3744, "high_card": 16440}


@pytest.mark.parametrize("order", ["akq-high", "a23-high"])
@pytest.mark.parametrize("two_three_five", [False, True])
def test_every_entry_of_the_rank_table_is_its_definition(order, two_three_five):
    # rules K-9 ... K-16, K-22: the table is put together from rows of keys (ranking.py's
    # _build); each of its 52**3 entries must be the classification of its own three cards
    # (the 2-3-5 of K-22 only in three suits, when on), and 0 for a triple repeating a card
    table = ranker(order, two_three_five).table
    assert len(table) == 52 ** 3
    for a in range(52):
        for b in range(52):
            for c in range(52):
                got = table[a * 2704 + b * 52 + c]
                if a == b or b == c or a == c:
                    assert got == 0
                    continue
                ranks = sorted((a % 13, b % 13, c % 13))
                suits = {a // 13, b // 13, c // 13}
                if two_three_five and ranks == [1, 2, 4] and len(suits) == 3:
                    assert got == pack([SPECIAL_235, 0, 0, 0])
                else:
                    _, strength = classify([r + 1 for r in ranks], len(suits) == 1, sequence_order=order)
                    assert got == pack(strength), (a, b, c)


def test_number_of_distinct_strengths():
    # rule K-16: suits never break a tie, so strengths are rank patterns (+ flush):
    # 13 trails + 12 pure + 12 sequences + 274 colours + 156 pairs + 274 high cards = 741
    keys = {AKQ.key(a, b, c) for a, b, c in combinations(range(52), 3)}
    assert len(keys) == 741


def test_higher_class_beats_any_lower_class():
    # rules K-9..K-14: "the smallest sequence beats the biggest colour"
    assert key("4S 3H 2D") > key("AS KS JS")
    assert key("2S 2H 2D") > key("AS KS QS")      # weakest trail over strongest pure sequence
    assert key("4S 3S 2S") > key("AS KH QD")      # weakest pure over strongest sequence
    assert key("5S 3S 2S") > key("AS AH KD")      # weakest colour over strongest pair
    assert key("2S 2H 3D") > key("AS KH JD")      # weakest pair over strongest high card


def test_trail_order():
    # rule K-9: three aces strongest, three twos weakest
    trails = [key(f"{r}S {r}H {r}D") for r in "23456789TJQKA"]
    assert trails == sorted(trails) and len(set(trails)) == 13
    assert key("AS AH AD") == max(AKQ.table)


@pytest.mark.parametrize("r, order", [(AKQ, ["AS KH QD", "AS 2H 3D", "KS QH JD", "5S 4H 3D", "4S 3H 2D"]),
                                      (A23, ["AS 2H 3D", "AS KH QD", "KS QH JD", "5S 4H 3D", "4S 3H 2D"])])
def test_sequence_order_setting(r, order):
    # rule K-15: akq-high ranks A-K-Q, then A-2-3, then K-Q-J ... 4-3-2; a23-high puts A-2-3 first
    keys = [key(t, r) for t in order]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    pure = [key(" ".join(c[0] + "S" for c in t.split()), r) for t in order]
    assert pure == sorted(pure, reverse=True)


def test_a23_through_eval_under_both_orders():
    # rule K-15, D-1: the setting comes with the request and changes the answer
    akq = evaluate({"op": "rank", "cards": ["3S", "AH", "2D"]})
    a23 = evaluate({"op": "rank", "cards": ["3S", "AH", "2D"], "settings": {"sequence_order": "a23-high"}})
    top = evaluate({"op": "rank", "cards": ["QS", "AH", "KD"]})
    top23 = evaluate({"op": "rank", "cards": ["QS", "AH", "KD"], "settings": {"sequence_order": "a23-high"}})
    assert akq["class"] == a23["class"] == "sequence"
    assert top["strength"] > akq["strength"]
    assert a23["strength"] > top23["strength"]


@pytest.mark.parametrize("cards, cls", [("KS AH 2D", "high_card"), ("KS AS 2S", "colour"),
                                        ("QS KH AD", "sequence")])
def test_k_a_2_is_never_a_sequence(cards, cls):
    # rule K-15
    for r in (AKQ, A23):
        assert rank(cards, r).cls.label == cls
    assert key("KS AH 2D") == key("AS KH 2D") < key("AS KH 3D")


@pytest.mark.parametrize("a, b", [
    ("AS AH AD", "AS AH AC"),          # trail (hypothetical sets: the ranking compares any two)
    ("9H 8H 7H", "9C 8C 7C"),          # pure sequence
    ("9H 8S 7H", "9C 8D 7S"),          # sequence
    ("KH 9H 4H", "KS 9S 4S"),          # colour
    ("7S 7H KD", "7C 7D KS"),          # pair
    ("AS JH 4D", "AC JS 4H"),          # high card
])
def test_ties_in_every_class(a, b):
    # rule K-16: suit never breaks a tie
    assert key(a) == key(b)
    assert rank(a).strength == rank(b).strength


def test_within_a_class_highest_then_next_then_last():
    # rule D-16
    assert key("AS 5H 3D") > key("KS QH 9C")
    assert key("AS KH 3D") > key("AS QH JC")
    assert key("AS KH 4D") > key("AS KH 3C")
    assert key("AS KS 4S") > key("AS KS 3S")
    # a pair compares the pair, then the odd card
    assert key("3S 3H 2D") > key("2S 2H AD")
    assert key("9S 9H 5D") > key("9C 9D 4C")


def test_two_three_five_only_when_on_and_in_three_suits():
    # rule K-22
    on = ranker("akq-high", True)
    assert on.key_of(parse_cards("2S 3H 5D")) > on.key_of(parse_cards("AS AH AD"))
    assert on.rank(parse_cards("5D 2S 3H")).special == "2-3-5"
    assert on.rank(parse_cards("2S 3S 5D")).cls is SetClass.HIGH_CARD
    assert on.key_of(parse_cards("2S 3S 5D")) == AKQ.key_of(parse_cards("2S 3S 5D"))
    assert on.key_of(parse_cards("2S 3S 5S")) == AKQ.key_of(parse_cards("2S 3S 5S"))  # a colour
    assert AKQ.key_of(parse_cards("2S 3H 5D")) < AKQ.key_of(parse_cards("2S 2H 3D"))  # off: high card


def test_bad_sets_are_malformed():
    with pytest.raises(MalformedError, match=r"^a set cannot hold the same card twice \(one deck, D-12\)$"):
        AKQ.rank(parse_cards("AS AS KD"))
    with pytest.raises(MalformedError, match=r"^a set has three cards, not 2$"):
        AKQ.rank(parse_cards("AS KD"))
    with pytest.raises(MalformedError, match=r"^Kitti is played with one 52-card deck: no jokers \(D-12\)$"):
        AKQ.rank(parse_cards("AS KD JK"))


# --- an independent oracle written from the rule text, for the property tests ---------
def oracle(cards, order="akq-high"):
    ranks = sorted((14 if c.rank == 1 else int(c.rank) for c in cards), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    distinct = len(set(ranks)) == 3
    seqs = [(14, 13, 12), (14, 3, 2)] if order == "akq-high" else [(14, 3, 2), (14, 13, 12)]
    seqs += [(h, h - 1, h - 2) for h in range(13, 3, -1)]
    if not distinct:
        if len(set(ranks)) == 1:
            return (6, ranks)
        pair = ranks[1]
        odd = ranks[0] if ranks[0] != pair else ranks[2]
        return (2, [pair, odd])
    if tuple(ranks) in seqs:
        return (5 if flush else 4, [-seqs.index(tuple(ranks))])
    return (3 if flush else 1, ranks)


CARD = st.sampled_from(STANDARD)
SET3 = st.lists(CARD, min_size=3, max_size=3, unique=True)


@settings(max_examples=400, deadline=None)
@given(SET3, SET3, st.sampled_from(["akq-high", "a23-high"]))
def test_ranking_is_the_rules_total_order(a, b, order):
    # rules K-9..K-16, D-16: keys order every pair of sets as the oracle does, ties included
    r = ranker(order)
    ka, kb = r.key_of(a), r.key_of(b)
    oa, ob = oracle(a, order), oracle(b, order)
    assert (ka > kb) == (oa > ob) and (ka == kb) == (oa == ob)
    # consistent with the classes: a higher class always has a higher strength
    ca, cb = r.rank(a).cls, r.rank(b).cls
    if ca > cb:
        assert r.rank(a).strength > r.rank(b).strength
    assert (r.rank(a).strength > r.rank(b).strength) == (ka > kb)


@settings(max_examples=200, deadline=None)
@given(SET3, st.permutations(range(4)))
def test_suits_never_break_a_tie(cards, suit_map):
    # rule K-16: renaming the suits changes nothing
    renamed = [STANDARD[13 * suit_map[c.code // 13] + c.code % 13] for c in cards]
    for r in (AKQ, A23, ranker("akq-high", True)):
        assert r.key_of(renamed) == r.key_of(cards)
        assert all(r.key_of(p) == r.key_of(cards) for p in permutations(cards))


@pytest.mark.parametrize("settings_", [None, {"two_three_five": True}, {"sequence_order": "a23-high"}])
def test_op_rank_answers_every_set_as_the_checked_ranker(settings_):
    # rules K-9 ... K-16, K-22: op rank reads three cards' codes at once; every set (and
    # its reversed order) must get the ranker's own answer for the parsed cards
    from replay.kitti.eval_requests import _ruleset
    from replay.kitti.ranking import ranker_for
    base = {"op": "rank"} if settings_ is None else {"op": "rank", "settings": settings_}
    r = ranker_for(_ruleset(base))
    for a, b, c in combinations(STANDARD, 3):
        texts = [str(a), str(b), str(c)]
        want = r.rank((a, b, c)).to_json()
        assert evaluate({**base, "cards": texts}) == want
        assert evaluate({**base, "cards": texts[::-1]}) == want


@pytest.mark.parametrize("cards", [["AS", "AS", "KD"], ["AS", "KD"], ["AS", "KD", "QC", "JH"], ["JK", "AS", "KD"],
                                   ["10S", "JS", "QS"], ["AS", "KD", 7], "AS KD QC", ("AS", "KD", "QC"), ["as", "KD", "QC"],
                                   [], None, 3])
def test_op_rank_answers_odd_cards_as_the_checked_path(cards):
    # D-12, K-9: anything but three distinct cards' own texts goes the checked way: the same
    # answer, or the same error, as parse_cards and SetRanker.rank give
    from replay.kitti.eval_requests import _cards
    try:
        want = ("ok", AKQ.rank(_cards({"cards": cards})).to_json())
    except Exception as exc:  # noqa: BLE001 - the error is the answer here
        want = ("error", type(exc), str(exc))
    try:
        got = ("ok", evaluate({"op": "rank", "cards": cards}))
    except Exception as exc:  # noqa: BLE001
        got = ("error", type(exc), str(exc))
    assert got == want
