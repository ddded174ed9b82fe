"""parse_move checks a move's fields in a fixed order and keeps parsed picks, discards and
drops by their checked fields (replay/rummy/moves.py ``_PARSED``).  On every combination
of good and bad fields it must give what the plain parser (below, as it was) gives: the
same move, or the same error with the same words -- whatever was parsed before it, so a
cached move never stands for a different JSON value (``true`` is not ``1``)."""
from __future__ import annotations

import itertools
from collections.abc import Mapping

import pytest

from replay.cards import parse_card, parse_cards
from replay.errors import MalformedError, TipluError
from replay.rummy import moves
from replay.rummy.moves import SOURCES, Declare, Discard, Drop, Pick, parse_move, parse_record_move

MISSING = object()


def plain_parse_move(data):
    """The parser before the cache, line for line."""
    if not isinstance(data, Mapping):
        raise MalformedError("a move must be a JSON object")
    kind = data.get("type")
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise MalformedError("a move needs a non-negative integer 'seat'", location="seat")
    fields = {"pick": {"source", "card", "auto"}, "discard": {"card", "auto"},
              "declare": {"finish_card", "groups"}, "drop": {"auto"}}
    if not isinstance(kind, str) or kind not in fields:
        raise MalformedError(f"unknown move type {kind!r}", location="type")
    extra = set(data) - fields[kind] - {"type", "seat"}
    if extra:
        raise MalformedError(f"unexpected fields {sorted(extra)} in a {kind} move")

    def auto():
        a = data.get("auto", False)
        if not isinstance(a, bool):
            raise MalformedError("'auto' must be true or false", location="auto")
        return a

    if kind == "pick":
        source = data.get("source", "closed")
        if not isinstance(source, str) or source not in SOURCES:
            raise MalformedError("source must be 'closed' or 'open'", location="source")
        card = parse_card(data["card"]) if data.get("card") is not None else None
        return Pick(seat, source, card, auto())
    if kind == "discard":
        if "card" not in data:
            raise MalformedError("a discard needs a 'card'", location="card")
        return Discard(seat, parse_card(data["card"]), auto())
    if kind == "declare":
        groups = data.get("groups")
        if "finish_card" not in data or not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
            raise MalformedError("a declare needs 'finish_card' and 'groups' (a list of lists of cards)")
        return Declare(seat, parse_card(data["finish_card"]), tuple(parse_cards(g) for g in groups))
    return Drop(seat, auto())


def outcome(parse, data):
    try:
        return ("move", parse(data))
    except TipluError as exc:
        return ("error", type(exc), str(exc))


SEATS = [0, 3, -1, True, False, 1.0, "1", None, MISSING]
TYPES = ["pick", "discard", "drop", "declare", "fly", 1, None, MISSING]
SOURCES_ = ["closed", "open", "side", 0, None, MISSING]
CARDS = ["7H", "10H", "TH", "JK", "XX", 7, True, None, ["7H"], MISSING]
AUTOS = [True, False, 1, 0, None, "true", MISSING]


def grid():
    for seat, kind, source, card, auto in itertools.product(SEATS, TYPES, SOURCES_, CARDS, AUTOS):
        d = {}
        for k, v in (("type", kind), ("seat", seat), ("source", source), ("card", card), ("auto", auto)):
            if v is not MISSING:
                d[k] = v
        yield d


def test_every_combination_of_fields_parses_as_the_plain_parser_does():
    moves._PARSED.clear()
    n = 0
    for data in grid():
        for _ in range(2):  # the second time from the cache
            assert outcome(parse_move, data) == outcome(plain_parse_move, data), data
        n += 1
    assert n > 10_000 and moves._PARSED


@pytest.mark.parametrize("first, then", [
    ({"type": "drop", "seat": 1, "auto": True}, {"type": "drop", "seat": 1, "auto": 1}),
    ({"type": "drop", "seat": 1}, {"type": "drop", "seat": True}),
    ({"type": "pick", "seat": 0, "source": "closed", "auto": False}, {"type": "pick", "seat": 0, "auto": 0}),
    ({"type": "discard", "seat": 2, "card": "7H"}, {"type": "discard", "seat": 2.0, "card": "7H"}),
])
def test_a_cached_move_never_stands_for_an_equal_but_different_json_value(first, then):
    assert isinstance(parse_move(first), (Pick, Discard, Drop))
    with pytest.raises(MalformedError):
        parse_move(then)


def test_other_fields_and_declarations_are_parsed_afresh():
    d = {"type": "declare", "seat": 1, "finish_card": "KS", "groups": [["2H", "3H", "4H"]]}
    assert parse_move(d) == plain_parse_move(d)
    with pytest.raises(MalformedError, match="unexpected fields"):
        parse_move({"type": "drop", "seat": 1, "card": "7H"})
    with pytest.raises(MalformedError, match="JSON object"):
        parse_move([("type", "drop")])


def test_the_cache_is_bounded():
    moves._PARSED.clear()
    for seat in range(moves._PARSED_LIMIT + 10):
        parse_move({"type": "drop", "seat": seat})
    assert len(moves._PARSED) <= moves._PARSED_LIMIT
    assert parse_move({"type": "drop", "seat": 5}) == Drop(5)


def test_a_record_move_parses_as_its_copy_without_the_envelope_time():
    """The replayer reads a record's moves with parse_record_move (no copy); it must give what
    parse_move gives of the move without ``time`` (what the replayer used to pass)."""
    moves._PARSED.clear()
    for i, data in enumerate(grid()):
        if i % 7:
            continue  # a seventh of the grid, with each kind of envelope time
        for time in ("2026-11-01T00:00:11.000Z", 5, None, ["x"]):
            rec = dict(data, time=time)
            assert outcome(parse_record_move, rec) == outcome(plain_parse_move, data), rec
    d = {"type": "declare", "seat": 1, "finish_card": "KS", "groups": [["2H", "3H", "4H"]], "time": "t"}
    assert parse_record_move(d) == plain_parse_move({k: v for k, v in d.items() if k != "time"})
    with pytest.raises(MalformedError, match="unexpected fields"):
        parse_move(d)  # outside a record, time is not a move's field


def test_the_replayer_reads_rummy_moves_as_they_stand():
    from replay.rummy.engine import RummyEngine

    assert RummyEngine.parse_record_move is parse_record_move
