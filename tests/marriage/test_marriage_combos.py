"""Combinations: classify, show sets, the dublee show, finishing combinations."""
import pytest

from replay.cards import parse_card as card, parse_cards as cards
from replay.errors import IllegalMoveError, MalformedError
from replay.rulesets import resolve
from replay.marriage.combos import (Kind, check_dublee_show, check_finish_set, check_show, check_show_set,
                                    check_tunnela_at_deal, classify, kind_word)

NEPAL = resolve("marriage/nepal")
CLASSIC = resolve("marriage/classic")
MASTER_PURE = resolve("marriage/nepal", {"master_in_pure": True})


def kind(text, tiplu=None, rs=NEPAL):
    return classify(cards(text), tiplu=None if tiplu is None else card(tiplu), ruleset=rs)


def show_rule(text, rs=NEPAL):
    with pytest.raises(IllegalMoveError) as exc:
        check_show_set(cards(text), ruleset=rs)
    return exc.value.rule


def finish_rule(text, tiplu, rs=NEPAL):
    with pytest.raises(IllegalMoveError) as exc:
        check_finish_set(cards(text), tiplu=card(tiplu), ruleset=rs)
    return exc.value.rule


# rules MN-7, MC-4: three identical cards are a tunnela (♥6-♥6-♥6); MN-31: three putali too
def test_tunnela():
    assert kind("6H 6H 6H") is Kind.TUNNELA
    assert kind("6H 6H 6H", rs=CLASSIC) is Kind.TUNNELA
    assert kind("JK JK JK") is Kind.TUNNELA
    assert check_show_set(cards("6H 6H 6H"), ruleset=NEPAL) is Kind.TUNNELA
    assert check_show_set(cards("JK JK JK"), ruleset=NEPAL) is Kind.TUNNELA


# rules MN-8, MC-5: three consecutive cards of one suit (♠3-♠4-♠5), in any order
def test_pure_sequence():
    assert kind("3S 4S 5S") is Kind.PURE_SEQUENCE
    assert kind("5S 3S 4S", rs=CLASSIC) is Kind.PURE_SEQUENCE
    assert kind("3S 4S 5D") is None
    assert kind("3S 4S 6S") is None


# rules MN-12, MC-9: A-2-3 and Q-K-A are sequences, K-A-2 is not (the text's ♠ examples)
def test_ace_at_either_end_never_in_the_middle():
    assert kind("AS 2S 3S") is Kind.PURE_SEQUENCE
    assert kind("QS KS AS") is Kind.PURE_SEQUENCE
    assert kind("KS AS 2S") is None
    assert kind("KS AS 2S", rs=CLASSIC) is None
    assert show_rule("KS AS 2S") == "MN-12"
    assert show_rule("KS AS 2S", CLASSIC) == "MC-9"
    assert finish_rule("KS AS 2S", "7H") == "MN-12"
    assert finish_rule("KS AS 2S", "7H", CLASSIC) == "MC-9"
    # a joker may stand for the Q of Q-K-A, but K-2 + joker can only be K-A-2
    assert kind("KS AS 7C", tiplu="7H") is Kind.DIRTY_SEQUENCE
    assert finish_rule("KS 2S 7C", "7H") == "MN-12"
    assert finish_rule("KS 2S 5S", "7H") == "D-7"  # not a K-A-2 attempt: the general rule


# rule MN-13: a maal card is also an ordinary card: ♥6-♥7-♥8 is pure under tiplu ♥7
def test_maal_cards_are_their_own_cards():
    assert kind("6H 7H 8H", tiplu="7H") is Kind.PURE_SEQUENCE
    assert check_show_set(cards("6H 7H 8H"), ruleset=NEPAL) is Kind.PURE_SEQUENCE
    assert check_finish_set(cards("6H 7H 8H"), tiplu=card("7H"), ruleset=NEPAL) is Kind.PURE_SEQUENCE
    # MC-11: the marriage jhiplu-tiplu-poplu ♣10-♣J-♣Q is a pure sequence under tiplu ♣J
    assert kind("TC JC QC", tiplu="JC", rs=CLASSIC) is Kind.PURE_SEQUENCE  # rule MC-11


