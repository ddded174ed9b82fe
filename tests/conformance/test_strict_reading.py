"""The three rules on which the Python audit and the browser verifier once disagreed
(docs/records.md; the cases record/integral-*, record/time-basic-format,
witness/policy-other-log): integers written as integers, one spelling of a statement time,
a pinned key that must be one of a pinned policy's logs."""
from __future__ import annotations

import json
import pathlib

import pytest
from click.testing import CliRunner

from audit.auditor.verdict.verify import audit_record
from audit.timecheck import parse_clock, parse_time
from replay.errors import MalformedError
from replay.faults import Reason
from replay.record_text import first_non_integer, is_statement_time, refuse_non_integers

SUITE = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "conformance"


@pytest.mark.parametrize("text,ok", [
    ("2026-11-01T00:00:01.000Z", True),
    ("2028-02-29T23:59:59.999Z", True),
    ("20261101T000001.000Z", False),          # basic format: fromisoformat reads it, the docs do not allow it
    ("2026-11-01T00:00:01Z", False),          # no milliseconds
    ("2026-11-01T00:00:01.000+00:00", False),  # an offset
    ("2026-11-01 00:00:01.000Z", False),      # a space for the T
    ("2026-02-29T00:00:01.000Z", False),      # not a leap year
    ("2026-11-01T24:00:00.000Z", False),
    ("2026-11-01T00:00:60.000Z", False),
    ("٢٠٢٦-11-01T00:00:01.000Z", False),      # Arabic-Indic digits match \d, not [0-9]
    (20261101, False),
])
def test_a_statement_time_has_one_spelling(text, ok):
    assert is_statement_time(text) is ok
    assert (parse_time(text) is not None) is ok


def test_the_auditors_clock_is_still_any_iso_time_with_a_zone():
    assert parse_clock("2027-06-01T00:00:00Z") == parse_clock("2027-06-01T00:00:00+00:00") is not None
    assert parse_clock("2027-06-01T00:00:00") is None


def test_a_number_with_a_fraction_or_exponent_is_found_and_refused():
    assert first_non_integer(json.loads('{"a": [1, {"b": 2}], "c": 3}')) is None
    assert first_non_integer(json.loads('{"a": [1, {"b": 2.0}], "c": 3}')) == "$.a[1].b"
    assert first_non_integer(json.loads('{"a": 1e0}')) == "$.a"
    with pytest.raises(MalformedError, match="fraction or an exponent"):
        refuse_non_integers(json.loads('{"seat": 1.0}'))


def _key():
    return json.loads((SUITE / "manifest.json").read_text(encoding="utf-8"))["keys"]["operator"]["public_key"]


@pytest.mark.parametrize("name", ["dealer-as-float", "seat-with-exponent"])
def test_a_record_writing_an_integer_as_a_float_is_malformed(name):
    text = (SUITE / "records" / "edited" / f"{name}.json").read_text(encoding="utf-8")
    verdict = audit_record(text, public_key=_key())
    assert verdict.reason == Reason.MALFORMED
    assert "fraction or an exponent" in str(verdict.faults[0])


def test_a_signed_and_logged_basic_format_time_is_malformed():
    text = (SUITE / "records" / "forged" / "basic-format-time.json").read_text(encoding="utf-8")
    verdict = audit_record(text, public_key=_key())
    assert verdict.reason == Reason.MALFORMED
    assert "statement.time" in str(verdict.faults[0])


def test_a_key_outside_the_policys_logs_is_a_usage_error(tmp_path):
    from web.cli import main
    record = sorted((SUITE / "records" / "main").glob("*.json"))[0]
    result = CliRunner().invoke(main, ["audit", str(record), "--public-key", _key(), "--json", "--no-progress",
                                       "--policy", str(SUITE / "policies" / "other-log.txt")])
    assert result.exit_code == 2
    assert "is not a log of the policy" in result.stderr
