"""The shared meld logic (replay.melds) against the rules' own definition, exhaustively.

The oracle below is the rule text read literally: a sequence of ``length`` cards sits on
``length`` consecutive positions of 1 (Ace low) .. 14 (Ace high), and a rank may be held
once.  Every small rank combination is checked against it.
"""
from itertools import combinations, combinations_with_replacement

from replay.cards import RANK_OF, SUIT_OF, STANDARD, Card, parse_cards
from replay.melds import (RUNS_OF_THREE, can_complete_run, can_fill_sequence, fits_run, is_pure_sequence,
                          is_run, is_set, wraps)

RANKS = range(1, 14)


def windows(length):
    """The rank sets of every sequence of ``length`` cards (positions 1..14, 14 is the Ace)."""
    return [{1 if p == 14 else p for p in range(lo, lo + length)} for lo in range(1, 16 - length)]


def oracle_fits(ranks, length):
    return (length <= 13 and len(set(ranks)) == len(ranks)
            and any(set(ranks) <= w for w in windows(length)))


def round_windows(length):
    return [{(lo + i - 1) % 13 + 1 for i in range(length)} for lo in RANKS]


def test_fits_run_is_the_rule_ace_low_or_high_never_both():  # rules MN-12, MC-9, R-10
    for length in range(1, 15):
        for n in range(0, 5):
            for ranks in combinations_with_replacement(RANKS, n):
                assert fits_run(ranks, length) == oracle_fits(ranks, length), (ranks, length)


def test_is_run_three_or_more_consecutive():  # rules MN-8, MN-12, MC-5, MC-9, R-10
    assert is_run((1, 2, 3)) and is_run((12, 13, 1)) and not is_run((13, 1, 2))
    assert not is_run((5, 5, 6)) and not is_run((5, 6))
    assert is_run(tuple(RANKS)) and is_run(tuple(range(2, 14)) + (1,))
    for n in range(3, 6):
        for ranks in combinations_with_replacement(RANKS, n):
            assert is_run(ranks) == oracle_fits(ranks, n), ranks
    assert sorted(map(frozenset, RUNS_OF_THREE), key=sorted) == sorted(
        (frozenset(w) for w in windows(3)), key=sorted)


def test_can_complete_run_with_one_joker():  # rules MN-10, MC-6
    for r1 in RANKS:
        for r2 in RANKS:
            want = r1 != r2 and any(r not in (r1, r2) and oracle_fits((r1, r2, r), 3) for r in RANKS)
            assert can_complete_run(r1, r2) == want, (r1, r2)
    assert can_complete_run(13, 1) and can_complete_run(1, 3) and not can_complete_run(13, 2)


def test_wraps_only_round_the_corner():  # rules MN-12, MC-9, R-10
    for length in range(2, 14):
        for n in range(1, 4):
            for ranks in combinations(RANKS, n):
                want = (not oracle_fits(ranks, length)
                        and any(set(ranks) <= w for w in round_windows(length)))
                assert wraps(ranks, length) == want, (ranks, length)
    # Marriage's words for K-A-2 in three cards, as its checks wrote them before this module:
    for ranks in combinations_with_replacement(RANKS, 3):
        assert wraps(ranks, 3) == ({2, 13} <= set(ranks) <= {1, 2, 13}), ranks


def test_pure_sequence_and_set_on_cards():  # rules MN-8, MN-11, MC-5, MC-7, R-11, D-21
    assert is_pure_sequence(parse_cards("QH KH AH")) and is_pure_sequence(parse_cards("AS 2S 3S 4S"))
    assert not is_pure_sequence(parse_cards("KS AS 2S")) and not is_pure_sequence(parse_cards("5H 6H 6H"))
    assert not is_pure_sequence(parse_cards("5H 6S 7H")) and not is_pure_sequence(parse_cards("5H 6H JK"))
    assert is_set(parse_cards("9S 9H 9C")) and is_set(parse_cards("9S 9H 9C 9D"))
    assert not is_set(parse_cards("9S 9S 9C")) and not is_set(parse_cards("9S 9H JK"))
    assert can_fill_sequence(parse_cards("5H 7H"), 3) and can_fill_sequence(parse_cards("KH AH"), 3)
    assert not can_fill_sequence(parse_cards("KH 2H"), 3) and not can_fill_sequence(parse_cards("5H 7S"), 3)
    assert can_fill_sequence((), 3) and can_fill_sequence(parse_cards("2H 9H"), 8)


def test_card_tables_agree_with_the_enums():
    for card in STANDARD:
        assert RANK_OF[card.code] == card.rank and SUIT_OF[card.code] == card.suit
    for code in (52, 53):
        assert Card(code).rank is None and Card(code).suit is None
        assert RANK_OF[code] == 0 and SUIT_OF[code] == -1


def test_the_look_ups_for_two_and_three_cards_agree_with_the_rule():  # rules MN-8, MN-10, MN-11, MC-5..MC-8, D-21
    """Three cards (and two with a joker) are answered from tables: every pair and triple
    of codes, duplicates included, gets the answer the general definitions give."""
    from replay.cards import ALL_CARDS

    def general(cards, length=None):
        codes = [c.code for c in cards]
        std = all(x < 52 for x in codes)
        one_suit = std and len({SUIT_OF[x] for x in codes}) == 1
        ranks = [RANK_OF[x] for x in codes]
        pure = one_suit and oracle_fits(ranks, len(codes)) and len(codes) >= 3
        fill = one_suit and oracle_fits(ranks, length or 3)
        a_set = std and len(set(ranks)) == 1 and len({SUIT_OF[x] for x in codes}) == len(codes)
        return pure, fill, a_set

    for n in (2, 3):
        for cards in combinations_with_replacement(ALL_CARDS, n):
            pure, fill, a_set = general(cards)
            assert is_set(cards) == a_set, cards
            if n == 3:
                assert is_pure_sequence(cards) == pure, cards
            else:
                assert can_fill_sequence(cards, 3) == fill, cards
