"""The fast schema check says exactly what jsonschema says, on clean and mutated records."""
from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from audit.fastschema import Unsupported, compile_schema
from audit.schema import _fast_check, _validator, validate_record
from replay.canonical import canonical_json
from replay.errors import MalformedError

JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 2**40), st.floats(allow_nan=False),
                        st.text(max_size=70), st.sampled_from(["v1", "kitti", "0.25", "a" * 64, "tiplu.hand/1"]))
JSON = st.recursive(JSON_LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                    max_leaves=6)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


def _mutate(record, path, new, delete):
    rec = copy.deepcopy(record)
    if not path:
        return new
    parent = rec
    for p in path[:-1]:
        parent = parent[p]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return rec


def test_the_hand_record_schema_compiles():
    assert _fast_check() is not None


def test_clean_records_pass_both(kitti_archive):
    for rec, _ in kitti_archive[2]:
        assert _fast_check()(rec) and _validator().is_valid(rec)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), new=JSON, delete=st.booleans())
def test_fast_check_agrees_with_jsonschema_on_mutations(kitti_archive, data, new, delete):
    record = kitti_archive[2][0][0]
    paths = list(_paths(record))
    path = data.draw(st.sampled_from(paths))
    bad = _mutate(record, path, new, delete)
    expected = _validator().is_valid(bad)
    assert _fast_check()(bad) == expected
    if not expected:  # the message still comes from jsonschema, with its location
        with pytest.raises(MalformedError) as info:
            validate_record(bad)
        assert info.value.location.startswith("$")


def test_unknown_keywords_are_refused_so_the_check_is_never_laxer():
    with pytest.raises(Unsupported):
        compile_schema({"type": "object", "additionalProperties": False})
    with pytest.raises(Unsupported):
        compile_schema({"const": 1})


def test_integer_and_number_types_follow_jsonschema():
    check = compile_schema({"type": "integer", "minimum": 0})
    assert check(3) and check(3.0) and not check(True) and not check(-1) and not check("3")
    assert compile_schema({"type": "number"})(2.5) and not compile_schema({"type": "number"})(False)


@given(JSON)
def test_canonical_json_fast_path_rejects_exactly_the_floats(value):
    has_float = any(isinstance(v, float) for v in _leaves(value))
    if has_float:
        with pytest.raises(MalformedError):
            canonical_json(value)
    else:
        canonical_json(value)


def _leaves(v):
    if isinstance(v, dict):
        for x in v.values():
            yield from _leaves(x)
    elif isinstance(v, list):
        for x in v:
            yield from _leaves(x)
    else:
        yield v
