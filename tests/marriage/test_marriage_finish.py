"""Finishing: four combinations and a discard, or the eighth dublee."""
from collections import Counter

from hypothesis import assume, given, settings, strategies as st
import pytest

from replay.cards import parse_card as card, parse_cards as cards
from replay.errors import IllegalMoveError
from replay.rulesets import resolve
from replay.shoes import canonical_shoe
from replay.marriage.combos import check_finish_set
from replay.marriage.finish import Finish, check_finish, find_finish

NEPAL = resolve("marriage/nepal")
CLASSIC = resolve("marriage/classic")
T7H = card("7H")


def finish_error(groups, discard, hand, *, tiplu=T7H, rs=NEPAL, dublee=False):
    with pytest.raises(IllegalMoveError) as exc:
        check_finish([cards(g) for g in groups], card(discard), cards(hand), tiplu=tiplu, ruleset=rs,
                     dublee=dublee)
    return exc.value.rule


# rule D-7: after the draw a three-set shower holds four valid combinations -- here a pure
# sequence, a trial, a dirty sequence (the man ♣7 stands in) and a dirty sequence with a
# putali -- and discards the last card
GROUPS = ["2S 3S 4S", "9D 9C 9S", "5D 6D 7C", "QC KC JK"]
HAND = " ".join(GROUPS) + " 2D"


def test_find_and_check_a_finish():
    found = find_finish(cards(HAND), tiplu=T7H, ruleset=NEPAL, dublee=False)
    assert found is not None
    assert found.discard == card("2D")
    check_finish(found.groups, found.discard, cards(HAND), tiplu=T7H, ruleset=NEPAL, dublee=False)
    assert len(found.groups) == 4
    assert Counter(c for g in found.groups for c in g) + Counter([found.discard]) == Counter(cards(HAND))
    check_finish([cards(g) for g in GROUPS], card("2D"), cards(HAND), tiplu=T7H, ruleset=NEPAL, dublee=False)


# rule MC-20: classic, same shape -- four more combinations after the draw, jokers allowed
def test_classic_finish_uses_jokers():
    hand = cards("2S 3S 4S 9D 9C 9S 5D 6D JD QC KC TC 2D")  # tiplu ♣J: ♦J ordinary joker, ♣10 jhiplu
    found = find_finish(hand, tiplu=card("JC"), ruleset=CLASSIC, dublee=False)
    assert found is not None and found.discard == card("2D")
    # without the tiplu seen, ♦J and ♣10 are plain cards: no finish
    assert find_finish(hand, tiplu=None, ruleset=CLASSIC, dublee=False) is None


# rules D-7, MC-10: a hand whose only split needs two identical cards + a joker does not finish
def test_no_finish_with_two_identical_plus_a_joker():
    hand = cards("2S 3S 4S 9D 9C 9S 5D 6D 7D KC KC 7C 2D")
    assert find_finish(hand, tiplu=T7H, ruleset=NEPAL, dublee=False) is None
    assert finish_error(["2S 3S 4S", "9D 9C 9S", "5D 6D 7D", "KC KC 7C"], "2D",
                        "2S 3S 4S 9D 9C 9S 5D 6D 7D KC KC 7C 2D") == "D-7"
    assert finish_error(["2S 3S 4S", "9D 9C 9S", "5D 6D 7D", "KC KC JD"], "2D",
                        "2S 3S 4S 9D 9C 9S 5D 6D 7D KC KC JD 2D", tiplu=card("JC"), rs=CLASSIC) == "MC-10"


# rules MN-12, MC-9: K-A-2 never finishes
def test_k_a_2_does_not_finish():
    hand = "2S 3S 4S 9D 9C 9S 5D 6D 7D KH AH 2H 8C"
    assert find_finish(cards(hand), tiplu=card("5C"), ruleset=NEPAL, dublee=False) is None
    assert finish_error(["2S 3S 4S", "9D 9C 9S", "5D 6D 7D", "KH AH 2H"], "8C", hand, tiplu=card("5C")) == "MN-12"
    assert finish_error(["2S 3S 4S", "9D 9C 9S", "5D 6D 7D", "KH AH 2H"], "8C", hand, tiplu=card("5C"),
                        rs=CLASSIC) == "MC-9"


# rule MN-13: ♥6-♥7-♥8 under tiplu ♥7 is a set like any other at the finish
def test_maal_as_itself_in_a_finish():
    hand = cards("6H 7H 8H 9D 9C 9S 5D 6D 7D 2C 3C 4C KS")
    check_finish([cards("6H 7H 8H"), cards("9D 9C 9S"), cards("5D 6D 7D"), cards("2C 3C 4C")], card("KS"),
                 hand, tiplu=T7H, ruleset=NEPAL, dublee=False)
    found = find_finish(hand, tiplu=T7H, ruleset=NEPAL, dublee=False)
    assert found is not None and found.discard not in cards("6H 7H 8H 7D")  # maal is kept


