"""The fast canonical encoder (orjson) writes exactly the documented canonical form.

The documented form (docs/records.md, docs/fairness.md; ``replay/canonical.py``) is
``json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` as UTF-8, no
floats.  That call is kept here as the reference: on generated values -- non-ASCII text of
every plane, control characters, lone surrogates, integers of any size, nesting, tuples --
and on every fixture record, every statement and every log leaf of them,
:func:`canonical_json` gives the same bytes or the same error.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, reject, settings, strategies as st

from audit.tlog.store import leaf_entry
from replay.canonical import canonical_json, plain_canonical_json
from replay.errors import MalformedError
from replay.canonical import json_kind
from replay.record_text import first_non_integer
from replay.records import load_json, load_json_kind, record_core

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def reference(value) -> bytes:
    """The documented canonical form, exactly as it was written before orjson."""
    def no_floats(v):
        if isinstance(v, float):
            raise MalformedError("float")
        if isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    raise MalformedError("key")
                no_floats(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                no_floats(x)
    no_floats(value)
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedError("surrogate") from None


def outcome(fn, value):
    try:
        return ("bytes", fn(value))
    except MalformedError:
        return ("malformed",)


CHARS = st.characters(codec=None, categories=None)  # every code point, lone surrogates included
TEXT = st.one_of(st.text(CHARS, max_size=12), st.text(st.characters(max_codepoint=0x7f), max_size=12),
                 st.sampled_from(["", "\u2028\u2029", "\x7f\x00\x1f", "é", "नेपाल", "\U0001F0A1", "\ufeff",
                                  "\\\"\n\r\t\b\f", "\ud800", "\udfff"]))
INTS = st.one_of(st.integers(), st.integers(-2**70, 2**70),
                 st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1, 0, -1]))
LEAVES = st.one_of(st.none(), st.booleans(), INTS, TEXT)
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(TEXT, inner, max_size=4)), max_leaves=25)


@settings(max_examples=1500, deadline=None)
@given(VALUES)
def test_generated_values_encode_as_documented(value):
    assert outcome(canonical_json, value) == outcome(reference, value)


@settings(max_examples=300, deadline=None)
@given(VALUES, st.floats(allow_nan=False))
def test_a_float_anywhere_is_still_refused(value, x):
    for v in ([value, x], {"a": {"b": [x]}, "c": value}):
        assert outcome(canonical_json, v) == ("malformed",) == outcome(reference, v)


def test_deep_nesting_takes_the_documented_path():
    for depth in (200, 254, 255, 256, 300, 600):
        v: object = 1
        for _ in range(depth):
            v = [v, {"k": v}] if depth < 30 else [v]
        assert canonical_json(v) == reference(v)


def test_subclasses_take_the_documented_path():
    class S(str):
        pass

    class I(int):
        pass

    v = {"a": S("x"), "b": I(3), "c": [True, None]}
    assert canonical_json(v) == reference(v)


def _fixture_records():
    for path in sorted(FIXTURES.rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if first_non_integer(data) is not None:
            continue  # written with 1.0 for an integer on purpose: malformed, with no canonical JSON
        yield path, data


def test_every_fixture_record_statement_and_leaf():
    seen = 0
    for path, data in _fixture_records():
        assert canonical_json(data) == reference(data), path
        if isinstance(data, dict) and isinstance(data.get("fairness"), dict):
            seen += 1
            core = record_core(data)
            assert canonical_json(core) == reference(core) == plain_canonical_json(core), path
            for signed in data["fairness"].get("statements", []):
                entry = {"statement": signed["statement"], "key": signed["key"], "sig": signed["sig"]}
                assert leaf_entry(signed) == leaf_entry(signed, plain=True) == reference(entry), path
                assert canonical_json(signed["statement"]) == reference(signed["statement"])
    assert seen >= 40  # every golden and corrupted record of every preset


def test_plain_encoder_falls_back_for_what_orjson_cannot_write():
    for v in ({"big": 2**80}, [-2**64]):
        assert plain_canonical_json(v) == reference(v)
    with pytest.raises(MalformedError):
        plain_canonical_json({"s": "\ud800"})


@settings(max_examples=500, deadline=None)
@given(VALUES)
def test_load_json_reads_what_json_reads(value):
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        reject()
    for t in (text, json.dumps(value)):
        assert load_json(t) == json.loads(t)
        try:
            b = t.encode("utf-8")
        except UnicodeEncodeError:
            continue
        assert load_json(b) == json.loads(b)


@pytest.mark.parametrize("text", ["NaN", "[Infinity, -Infinity]", "1e400", '"\\ud800"', '{"a": 1, "a": 2}',
                                  b"\xef\xbb\xbf{}", "[1, 2.5, -0, -0.0, 12345678901234567890123]"])
def test_load_json_edge_cases_read_as_json_reads_them(text):
    ours, theirs = load_json(text), json.loads(text)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("text", ["", "  ", "[1,]", "01", '"\x01"', "{", "1 2", b"\xff",
                                  "\ufeff{}"])
def test_load_json_refuses_what_json_refuses(text):
    with pytest.raises(MalformedError) as info:
        load_json(text)
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        assert f"not JSON: {exc.msg}" in str(info.value) and info.value.location == f"line {exc.lineno} column {exc.colno}"
    except UnicodeDecodeError:
        assert "UnicodeDecodeError" in str(info.value)


@settings(max_examples=500, deadline=None)
@given(st.one_of(VALUES, st.lists(st.floats(allow_nan=False)), st.dictionaries(TEXT, st.floats(), max_size=2)))
def test_load_json_kind_is_the_walk_of_what_load_json_reads(value):
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        reject()
    for t in (text, json.dumps(value)):
        data, kind = load_json_kind(t)
        assert repr(data) == repr(load_json(t))
        assert kind == json_kind(data)


@pytest.mark.parametrize("text", ["NaN", "[1.5]", "[1, 2]", '"\\ud800"', "1e400", b"\xef\xbb\xbf[0.5]"])
def test_load_json_kind_edges(text):
    data, kind = load_json_kind(text)
    assert repr(data) == repr(json.loads(text)) and kind == json_kind(data)
