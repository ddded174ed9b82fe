"""``tiplu eval`` decodes its lines with msgspec and falls back to ``json.loads``
(``replay.jsontext.decode_json``, which reads record lines too): every line must read exactly as ``json.loads`` reads it
-- the same value, or the same error."""
from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from audit.cli.evaluate import answer_lines
from replay.jsontext import decode_json as _loads


def same(text: str) -> None:
    try:
        want = ("ok", json.loads(text))
    except (json.JSONDecodeError, RecursionError) as exc:
        want = ("error", type(exc), str(exc))
    try:
        got = ("ok", _loads(text))
    except (json.JSONDecodeError, RecursionError) as exc:
        got = ("error", type(exc), str(exc))
    # repr tells -0.0 from 0, 1 from 1.0 and True from 1; nan is never equal to itself
    assert repr(got) == repr(want), text
    if want[0] == "ok" and isinstance(want[1], float) and math.isnan(want[1]):
        assert math.isnan(got[1])


EDGES = [
    "1e400", "-1e400", "[1e309]", "NaN", "-Infinity", "Infinity", "-0", "-0.0", "0.0", "1E2", "1e-400",
    "4.9e-324", "2.2250738585072011e-308", "0.30000000000000004", "123456789012345678901234567890.5",
    "18446744073709551616", "9223372036854775808", "-9223372036854775809", "1" * 500, "-" + "9" * 300,
    '"\\ud800"', '"\\udc00x"', '"\\uD83D\\uDE00"', '{"\\u00e9": "\\u0000"}', '"a\x01"', '"\\/"', '"\\x"',
    '{"a":1,"b":2,"a":3}', '{"a" : [ 1 , 2 ] }', " {} ", "\t[]\r\n", "[1,]", '{"a":1,}', "01", "1.", ".5",
    "-", "", " ", "\ufeff{}", "[" * 2000 + "]" * 2000, "[" * 900 + "]" * 900, "true", "null", "True",
    '{"op":"rank","cards":["AS","KD","TC"]}', '{"op": "rank", "cards": ["A\\u2660"]}', "[1] [2]", "1 2",
    '"\u2660\u00e9"', '{"settings": {"two_three_five": true}}',
]


def test_edge_cases_read_as_json_loads_reads_them():
    for text in EDGES:
        same(text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(json_values, st.booleans())
def test_any_json_text_reads_as_json_loads_reads_it(value, ascii_only):
    same(json.dumps(value, ensure_ascii=ascii_only))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='{}[]",:0123456789.eE+-tfrunlasNIiy \\u\t\n', max_size=30))
def test_any_text_reads_or_fails_as_json_loads(text):
    same(text)


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(min_value=-400, max_value=400))
def test_numbers_in_any_spelling_read_the_same(x, exp):
    for text in (repr(x), f"{x:.17e}", f"{x:.3e}", f"{abs(x)}e{exp}", f"-{abs(x):.20f}"):
        same(text)


def test_the_driver_answers_as_before_on_unusual_lines():
    lines = [b'{"op":"rank","cards":["AS","KD","TC"]}', b"NaN", b'{"op":"rank","cards":["AS","KD","TC"],"x":1e400}',
             b'{"op":"rank","cards":["\\ud800"]}', b"[1,]", b'{"op":"nope"}', b"12345678901234567890123"]
    out, failed = answer_lines("kitti", lines)
    assert failed
    assert out.decode().splitlines() == [
        '{"class":"high_card","strength":[1,14,13,10]}',
        '{"error":"each line must be a JSON object with an \'op\'"}',
        '{"class":"high_card","strength":[1,14,13,10]}',
        '{"error":"not a card: \'\\\\ud800\' (expected e.g. 7H, TS, JK, MC)"}',
        '{"error":"not JSON: Expecting value at column 4"}',
        '{"error":"unknown op \'nope\'; known: rank, splits, check, default, settle, table, play"}',
        '{"error":"each line must be a JSON object with an \'op\'"}',
    ]
