"""A chosen position made without the hand's randomness (RoundState.position's default)
plays until a move needs the stream: then a clear TipluError, not an AttributeError."""
import pytest

from replay.cards import parse_cards as cards
from replay.errors import TipluError
from replay.marriage.engine import MarriageEngine
from replay.marriage.moves import Discard, Draw, Show
from replay.marriage.state import RoundState
from replay.rulesets import resolve

SHOW = (cards("3C 4C 5C"), cards("7D 8D 9D"), cards("JS QS KS"))
HAND = tuple(c for s in SHOW for c in s) + cards("2H 5H 9H AS 4S 6S 8C TC 6D KD QH 2D")
OTHER = cards("AH 3H 7H JH KH 2S 3S 5S 7S 9S TS")


# rule D-5: the first show draws the tiplu at a position the hand's stream picks
def test_the_first_show_needs_the_hands_randomness():
    eng = MarriageEngine(resolve("marriage/nepal"))
    st = eng.apply(RoundState.position([HAND, OTHER], stock=cards("QC 2C 4H"), discards=cards("KC")), Draw(0, "stock"))
    assert st.randomness is None and st.seat(0).has_drawn   # a move that needs no stream plays
    with pytest.raises(TipluError, match="made without the hand's randomness: it cannot draw the tiplu"):
        eng.apply(st, Show(0, SHOW))


# rule D-6: an empty stock is refilled from the discards, shuffled by the hand's stream
def test_a_reshuffle_needs_the_hands_randomness():
    eng = MarriageEngine(resolve("marriage/nepal"))
    st = RoundState.position([HAND, OTHER], stock=cards("QC"), discards=cards("KC 9C"))
    st = eng.apply(st, Draw(0, "stock"))
    with pytest.raises(TipluError, match="or reshuffle the discards"):
        eng.apply(st, Discard(0, cards("2D")[0]))
