"""Hand-counted points for each scoring case of R-15, and the 130-point hand of R-14."""
from collections import Counter

from replay.cards import parse_card, parse_cards
from replay.rummy.groups import wild_rank_of
from replay.rummy.solver import solve


def points(text, indicator):
    cards = parse_cards(text)
    sol = solve(cards, wild_rank_of(parse_card(indicator)))
    flat = [c for g in sol.groups for c in g] + list(sol.loose)
    assert Counter(flat) == Counter(cards)
    return sol


def test_two_sequences_count_only_loose_cards():  # rules, D-22
    # 7s wild: 2H 3H 4H pure, 5S 6S 7D impure, 9D 9C 9S a set; KD KC 8C 4C loose:
    # 10 + 10 + 8 + 4 = 32.  (KD KC 7D as a set would cover more but leave one sequence.)
    sol = points("2H 3H 4H 5S 6S 7D 9D 9C 9S KD KC 8C 4C", "7S")
    assert sol.points == 32 and sol.case == "two_sequences"
    assert sorted(map(str, sol.loose)) == ["4C", "8C", "KC", "KD"]


def test_pure_sequence_alone_excuses_only_that_run():  # rule R-15
    # Aces wild (none held).  Pure 5D 6D 7D; the set QH QS QD is not excused without a
    # second sequence: 5 + 9 + 10 + 10 + 10 + 8 + 10 + 10 + 10 + 2 = 84.
    sol = points("5D 6D 7D 5C 9H QH QS QD 8H KS JH TC 2C", "AC")
    assert sol.points == 84 and sol.case == "pure_only"
    assert [str(c) for c in sol.groups[0]] == ["5D", "6D", "7D"]


def test_no_pure_sequence_every_card_counts():  # rules
    # 2H 3H JK 5H is impure and 9S 9D 9C a set, but with no pure sequence all count:
    # 2 + 3 + 5 + 0 + 9 + 9 + 9 + 10 + 10 + 10 + 8 + 6 + 10 = 91.
    sol = points("2H 3H 5H JK 9S 9D 9C KD KC QC 8C 6D TS", "AS")
    assert sol.points == 91 and sol.case == "no_pure" and sol.groups == ()


def test_all_high_loose_cards_count_130():  # rules
    sol = points("AS AS QS QS TS AH QH TH KD JD KC JC KC", "2S")
    assert sol.points == 130


def test_complete_hand_counts_zero():  # rules
    sol = points("2H 3H 4H 5S 6S 7S 8S 9D 9C 9S KD KC JK", "AC")
    assert sol.points == 0 and sol.is_complete


def test_best_arrangement_not_the_one_left():  # rule R-12
    # Laid as 9S TS JS + QS KS loose it would count 20; the best arrangement runs to KS.
    sol = points("9S TS JS QS KS 2D 3D 4D 7H 7C 7D 6C 5C", "AH")
    assert sol.points == 6 + 5 and set(map(str, sol.loose)) == {"6C", "5C"}
