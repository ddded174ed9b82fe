"""Move values: JSON and text forms round-trip; malformed input is a MalformedError."""
import json

import pytest
from hypothesis import given, strategies as st

from replay.cards import ALL_CARDS, parse_card as card
from replay.errors import MalformedError
from replay.rulesets import resolve
from replay.marriage.engine import MarriageEngine
from replay.marriage.moves import (DealtShow, Discard, Draw, Finish, Show, TunnelaShow, parse_move,
                                   parse_move_text)

CARD = st.sampled_from(ALL_CARDS)
SEAT = st.integers(0, 4)
AUTO = st.booleans()
TRIPLE = st.tuples(CARD, CARD, CARD)
SETS = st.lists(st.one_of(TRIPLE, st.tuples(CARD, CARD)), max_size=7).map(tuple)

MOVES = st.one_of(
    st.builds(TunnelaShow, SEAT, CARD.map(lambda c: (c, c, c)), AUTO),
    st.builds(DealtShow, SEAT, SETS, AUTO),
    st.builds(Show, SEAT, SETS, AUTO),
    st.builds(Draw, SEAT, st.just("stock"), st.one_of(st.none(), CARD), AUTO),
    st.builds(Draw, SEAT, st.just("discard"), st.one_of(st.none(), CARD), AUTO),
    st.builds(Finish, SEAT, st.lists(TRIPLE, min_size=1, max_size=4).map(tuple), CARD, AUTO),
    st.builds(Discard, SEAT, CARD, AUTO),
)


@given(MOVES)
def test_json_and_text_round_trip(move):
    engine = MarriageEngine(resolve("marriage/nepal"))
    assert engine.parse_move(json.loads(json.dumps(move.to_json()))) == move
    assert parse_move_text(str(move)) == move
    assert ("auto" in move.to_json()) == move.auto


def test_examples_of_the_notation():
    assert str(Draw(2, "stock", card("7H"))) == "2 draw stock 7H"
    assert str(Discard(1, card("TS"), auto=True)) == "1 discard TS auto"
    assert Discard(1, card("TS"), auto=True).to_json() == {"type": "discard", "seat": 1, "card": "TS", "auto": True}
    f = Finish(0, ((card("2H"), card("3H"), card("4H")),), card("KS"))
    assert str(f) == "0 finish 2H 3H 4H / KS"


@pytest.mark.parametrize("bad", [
    {"type": "fly", "seat": 0},
    {"type": "draw", "seat": 0},
    {"type": "draw", "seat": 0, "source": "pocket"},
    {"type": "draw", "seat": -1, "source": "stock"},
    {"type": "draw", "seat": True, "source": "stock"},
    {"type": "discard", "seat": 0, "card": "1Z"},
    {"type": "discard", "seat": 0, "card": "7H", "extra": 1},
    {"type": "discard", "seat": 0, "card": "7H", "auto": "yes"},
    {"type": "show", "seat": 0, "sets": "7H 8H 9H"},
    {"type": "finish", "seat": 0, "groups": [["7H", "8H", "9H"]]},
    ["draw"],
])
def test_malformed_moves(bad):
    with pytest.raises(MalformedError):
        parse_move(bad)


@pytest.mark.parametrize("bad", ["", "x draw stock", "0 draw", "0 discard", "0 finish 2H 3H 4H", "0 hop 7H"])
def test_malformed_move_texts(bad):
    with pytest.raises(MalformedError):
        parse_move_text(bad)