# rules MN-9, MC-18: a dublee is two identical cards; jokers are never wild in dublees
def test_dublee():
    assert kind("9C 9C") is Kind.DUBLEE
    assert kind("9C 9S") is None
    assert kind("9C 7H", tiplu="7H") is None
    assert kind("JK JK") is Kind.DUBLEE


# rules MN-10, MC-6: a joker fills a gap of a sequence (♦6-♣Q-♦8 under tiplu ♣J); it
# counts at the finish but is not pure, so it never shows
def test_dirty_sequence():
    assert kind("6D QC 8D", tiplu="JC", rs=CLASSIC) is Kind.DIRTY_SEQUENCE
    assert check_finish_set(cards("6D QC 8D"), tiplu=card("JC"), ruleset=CLASSIC) is Kind.DIRTY_SEQUENCE
    assert kind("5S 6S 7C", tiplu="7H") is Kind.DIRTY_SEQUENCE       # a man (joker) stands in
    assert kind("5S JK 7S", tiplu="7H") is Kind.DIRTY_SEQUENCE       # a putali stands in
    assert show_rule("5S JK 7S") == "MN-10"
    assert show_rule("5S JK 7S", CLASSIC) == "MC-15"
    # without the tiplu the ♣Q is not a joker: nothing
    assert kind("6D QC 8D", rs=CLASSIC) is None


# rule MN-10: the master card fills a shown sequence only where the table allows it
def test_master_in_pure_setting():
    assert show_rule("5S MC 7S") == "MN-10"
    assert check_show_set(cards("5S MC 7S"), ruleset=MASTER_PURE) is Kind.PURE_SEQUENCE
    assert check_show_set(cards("QD KD MC"), ruleset=MASTER_PURE) is Kind.PURE_SEQUENCE
    # the exception is for the master card only, and only in a sequence
    assert show_rule("5S JK 7S", MASTER_PURE) == "MN-10"
    assert show_rule("5S 5D MC", MASTER_PURE) == "MN-10"
    assert show_rule("5S 5S MC", MASTER_PURE) == "MN-10"


# rules MN-11, MC-7: a trial is three of a rank in three different suits (♠K-♣K-♥K);
# ♠9-♠9-♣9 is not one. A trial counts at the finish but never shows, even with no joker.
def test_trial_counts_at_the_finish_but_never_shows():
    assert kind("KS KC KH") is Kind.TRIAL
    assert kind("9S 9S 9C") is None
    assert kind("9S 9S 9C", rs=CLASSIC) is None
    assert check_finish_set(cards("KS KC KH"), tiplu=card("7H"), ruleset=NEPAL) is Kind.TRIAL
    assert show_rule("KS KC KH") == "MN-11"
    assert show_rule("KS KC KH", CLASSIC) == "MC-15"
    assert kind_word(Kind.TRIAL, CLASSIC) == "triplet" and kind_word(Kind.TRIAL, NEPAL) == "trial"


# rule MC-8: dirty triplet -- two of a rank in different suits plus a joker (♦J-♣2-♥2
# under tiplu ♣J); or any three cards of which two are jokers
def test_dirty_triplet_and_joker_sets():
    assert kind("JD 2C 2H", tiplu="JC", rs=CLASSIC) is Kind.DIRTY_TRIAL
    assert kind("JD QC 5S", tiplu="JC", rs=CLASSIC) is Kind.JOKER_SET  # rule MC-6
    assert kind("TC JH 9D", tiplu="JC", rs=CLASSIC) is Kind.JOKER_SET  # rule MC-8
    assert kind("JD 4H 5S", tiplu="JC", rs=CLASSIC) is None            # one joker, no pattern
    # D-7: any three cards with two or more jokers finish, two identical jokers included
    assert check_finish_set(cards("7C 7C 2D"), tiplu=card("7H"), ruleset=NEPAL) is Kind.JOKER_SET  # rule D-7


# rule MC-10: two identical cards plus a joker (♦5-♦5-♦J under tiplu ♣J) is no combination
def test_two_identical_plus_a_joker_is_invalid():
    assert kind("5D 5D JD", tiplu="JC", rs=CLASSIC) is None
    assert finish_rule("5D 5D JD", "JC", CLASSIC) == "MC-10"
    assert finish_rule("5D 5D 7C", "7H", NEPAL) == "D-7"  # rule D-7 carries MC-10 to nepal


