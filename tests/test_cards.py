from hypothesis import given, strategies as st
import pytest

from replay.cards import ALL_CARDS, JOKER, MASTER, Card, Rank, Suit, card_of, format_cards, parse_card, parse_cards
from replay.errors import CardParseError


@given(st.sampled_from(ALL_CARDS))
def test_notation_round_trips(card):
    assert parse_card(str(card)) == card
    assert eval(repr(card), {"parse_card": parse_card}) == card


def test_notation_examples():
    assert str(card_of(Rank.SEVEN, Suit.H)) == "7H"
    assert str(card_of(Rank.T, Suit.S)) == "TS"
    assert parse_card("JK") is JOKER and JOKER.is_joker and JOKER.rank is None
    assert parse_card("MC") is MASTER and MASTER.is_master
    assert parse_card("10D") == parse_card("TD")
    assert format_cards(parse_cards("AS KH 2C")) == "AS KH 2C"
    assert len({str(c) for c in ALL_CARDS}) == 54


@pytest.mark.parametrize("bad", ["", "7", "7h", "1H", "ZZ", "JKK", " 7H", None, 7])
def test_bad_cards_are_typed_errors(bad):
    with pytest.raises(CardParseError, match=r"^not a card: .* \(expected e\.g\. 7H, TS, JK, MC\)$"):
        parse_card(bad)
    with pytest.raises(ValueError, match=r"^not a card: .* \(expected e\.g\. 7H, TS, JK, MC\)$"):
        parse_card(bad)


@pytest.mark.parametrize("code", [54, -1, True, "7", 1.0])
def test_bad_code(code):
    with pytest.raises(CardParseError, match=r"^no card has code "):
        Card(code)


def test_card_texts_are_the_cards_strs():
    from replay.cards import ALL_CARDS, card_texts
    assert card_texts(ALL_CARDS) == [str(c) for c in ALL_CARDS] and card_texts(()) == []


def test_parse_card_list_is_parse_card_of_each():
    import pytest

    from replay.cards import ALL_CARDS, parse_card_list
    from replay.errors import CardParseError
    texts = [str(c) for c in ALL_CARDS] + ["10H", "TH"]
    assert parse_card_list(texts) == tuple(parse_card(t) for t in texts)
    for bad in (["7H", "7X"], ["7H", 7], ["7H", ["7H"]], ["7h"], [None]):
        with pytest.raises(CardParseError, match=r"^not a card: .* \(expected e\.g\. 7H, TS, JK, MC\)$") as exc:
            parse_card_list(bad)
        assert str(exc.value) == _error_of(bad)


def _error_of(texts):
    from replay.errors import CardParseError
    for t in texts:
        try:
            parse_card(t)
        except CardParseError as exc:
            return str(exc)
