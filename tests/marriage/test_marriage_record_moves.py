"""A record's moves read as they stand (issue 18, session 5).

The replay reads a Marriage record move with ``parse_record_move``: the move's own fields
plus the envelope's ``time``, which it ignores, without copying the move to drop it.
It must give exactly what :func:`replay.replayer.engine_move` gives -- the same move, or
the same error at the same location -- for any move, valid or not; and the parsed draws
and discards it keeps (immutable values, keyed by fields whose types are checked first)
must never answer for a move that differs in a type."""
import json

from hypothesis import given, settings, strategies as st

from replay.errors import MalformedError
from replay.rulesets import resolve
from replay.replayer import engine_move
from replay.marriage import moves as moves_module
from replay.marriage.engine import MarriageEngine
from replay.marriage.moves import Discard, Draw, parse_move, parse_record_move

from tests.marriage.test_marriage_engine_moves import MOVES

ENGINE = MarriageEngine(resolve("marriage/nepal"))
ODD_VALUES = st.sampled_from([True, False, 1, 0, 1.0, -1, None, "", "7H", "10H", "TH", "JK", "1Z", "stock",
                              "discard", [], ["7H"], [["7H", "8H", "9H"]], {}, "2026-11-01T00:05:11.000Z"])
FIELDS = st.sampled_from(["type", "seat", "auto", "card", "cards", "source", "sets", "groups", "discard", "time",
                          "move", "extra"])


def parsed(fn, data):
    try:
        move = fn(data)
    except MalformedError as exc:
        return ("refused", str(exc), exc.location)
    return (type(move), move)


@st.composite
def record_moves(draw):
    data = json.loads(json.dumps(draw(MOVES).to_json()))
    if draw(st.booleans()):
        data["time"] = "2026-11-01T00:05:11.000Z"
    for _ in range(draw(st.integers(0, 2))):
        field = draw(FIELDS)
        if draw(st.booleans()) and field in data:
            del data[field]
        else:
            data[field] = draw(ODD_VALUES)
    return data


# the same move or the same refusal as the copy without "time" (docs/records.md: the
# envelope field is not the engine's)
@settings(max_examples=800, deadline=None)
@given(record_moves())
def test_a_record_move_parses_as_its_copy_without_time(data):
    want = parsed(lambda d: ENGINE.parse_move({k: v for k, v in d.items() if k != "time"}), data)
    assert parsed(parse_record_move, data) == want
    assert parsed(ENGINE.parse_record_move, data) == want
    assert parsed(lambda d: engine_move(ENGINE, d), data) == want


def test_time_is_still_not_a_field_of_a_move():
    data = {"type": "discard", "seat": 1, "card": "7H", "time": "2026-11-01T00:05:11.000Z"}
    assert parse_record_move(data) == Discard(1, parse_move({"type": "discard", "seat": 1, "card": "7H"}).card)
    assert parsed(parse_move, data) == ("refused", "time: a discard move has no field 'time'", "time")


# a kept draw or discard answers only for fields of the same types: 1 is not true, true is
# not seat 1, and a card named two ways is one move
def test_kept_moves_never_answer_for_another_type():
    assert parse_move({"type": "discard", "seat": 1, "card": "7H", "auto": True}).auto is True
    assert parsed(parse_move, {"type": "discard", "seat": 1, "card": "7H", "auto": 1})[0] == "refused"
    assert parse_move({"type": "draw", "seat": 1, "source": "stock"}) == Draw(1, "stock")
    assert parsed(parse_move, {"type": "draw", "seat": True, "source": "stock"})[0] == "refused"
    assert parsed(parse_move, {"type": "draw", "seat": 1.0, "source": "stock"})[0] == "refused"
    assert (parse_move({"type": "discard", "seat": 2, "card": "10H"})
            == parse_move({"type": "discard", "seat": 2, "card": "TH"}))
    assert parsed(parse_move, {"type": "discard", "seat": 2, "card": ["TH"]})[0] == "refused"


def test_kept_moves_are_bounded():
    for seat in range(moves_module._MADE_LIMIT + 100):
        assert parse_move({"type": "discard", "seat": seat, "card": "7H"}).seat == seat
    assert len(moves_module._MADE) <= moves_module._MADE_LIMIT


# issue 18, session 6: parse_record_move answers a kept draw or discard at once only for
# fields of the kept types and no other field; every other record move is read in full
def test_a_record_move_answered_at_once_is_the_kept_one_only_for_the_same_types():
    t = "2026-11-01T00:05:11.000Z"
    honest = [{"type": "draw", "seat": 1, "source": "stock", "time": t},
              {"type": "draw", "seat": 1, "source": "discard", "card": "7H", "time": t},
              {"type": "discard", "seat": 1, "card": "7H", "time": t},
              {"type": "discard", "seat": 1, "card": "7H", "auto": True, "time": t}]
    moves_module._MADE.clear()   # (other tests may have filled it to its bound)
    for data in honest:   # kept now
        assert parse_record_move(data) is parse_record_move(dict(data))
    odd = []
    for data in honest:
        for field, values in (("seat", [True, 1.0, -1, "1", None]), ("card", ["TH", ["7H"], 7, None, "7Z"]),
                              ("source", ["STOCK", ["stock"], None, 1]), ("auto", [1, 0, "true", None]),
                              ("extra", [1]), ("move", ["draw"]), ("type", ["Draw", None])):
            for value in values:
                odd.append(dict(data, **{field: value}))
        for field in list(data):
            odd.append({k: v for k, v in data.items() if k != field})
    for data in odd:
        want = parsed(lambda d: ENGINE.parse_move({k: v for k, v in d.items() if k != "time"}), data)
        assert parsed(parse_record_move, data) == want, data
        assert parsed(parse_record_move, data) == want, data   # again, with anything it kept


@settings(max_examples=400, deadline=None)
@given(st.lists(record_moves(), min_size=2, max_size=8))
def test_record_moves_parse_as_their_copies_in_any_order(datas):
    """The same, for runs of moves in one process (what one parse keeps, the next may find)."""
    for data in datas + datas[::-1]:
        want = parsed(lambda d: ENGINE.parse_move({k: v for k, v in d.items() if k != "time"}), data)
        assert parsed(parse_record_move, data) == want
