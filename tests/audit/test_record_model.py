"""The record model (replay.record_model.HandRecordDoc) is the one definition of the record's
shape, the schema file is generated from it, and the readers agree.

* ``audit/schemas/hand-record.schema.json`` is what ``tools/make_record_schema.py`` writes from
  the model, byte for byte (change the model and regenerate); ``docs/`` links to that one file.
* On JSON data the model's yes/no equals jsonschema's over the schema file (it is never
  laxer; it is stricter only where jsonschema counts ``1.0`` as an integer, or for integers
  past 64 bits).
* Every fixture record reads into the model and writes back to the same JSON.
* Over every fixture and conformance record, the schema accepts exactly the records the
  parser (:func:`replay.records.parse_record`, after the integers rule) accepts, but for the
  faults a JSON Schema cannot state, each named (tests/audit/test_record_readers.py).
"""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from audit.schema import _validator, validate_record
from replay.canonical import PLAIN_JSON, json_kind
from replay.errors import MalformedError
from replay.record_model import HandRecordDoc, check_shape, record_json, record_schema

ROOT = Path(__file__).resolve().parent.parent.parent
DOCS_SCHEMA = ROOT / "docs" / "hand-record.schema.json"
PACKAGE_SCHEMA = ROOT / "audit" / "schemas" / "hand-record.schema.json"


def test_the_schema_file_is_generated_from_the_model_and_current():
    out = subprocess.run([sys.executable, "tools/make_record_schema.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(PACKAGE_SCHEMA.read_text(encoding="utf-8")) == record_schema()


def test_the_check_sees_a_stale_file(tmp_path):
    # a copy of the generator writing into a copy of the package: one constraint edited by hand fails --check
    (tmp_path / "tools").mkdir()
    (tmp_path / "audit" / "schemas").mkdir(parents=True)
    tool = (ROOT / "tools" / "make_record_schema.py").read_text(encoding="utf-8")
    (tmp_path / "tools" / "make_record_schema.py").write_text(
        tool.replace("sys.path.insert(0, str(ROOT))", f"sys.path.insert(0, {str(ROOT)!r})"), encoding="utf-8")
    schema = record_schema()
    schema["properties"]["table"]["properties"]["seats"]["maxItems"] = 17
    (tmp_path / "audit" / "schemas" / "hand-record.schema.json").write_text(json.dumps(schema, indent=2), encoding="utf-8")
    out = subprocess.run([sys.executable, "tools/make_record_schema.py", "--check"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "is stale" in out.stderr


def test_the_schema_is_one_file():
    assert DOCS_SCHEMA.is_symlink() and DOCS_SCHEMA.resolve() == PACKAGE_SCHEMA.resolve()
    assert [p.name for p in ROOT.glob("**/hand-record.schema.json") if not p.is_symlink()] == [PACKAGE_SCHEMA.name]


def test_the_generated_schema_has_no_refs_and_the_models_constraints():
    text = json.dumps(record_schema())
    assert "$ref" not in text and "$defs" not in text
    table = record_schema()["properties"]["table"]["properties"]
    assert table["seats"]["maxItems"] == 16 and table["point_value"]["pattern"].startswith("^(?![0.]*$)")


def _records():
    for path in sorted((ROOT / "fixtures" / "records").rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "fairness" in data:
            yield path, data


def test_every_fixture_record_round_trips_through_the_model():
    n = 0
    for path, data in _records():
        doc = msgspec.convert(data, HandRecordDoc)
        assert msgspec.to_builtins(doc) == data, path
        assert record_json(doc) == data
        assert msgspec.json.decode(msgspec.json.encode(doc), type=HandRecordDoc) == doc
        n += 1
    assert n >= 40


def test_simulated_records_round_trip(kitti_archive):
    for rec, _ in kitti_archive[2]:
        assert check_shape(rec) and _validator().is_valid(rec)
        assert msgspec.to_builtins(msgspec.convert(rec, HandRecordDoc)) == rec


def test_writing_a_value_the_schema_refuses_is_a_typed_error():
    _, data = next(_records())
    doc = msgspec.convert(data, HandRecordDoc)
    doc.table.seats[0].player = "x" * 129
    with pytest.raises(MalformedError, match=r"\$\.table\.seats\[0\]\.player"):
        record_json(doc)
    with pytest.raises(TypeError, match=r"nickname"):
        type(doc.table)(**{**msgspec.structs.asdict(doc.table), "nickname": "no such field"})


# -- the model's yes/no against jsonschema, on mutations of a real record -------------------

JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 2**40), st.floats(allow_nan=False),
                        st.text(max_size=70), st.sampled_from(["v1", "kitti", "0.25", "a" * 64, "tiplu.hand/1",
                                                               "c2sp.org/tlog-proof@v1\nx", "f" * 128]))
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


def _big_ints(value) -> bool:
    return any(isinstance(v, int) and not -2**63 <= v < 2**64 for v in _leaves(value))


def _leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), new=JSON, delete=st.booleans())
def test_the_model_agrees_with_jsonschema_on_mutations(kitti_archive, data, new, delete):
    record = kitti_archive[2][0][0]
    path = data.draw(st.sampled_from(list(_paths(record))))
    bad = _mutate(record, path, new, delete)
    valid = _validator().is_valid(bad)
    if check_shape(bad):
        assert valid  # never laxer
    elif valid:  # stricter only where jsonschema reads 1.0 as an integer, or past 64 bits
        assert json_kind(bad) != PLAIN_JSON or _big_ints(bad)
    if not valid:  # the message comes from jsonschema, with its location
        with pytest.raises(MalformedError, match=r"^\$") as info:
            validate_record(bad)
        assert info.value.location.startswith("$")


def test_python_values_that_are_not_json_go_to_jsonschema(kitti_archive):
    record = copy.deepcopy(kitti_archive[2][0][0])
    record["table"]["seats"] = tuple(record["table"]["seats"])  # msgspec alone would read it as an array
    assert check_shape(record)
    with pytest.raises(MalformedError, match=r"^\$\.table\.seats: .* is n") as info:
        validate_record(record)
    assert info.value.location == "$.table.seats"
