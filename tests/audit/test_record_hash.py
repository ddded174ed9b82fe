"""replay.records.record_hash is canonical_hash(record_core(record)), answer and error alike."""
from __future__ import annotations

import copy
import json
import pathlib
from types import MappingProxyType

import pytest

from replay.canonical import canonical_hash
from replay.records import record_core, record_hash

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIR = ROOT / "fixtures" / "records"
MANIFEST = json.loads((DIR / "manifest.json").read_text())["records"]


def _outcome(fn, value):
    try:
        return "ok", fn(value)
    except Exception as exc:  # noqa: BLE001 - the two paths must fail the same way
        return "error", type(exc)


def _reference(record):
    return canonical_hash(record_core(record))


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["file"] for e in MANIFEST])
def test_same_hash_for_every_fixture_record(entry):
    record = json.loads((DIR / entry["file"]).read_text())
    before = copy.deepcopy(record)
    assert record_hash(record) == _reference(record)
    assert record == before  # the record is not changed


def _golden():
    entry = next(e for e in MANIFEST if e["ok"])
    return json.loads((DIR / entry["file"]).read_text())


def test_the_hash_ignores_exactly_the_server_seed_and_the_statements():
    record = _golden()
    h = record_hash(record)
    record["fairness"]["server_seed"] = "00" * 32
    record["fairness"]["statements"] = []
    assert record_hash(record) == h
    record["fairness"]["player_seeds"] = record["fairness"]["player_seeds"][::-1]
    assert record_hash(record) != h


def _odd_records():
    r = _golden()
    yield "int key in a move", {**r, "moves": [{**r["moves"][0], 1: "x"}] + r["moves"][1:]}
    yield "float in the outcome", {**r, "outcome": {**r["outcome"], "x": 1.5}}
    yield "nan", {**r, "outcome": {**r["outcome"], "x": float("nan")}}
    yield "tuple of moves", {**r, "moves": tuple(r["moves"])}
    yield "no fairness", {k: v for k, v in r.items() if k != "fairness"}
    yield "fairness not a dict", {**r, "fairness": MappingProxyType(r["fairness"])}
    yield "record not a dict", MappingProxyType(r)
    yield "int key at the top", {**r, 7: "x"}
    yield "lone surrogate", {**r, "hand_id": "h\ud800"}
    yield "not JSON at all", {**r, "outcome": object()}


@pytest.mark.parametrize("name, record", list(_odd_records()), ids=[n for n, _ in _odd_records()])
def test_odd_inputs_get_the_reference_answer_or_error(name, record):
    assert _outcome(record_hash, record) == _outcome(_reference, record)
