"""Card roles and jokers under a tiplu: the worked examples of the rule texts."""
from collections import Counter

import pytest

from replay.cards import parse_card as card
from replay.rulesets import resolve
from replay.shoes import canonical_shoe
from replay.marriage.jokers import Role, is_joker, role_of

NEPAL = resolve("marriage/nepal")
CLASSIC = resolve("marriage/classic")


# rules MN-23, MN-24, MN-25, MN-26 (the text's example: tiplu ♥7)
@pytest.mark.parametrize("text, role", [
    ("7H", Role.TIPLU),       # MN-23: the other ♥7s are tiplu too
    ("8H", Role.POPLU),       # MN-24: same suit one rank up
    ("6H", Role.JHIPLU),      # MN-24: same suit one rank down
    ("7D", Role.ALTER),       # MN-25: same rank, other suit of the same colour
    ("7C", Role.MAN),         # MN-26: same rank, the other colour
    ("7S", Role.MAN),
    ("8D", Role.NONE), ("6S", Role.NONE), ("9H", Role.NONE), ("5H", Role.NONE), ("KC", Role.NONE),
    ("JK", Role.PUTALI), ("MC", Role.MASTER),
])
def test_roles_under_tiplu_7h(text, role):
    assert role_of(card(text), card("7H"), NEPAL) is role


# rule MN-25: the alter is same colour for a black tiplu too (♠7 -> ♣7), man the red suits
def test_alter_and_man_under_a_black_tiplu():
    assert role_of(card("7C"), card("7S"), NEPAL) is Role.ALTER
    assert role_of(card("7H"), card("7S"), NEPAL) is Role.MAN
    assert role_of(card("7D"), card("7S"), NEPAL) is Role.MAN


# rule MN-24: ranks wrap -- tiplu ♥K: poplu ♥A, jhiplu ♥Q
def test_wrap_tiplu_king_of_hearts():
    assert role_of(card("AH"), card("KH"), NEPAL) is Role.POPLU
    assert role_of(card("QH"), card("KH"), NEPAL) is Role.JHIPLU
    assert role_of(card("2H"), card("KH"), NEPAL) is Role.NONE
    assert role_of(card("AS"), card("KH"), NEPAL) is Role.NONE


# rules MN-24, MC-3: the wrap works downwards too -- tiplu ♠A: jhiplu ♠K, poplu ♠2
def test_wrap_tiplu_ace():
    for rs in (NEPAL, CLASSIC):
        assert role_of(card("KS"), card("AS"), rs) is Role.JHIPLU
        assert role_of(card("2S"), card("AS"), rs) is Role.POPLU


# rule MC-3: tiplu ♣J over the whole 156-card classic shoe: the other two ♣J are tiplu,
# the three ♣Q poplu, the three ♣10 jhiplu, the nine ♦J ♥J ♠J ordinary jokers
def test_classic_example_tiplu_jack_of_clubs():
    shoe = list(canonical_shoe(CLASSIC, 4))
    assert len(shoe) == 156
    tiplu = card("JC")
    shoe.remove(tiplu)  # the tiplu itself leaves play
    counts = Counter(role_of(c, tiplu, CLASSIC) for c in shoe)
    assert counts[Role.TIPLU] == 2
    assert counts[Role.POPLU] == 3
    assert counts[Role.JHIPLU] == 3
    assert counts[Role.ORDINARY_JOKER] == 9
    assert counts[Role.NONE] == 155 - 17
    assert counts[Role.ALTER] == counts[Role.MAN] == 0  # no alter/man in classic
    assert {c for c in shoe if role_of(c, tiplu, CLASSIC) is Role.ORDINARY_JOKER} == {card("JD"), card("JH"), card("JS")}
    # MC-3: all of those are wild (jokers); nothing else is
    assert sum(is_joker(c, tiplu, CLASSIC) for c in shoe) == 17


# rule MN-32: every maal card is also a joker, the second tiplu too; MN-26: man cards
# act as jokers though they score nothing
def test_nepal_jokers_under_tiplu_7h():
    t = card("7H")
    for text in ("7H", "8H", "6H", "7D", "7C", "7S", "JK", "MC"):
        assert is_joker(card(text), t, NEPAL), text
    for text in ("9H", "5H", "8D", "6C", "AH"):
        assert not is_joker(card(text), t, NEPAL), text


# rules MN-28, MN-5: before any tiplu (or for a player who has not seen it) only the
# putali and the master card are jokers
def test_only_putali_and_master_before_the_tiplu():
    for rs in (NEPAL, CLASSIC):
        assert is_joker(card("JK"), None, rs) and is_joker(card("MC"), None, rs)
        assert role_of(card("JK"), None, rs) is Role.PUTALI
        assert role_of(card("MC"), None, rs) is Role.MASTER
        for text in ("7H", "8H", "AS", "KC"):
            assert role_of(card(text), None, rs) is Role.NONE
            assert not is_joker(card(text), None, rs)


# rule MN-15 (decision documented in jokers.py): a putali drawn as tiplu names no rank
def test_a_putali_tiplu_gives_no_standard_card_a_role():
    assert role_of(card("7H"), card("JK"), NEPAL) is Role.NONE
    assert role_of(card("JK"), card("JK"), NEPAL) is Role.PUTALI