# rule MN-14: a show lays exactly three 3-card pure sets, nine cards in one move, even
# from a four-card run; MC-15 the same in classic
def test_show_is_three_pure_three_card_sets():
    sets = [cards("2S 3S 4S"), cards("5D 5D 5D"), cards("9C TC JC")]
    assert check_show(sets, ruleset=NEPAL) == (Kind.PURE_SEQUENCE, Kind.TUNNELA, Kind.PURE_SEQUENCE)
    with pytest.raises(IllegalMoveError, match=r"^a show lays exactly 3 set\(s\) here \(0 tunnela\(s\) laid at the deal\), not 2 \(rule MN-14\)$") as exc:
        check_show(sets[:2], ruleset=NEPAL)
    assert exc.value.rule == "MN-14"
    with pytest.raises(IllegalMoveError, match=r"^a shown set has exactly three cards, not 4 \(rule MN-14\)$") as exc:
        check_show([cards("2S 3S 4S 5S"), sets[1], sets[2]], ruleset=NEPAL)
    assert exc.value.rule == "MN-14"
    with pytest.raises(IllegalMoveError, match=r"^a show lays exactly 3 set\(s\) here \(0 tunnela\(s\) laid at the deal\), not 2 \(rule MC-15\)$") as exc:
        check_show(sets[:2], ruleset=CLASSIC)
    assert exc.value.rule == "MC-15"  # rule MC-15


# rules MN-19, MN-21, MC-13: a tunnela laid at the deal counts as one of the three sets;
# three of them are a complete show with nothing more to lay
def test_tunnelas_at_the_deal_count_towards_the_show():
    sets = [cards("2S 3S 4S"), cards("9C TC JC")]
    assert check_show(sets, ruleset=NEPAL, tunnelas_at_deal=1) == (Kind.PURE_SEQUENCE, Kind.PURE_SEQUENCE)
    assert check_show([], ruleset=NEPAL, tunnelas_at_deal=3) == ()
    with pytest.raises(IllegalMoveError, match=r"^a show lays exactly 2 set\(s\) here \(1 tunnela\(s\) laid at the deal\), not 3 \(rule MN-19\)$") as exc:
        check_show(sets + [cards("5D 5D 5D")], ruleset=NEPAL, tunnelas_at_deal=1)
    assert exc.value.rule == "MN-19"
    with pytest.raises(MalformedError, match=r"^tunnelas_at_deal must be 0\.\.3, got 4$"):
        check_show([], ruleset=NEPAL, tunnelas_at_deal=4)
    assert check_tunnela_at_deal(cards("5D 5D 5D"), ruleset=NEPAL) is Kind.TUNNELA
    for rs, rule in ((NEPAL, "MN-19"), (CLASSIC, "MC-13")):
        with pytest.raises(IllegalMoveError) as exc:
            check_tunnela_at_deal(cards("2S 3S 4S"), ruleset=rs)
        assert exc.value.rule == rule


# rules MN-16, MC-18: seven dublees (seven identical pairs, 14 cards) show; jokers never
# wild; a table may switch the dublee show off
def test_dublee_show():
    pairs = [cards(f"{c} {c}") for c in ("2S", "5D", "9C", "KH", "JK", "AS", "7H")]
    check_dublee_show(pairs, ruleset=NEPAL)
    check_dublee_show(pairs, ruleset=CLASSIC)
    for rs, rule in ((NEPAL, "MN-16"), (CLASSIC, "MC-18")):
        with pytest.raises(IllegalMoveError) as exc:
            check_dublee_show(pairs[:6], ruleset=rs)
        assert exc.value.rule == rule
        with pytest.raises(IllegalMoveError) as exc:
            check_dublee_show(pairs[:6] + [cards("3S JK")], ruleset=rs)
        assert exc.value.rule == rule
    off = resolve("marriage/nepal", {"seven_dublees": False})
    with pytest.raises(IllegalMoveError, match=r"^this table does not allow a dublee show \(rule MN-16\)$") as exc:
        check_dublee_show(pairs, ruleset=off)
    assert exc.value.rule == "MN-16"


# rule MC-5: all combinations are exactly three cards; MN-14 for the shown sets
def test_sizes():
    assert show_rule("2S 3S") == "MN-14"
    assert finish_rule("2S 3S 4S 5S", "7H", CLASSIC) == "MC-20"  # rule MC-20
    assert kind("2S 3S 4S 5S") is None