# rule MN-32: a joker stands for a missing card at the finish and still scores there, so
# between two possible discards the one keeping the maal is preferred (documented choice)
def test_discard_keeps_the_maal():
    # tiplu ♠6: ♠5 is a jhiplu. 2S..5S holds a run either way, but discarding ♠5 loses 2 points.
    hand = cards("2S 3S 4S 5S 9D 9C 9H QD KD AD 2C 3C 4C")
    found = find_finish(hand, tiplu=card("6S"), ruleset=NEPAL, dublee=False)
    assert found is not None
    assert found.discard != card("5S")
    assert found.discard == card("2S")  # of the equal-maal discards, the lowest card code
    # with no maal at stake (tiplu ♥K, nothing in this hand is maal), the lowest code is kept as rule
    plain = find_finish(hand, tiplu=card("KH"), ruleset=NEPAL, dublee=False)
    assert plain is not None and plain.discard == card("2S")


# rules MC-21, D-7: a dublee shower (7 pairs shown, 21 - 14 = 7 cards, 8 after the draw)
# finishes with one identical pair among the 8 cards: 16 cards in dublees, 5 loose, 1 discard
def test_eighth_dublee():
    hand = cards("9C 9C 2S 3D 4H 5C KD JK")
    found = find_finish(hand, tiplu=T7H, ruleset=NEPAL, dublee=True)
    assert found is not None
    assert found.groups == ((card("9C"), card("9C")),)
    assert len(found.loose) == 5 and found.discard not in (card("9C"), card("JK"))
    assert 7 * 2 + 2 == 16 and len(found.loose) + 1 + 2 == len(hand)
    check_finish(found.groups, found.discard, hand, tiplu=T7H, ruleset=NEPAL, dublee=True)
    assert found.to_json()["groups"] == [["9C", "9C"]]


# rule MC-18: jokers are never wild in dublees -- ♣9 + putali is no eighth dublee
def test_no_wild_dublee():
    hand = cards("9C JK 2S 3D 4H 5C KD 8S")
    assert find_finish(hand, tiplu=T7H, ruleset=NEPAL, dublee=True) is None
    assert finish_error(["9C JK"], "8S", "9C JK 2S 3D 4H 5C KD 8S", dublee=True) == "D-7"
    assert finish_error(["9C JK"], "8S", "9C JK 2S 3D 4H 5C KD 8S", dublee=True, rs=CLASSIC,
                        tiplu=card("JC")) == "MC-21"


# rules D-7, MC-20: every card but the discard goes into the combinations, from the hand
def test_finish_must_use_the_hand_exactly():
    assert finish_error(GROUPS[:3], "2D", HAND) == "D-7"
    assert finish_error(GROUPS[:3], "2D", HAND, rs=CLASSIC) == "MC-20"
    assert finish_error(GROUPS[:3] + ["QC KC KC"], "2D", HAND) == "D-7"  # a card not in hand


SHOE = canonical_shoe(NEPAL, 4)


# rule D-7: whatever find_finish returns passes check_finish, and the answer does not
# depend on the order of the hand
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, len(SHOE) - 1), unique=True, min_size=13, max_size=13),
       st.sampled_from(["7H", "KS", "AD", "JK"]), st.randoms(use_true_random=False))
def test_found_finishes_check(idx, tiplu, rnd):
    hand = [SHOE[i] for i in idx]
    t = card(tiplu)
    shoe = NEPAL["shoe"]
    copies = shoe["decks"] if t.is_standard else shoe["jokers"] if t.is_joker else shoe["masters"]
    assume(hand.count(t) < copies)  # the turned-up tiplu itself is out of play (D-5): no hand holds every copy
    found = find_finish(hand, tiplu=t, ruleset=NEPAL, dublee=False)
    rnd.shuffle(hand)
    again = find_finish(hand, tiplu=t, ruleset=NEPAL, dublee=False)
    assert (found is None) == (again is None)
    if found is not None:
        assert isinstance(found, Finish) and again.discard == found.discard
        check_finish(found.groups, found.discard, hand, tiplu=t, ruleset=NEPAL, dublee=False)
        for g in found.groups:
            check_finish_set(g, tiplu=t, ruleset=NEPAL)


# rule MC-14: the card just taken from the discards may not be discarded in that turn --
# find_finish looks for another discard, or reports none
def test_never_discard():
    found = find_finish(cards(HAND), tiplu=T7H, ruleset=NEPAL, dublee=False, never_discard=card("2D"))
    assert found is None or found.discard != card("2D")
    hand = cards("2S 3S 4S 5S 9D 9C 9H QD KD AD 2C 3C 4C")
    other = find_finish(hand, tiplu=card("KH"), ruleset=NEPAL, dublee=False, never_discard=card("2S"))
    assert other is not None and other.discard == card("5S")
    check_finish(other.groups, other.discard, hand, tiplu=card("KH"), ruleset=NEPAL, dublee=False)
