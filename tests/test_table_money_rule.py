"""Table money has one rule (replay/settlement.py; docs/records.md, "Table money"): a point
value is more than 0 (rule D-2: points become money at it) and a commission is at least 0
and less than 100 percent (rules D-2, D-25, R-2: it is taken from what a winner gains, so the
winner keeps some).  Every reader applies that one rule: the record's parser and its schema,
the ledger, the CLI, the API, the settlement -- and the browser verifier mirrors it
(tests/js/test_js_audit.py)."""
from __future__ import annotations

import copy
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from audit.schema import _validator, validate_record
from replay.errors import MalformedError
from replay.record_model import check_shape
from replay.records import parse_record
from replay.settlement import (AMOUNT_PATTERN, COMMISSION_PCT_PATTERN, POINT_VALUE_PATTERN, parse_commission_pct,
                               parse_point_value)

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = json.loads(next((ROOT / "fixtures" / "records" / "kitti").glob("*.json")).read_text(encoding="utf-8"))

# text -> its value, or None when refused (by hand: the rule above, on the one amount spelling)
POINT_VALUES = {"0.25": Decimal("0.25"), "1": Decimal(1), "0.01": Decimal("0.01"), "007": Decimal(7),
                "999999999999999.99": Decimal("999999999999999.99"),
                "0": None, "0.00": None, "00": None, "0.0": None, "-1": None, "-0": None, "1e2": None, "0.001": None,
                "1000000000000000": None, " 1": None, "": None}
COMMISSIONS = {"0": Decimal(0), "5": Decimal(5), "2.5": Decimal("2.5"), "99.99": Decimal("99.99"),
               "099.99": Decimal("99.99"), "000000000000099": Decimal(99), "0.00": Decimal(0),
               "100": None, "100.00": None, "0100": None, "101": None, "-1": None, "-0": None, "99.999": None,
               "1e1": None, "0000000000000099": None}


@pytest.mark.parametrize("text", sorted(POINT_VALUES))
def test_a_point_value_is_more_than_0(text):  # rule D-2
    want = POINT_VALUES[text]
    if want is None:
        with pytest.raises(MalformedError, match=r"^point_value "):
            parse_point_value(text)
    else:
        assert parse_point_value(text) == want
    assert (re.search(POINT_VALUE_PATTERN, text) is not None) == (want is not None)  # the schema's pattern


@pytest.mark.parametrize("text", sorted(COMMISSIONS))
def test_a_commission_is_at_least_0_and_below_100(text):  # rule D-2, D-25, R-2
    want = COMMISSIONS[text]
    if want is None:
        with pytest.raises(MalformedError, match=r"^commission_pct "):
            parse_commission_pct(text)
    else:
        assert parse_commission_pct(text) == want
    assert (re.search(COMMISSION_PCT_PATTERN, text) is not None) == (want is not None)


def test_the_messages_say_the_rule():
    with pytest.raises(MalformedError, match=r"^point_value must be more than 0$"):
        parse_point_value("0")
    with pytest.raises(MalformedError, match=r"^commission_pct must be at least 0 and less than 100$"):
        parse_commission_pct("100")


def test_one_amount_regex():
    # the amount spelling is written once: the record model, the settlement and the two
    # table-money patterns are built from it (the browser's copy: tests/js/test_js_audit.py)
    from replay import record_model

    assert record_model.Amount.__metadata__[0].pattern == AMOUNT_PATTERN + r"(?!\n)"  # the text's end in Python too
    tail = AMOUNT_PATTERN.removeprefix("^-?")
    assert POINT_VALUE_PATTERN.endswith(tail) and COMMISSION_PCT_PATTERN.endswith(tail)
    for path in [*(ROOT / "replay").rglob("*.py"), *(ROOT / "audit").rglob("*.py"), *(ROOT / "web").glob("*.py")]:
        if path.name != "settlement.py":
            assert "{1,15}" not in path.read_text(encoding="utf-8"), path


@pytest.mark.parametrize("field,value,message", [("point_value", "0", "point_value must be more than 0"),
                                                 ("point_value", "0.00", "point_value must be more than 0"),
                                                 ("commission_pct", "100", "commission_pct must be at least 0 and less than 100")])
def test_a_record_breaking_the_rule_is_refused_by_the_schema_and_the_parser(field, value, message):
    record = copy.deepcopy(GOLDEN)
    record["table"][field] = value
    assert not check_shape(record) and not _validator().is_valid(record)
    with pytest.raises(MalformedError) as info:
        validate_record(record)
    assert info.value.location == f"$.table.{field}"
    noun = "a point value: an amount more than 0" if field == "point_value" else \
        "a commission: an amount at least 0 and less than 100"
    assert str(info.value) == f"$.table.{field}: {value!r} is not {noun} (docs/records.md, Table money)"
    with pytest.raises(MalformedError, match=f"^table: {message}$"):
        parse_record(record)


def test_the_ledger_cli_and_api_apply_the_rule(tmp_path):
    from click.testing import CliRunner

    from audit.cli import main
    from audit.operator.ledger.ledger import Ledger

    ledger = Ledger(tmp_path / "l.db", create=True)
    ledger.new_operator("op")
    with pytest.raises(MalformedError, match=r"^point_value must be more than 0$"):
        ledger.new_table("t0", operator="op", preset="kitti", point_value="0")
    with pytest.raises(MalformedError, match=r"^commission_pct must be at least 0 and less than 100$"):
        ledger.new_table("t1", operator="op", preset="kitti", commission_pct="100")
    assert ledger.new_table("t2", operator="op", preset="kitti", point_value="0.01", commission_pct="99.99").id == "t2"
    for option, value in (("--point-value", "0"), ("--commission-pct", "100")):
        res = CliRunner().invoke(main, ["table", "new", "t3", "--operator", "op", "--preset", "kitti", option, value,
                                        "--db", str(tmp_path / "l.db")])
        assert res.exit_code == 2, res.output
        assert ("must be more than 0" if option == "--point-value" else "less than 100") in res.output
