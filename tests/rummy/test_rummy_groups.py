"""Group validity, wild rules, card points and declaration checks, against the rule text."""
import pytest

from replay.cards import parse_card, parse_cards
from replay.errors import CardParseError, TipluError
from replay.rummy.declare import check_declaration
from replay.rummy.groups import (GroupKind, InvalidGroupError, MalformedHandError, card_points,
                                 classify_group, is_joker, parse_hand, wild_rank_of)


def kind(text, wild=None):
    return classify_group(parse_cards(text), wild)


def broken_rule(text, wild=None):
    with pytest.raises(InvalidGroupError) as exc:
        kind(text, wild)
    return exc.value.rule


def test_wild_rank_is_the_indicators_rank():  # rule R-5
    assert wild_rank_of(parse_card("7H")) == 7
    assert is_joker(parse_card("7S"), 7) and is_joker(parse_card("7C"), 7)
    assert is_joker(parse_card("JK"), 7) and not is_joker(parse_card("8S"), 7)


def test_printed_joker_indicator_leaves_only_printed_jokers_wild():  # rule R-5
    wild = wild_rank_of(parse_card("JK"))
    assert wild is None
    assert is_joker(parse_card("JK"), wild)
    assert not any(is_joker(parse_card(f"{r}S"), wild) for r in "A23456789TJQK")
    assert kind("5H 6H 7H", None) is GroupKind.PURE_SEQUENCE


def test_wild_rank_card_may_stand_as_itself():  # rules R-5, D-21
    assert kind("6H 7H 8H", 7) is GroupKind.PURE_SEQUENCE
    assert kind("6H 7S 8H", 7) is GroupKind.IMPURE_SEQUENCE


def test_card_points():  # rule R-13
    assert [card_points(parse_card(c), 5) for c in "AS KH QD JC TS".split()] == [10] * 5
    assert [card_points(parse_card(f"{r}H"), None) for r in "23456789"] == [2, 3, 4, 5, 6, 7, 8, 9]
    assert card_points(parse_card("JK"), 5) == 0
    assert card_points(parse_card("5D"), 5) == 0 and card_points(parse_card("5D"), None) == 5


def test_ace_low_or_high_never_wrapping():  # rule R-10
    assert kind("AS 2S 3S") is GroupKind.PURE_SEQUENCE
    assert kind("QS KS AS") is GroupKind.PURE_SEQUENCE
    assert broken_rule("KS AS 2S") == "R-10"
    assert broken_rule("KS JK 2S") == "R-10"


def test_same_card_never_twice_in_a_group():  # rule R-11
    assert broken_rule("5H 5H 5S") == "R-11"
    assert broken_rule("5H 6H 6H 7H") == "R-11"
    assert kind("5H 5S 5D") is GroupKind.SET


def test_sets_of_three_or_four_distinct_suits_with_jokers():  # rules R-11, D-21
    assert kind("9D 9C 9S 9H") is GroupKind.SET
    assert kind("9D 9C JK") is GroupKind.SET
    assert kind("9D JK 2S", 2) is GroupKind.IMPURE_SEQUENCE  # one natural, two jokers
    assert broken_rule("9D 9C 9S 9H JK") == "D-21"
    assert broken_rule("9D 9C") == "D-21"
    assert broken_rule("9D 8C 7S") == "D-21"


def test_impure_sequences_fill_gaps_with_jokers():  # rule D-21
    assert kind("5H JK 7H 8H") is GroupKind.IMPURE_SEQUENCE
    assert kind("QH KH JK") is GroupKind.IMPURE_SEQUENCE  # J-Q-K or Q-K-A
    assert broken_rule("5H JK 9H") == "D-21"  # a gap of three needs two jokers


def test_declaration_valid():  # rules, D-21
    groups = [parse_cards(g) for g in ["2H 3H 4H", "5S 6S JK", "9D 9C 9S", "KD KC KH JC"]]
    v = check_declaration(groups, 11)  # jacks wild
    assert v.valid and v.rule is None


def test_declaration_without_pure_sequence_is_wrong():  # rule R-9
    groups = [parse_cards(g) for g in ["2H JK 4H", "5S 6S JK", "9D 9C 9S", "KD KC KH 8C"]]
    assert check_declaration(groups, 8).rule == "R-9"


def test_declaration_with_one_sequence_is_wrong():  # rule R-9
    groups = [parse_cards(g) for g in ["2H 3H 4H", "5S 5D JK", "9D 9C 9S", "KD KC KH KS"]]
    assert check_declaration(groups, None).rule == "R-9"


def test_declaration_must_show_all_thirteen():  # rules
    groups = [parse_cards(g) for g in ["2H 3H 4H", "5S 6S 7S", "9D 9C 9S"]]
    assert check_declaration(groups, None).rule == "R-7"


def test_declaration_names_the_broken_group_rule():  # rules
    groups = [parse_cards(g) for g in ["2H 3H 4H", "KS AS 2S", "9D 9C 9S", "KD KC KH 8C"]]
    assert check_declaration(groups, 8).rule == "R-10"


def test_malformed_hands_raise_typed_errors():  # rules R-4, D-18
    with pytest.raises(MalformedHandError, match=r"^hand: 11 copies of 2S, but the shoe holds 2$"):
        parse_hand(["AS"] * 2 + ["2S"] * 11)  # 11 copies of 2S in a two-deck shoe
    with pytest.raises(MalformedHandError, match=r"^a hand has 13 cards, got 2$"):
        parse_hand(["AS", "2S"])  # not 13 cards
    with pytest.raises(CardParseError, match=r"^not a card: 'XX' \(expected e\.g\. 7H, TS, JK, MC\)$"):
        parse_hand(["XX"] + ["2S"] * 12)
    with pytest.raises(TipluError, match=r"^cards: 'MC' is not a rummy card$"):
        parse_hand(["MC"] + ["2S", "3S"] * 6)
    with pytest.raises(MalformedHandError, match=r"^hand: 3 copies of 7H, but the shoe holds 2$"):  # the indicator is a third 7H
        parse_hand("7H 7H 2S 3S 4S 5S 6S 8S 9S TS JS QS KS".split(), indicator=parse_card("7H"))
    three = "7H 7H 7H 2S 3S 4S 5S 6S 8S 9S TS JS QS".split()
    assert len(parse_hand(three, decks=3, jokers=3)) == 13  # an eight-seat shoe has three decks
