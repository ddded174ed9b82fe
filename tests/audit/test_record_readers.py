"""The record's readers agree (issue 31): its schema (the file generated from the record model,
read by jsonschema), the model itself (msgspec) and the parser (the integers rule of
replay/record_text.py, then replay.records.parse_record).

Over every record of fixtures/records and of the conformance suite, and over malformed
variants of a golden record: the schema accepts exactly what the parser accepts, except
where one of them cannot state the other's rule -- and those are named here, each with why.
The audit runs both (audit.auditor.verdict.verify.audit_record: the schema, then the parser),
so a record either refuses is ``malformed`` whichever it is."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from audit.schema import _validator
from replay.errors import MalformedError
from replay.record_model import check_shape
from replay.record_text import refuse_non_integers
from replay.records import parse_record

ROOT = Path(__file__).resolve().parent.parent.parent
FILES = sorted((ROOT / "fixtures" / "records").rglob("*.json")) + sorted(
    (ROOT / "fixtures" / "conformance" / "records").rglob("*.json"))
GOLDEN = json.loads((ROOT / "fixtures" / "records" / "kitti" / "golden-0.json").read_text(encoding="utf-8"))

# records the schema accepts and the parser refuses, by what JSON Schema cannot say: its
# "integer" is a value, so 3.0 is one -- a record's *text* writes every number as an integer
# (docs/records.md), a rule of the text (the model, reading msgspec's types, refuses a float
# where it has an integer field, as table.dealer; a statement is an open object to it)
INTEGER_SPELLING = {"conformance/records/edited/dealer-as-float.json": (True, False),
                    "conformance/records/edited/seat-with-exponent.json": (True, True)}
# records the schema refuses and the parser reads: shape the parser leaves to the schema (the
# table's key is read as given; hex in upper case is not the record's spelling)
SHAPE_ONLY = {"conformance/records/edited/key-upper-case.json"}


def _readers(data) -> tuple[bool, bool, bool]:
    try:
        refuse_non_integers(data)
        parse_record(data)
        parsed = True
    except MalformedError:
        parsed = False
    return _validator().is_valid(data), check_shape(data), parsed


def test_the_fixture_and_conformance_records_are_read_alike():
    seen = 0
    for path in FILES:
        name = str(path.relative_to(ROOT / "fixtures"))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            assert name == "conformance/records/edited/truncated.json"  # not JSON: no reader reads it
            continue
        if not (isinstance(data, dict) and "fairness" in data):
            continue
        seen += 1
        schema, model, parsed = _readers(data)
        if name in INTEGER_SPELLING:
            assert (schema, model, parsed) == (True, *INTEGER_SPELLING[name][1:], False), name
        elif name in SHAPE_ONLY:
            assert (schema, model, parsed) == (False, False, True), name
        else:
            assert schema == model == parsed, name
    assert seen >= 100


def _set(path, value):
    def edit(rec):
        node = rec
        for p in path[:-1]:
            node = node[p]
        if value is DELETE:
            del node[path[-1]]
        else:
            node[path[-1]] = value(node[path[-1]]) if callable(value) else value
    return edit


DELETE = object()
T = ("table",)
F = ("fairness",)
S0 = ("fairness", "statements", 0, "statement")

# malformed variants: (name, edit).  Each is refused by the schema, the model and the parser.
BOTH = [
    ("point value 0", _set(T + ("point_value",), "0")),
    ("point value 0.00", _set(T + ("point_value",), "0.00")),
    ("point value negative", _set(T + ("point_value",), "-0.25")),
    ("point value three places", _set(T + ("point_value",), "0.255")),
    ("point value with a final newline", _set(T + ("point_value",), "0.25\n")),
    ("commission 100", _set(T + ("commission_pct",), "100")),
    ("commission 0100", _set(T + ("commission_pct",), "0100")),
    ("commission as a number", _set(T + ("commission_pct",), 5)),
    ("statement time, basic format", _set(S0 + ("time",), lambda t: t.replace("-", "").replace(":", ""))),
    ("statement time, an offset", _set(S0 + ("time",), lambda t: t[:-1] + "+00:00")),
    ("statement time, no milliseconds", _set(S0 + ("time",), lambda t: t[:19] + "Z")),
    ("unknown format", _set(("format",), "tiplu.hand/9")),
    ("empty hand id", _set(("hand_id",), "")),
    ("no table", _set(T, DELETE)),
    ("no seats", _set(T + ("seats",), [])),
    ("dealer negative", _set(T + ("dealer",), -1)),
    ("dealer as text", _set(T + ("dealer",), "0")),
    ("protocol v2", _set(F + ("protocol",), "v2")),
    ("server seed not hex", _set(F + ("server_seed",), "zz")),
    ("ruleset hash short", _set(F + ("ruleset_hash",), "ab")),
    ("moves not a list", _set(("moves",), {})),
    ("a move not an object", _set(("moves", 0), 5)),
    ("outcome a list", _set(("outcome",), [])),
    ("unknown preset", _set(("ruleset", "preset"), "chess")),
]
# refused by the parser only: meaning a JSON Schema of this model cannot state (how the
# parts relate, a calendar, Python's printable characters) -- the audit's parser says it
PARSER_ONLY = [
    ("seats out of order", _set(T + ("seats",), lambda s: list(reversed(s)))),
    ("dealer past the last seat", _set(T + ("dealer",), 99)),
    ("one seat commitment too few", _set(F + ("seat_commitments",), lambda c: c[:-1])),
    ("a log proof too few", _set(F + ("log_proofs",), lambda p: p[:-1])),
    ("statement time, no such day", _set(S0 + ("time",), lambda t: t[:5] + "02-30" + t[10:])),
    ("hand id not printable", _set(("hand_id",), "h\u0000")),
]
# refused by the schema only: shape the parser leaves to the schema (it reads these fields
# as given; the audit has refused the record before it parses)
SCHEMA_ONLY = [
    ("table key not hex", _set(T + ("public_key",), "not-a-key")),
    ("table key with a final newline", _set(T + ("public_key",), lambda k: k + "\n")),  # Python's $ alone allows it
    ("a statement without its signature", _set(("fairness", "statements", 0, "sig"), DELETE)),
    ("a move without its type", _set(("moves", 0, "type"), DELETE)),
    ("payouts claimed as numbers", _set(("outcome", "payouts", "commission"), 0)),
    ("player name too long", _set(T + ("seats", 0, "player"), "x" * 129)),
]


@pytest.mark.parametrize("name,edit", BOTH + PARSER_ONLY + SCHEMA_ONLY, ids=[n for n, _ in BOTH + PARSER_ONLY + SCHEMA_ONLY])
def test_a_malformed_variant_is_refused_by_the_readers_it_names(name, edit):
    record = copy.deepcopy(GOLDEN)
    assert _readers(record) == (True, True, True)
    edit(record)
    schema, model, parsed = _readers(record)
    assert schema == model, name  # the model is the schema (tests/audit/test_record_model.py)
    if name in dict(BOTH):
        assert (schema, parsed) == (False, False), name
    elif name in dict(PARSER_ONLY):
        assert (schema, parsed) == (True, False), name
    else:
        assert (schema, parsed) == (False, True), name
