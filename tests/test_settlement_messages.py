"""replay/settlement.py's refusals in words, and its edges (issue 31: a one-line error is a
promise, so its message is pinned; bench/mutation.py found these unpinned)."""
from __future__ import annotations

from decimal import Decimal

import pytest

from replay.errors import MalformedError
from replay.settlement import MAX_POINTS, parse_amount, settle

PV, PCT = Decimal("0.25"), Decimal("5")


@pytest.mark.parametrize("text,match", [
    (1.5, r'^amount must be a decimal string such as "0\.25"$'),
    (True, r'^amount must be a decimal string such as "0\.25"$'),
    ("1e3", r'^amount must be a decimal string such as "0\.25" \(at most 15 digits before the point\)$'),
    ("1" * 16, r"at most 15 digits before the point\)$"),
    ("0.255", r"^amount has more than two decimal places$"),
    ("-1", r"^amount must not be negative \(or carry a sign\)$"),
])
def test_parse_amount_refusals_say_why(text, match):
    with pytest.raises(MalformedError, match=match):
        parse_amount(text)


def test_parse_amount_names_what_it_reads():
    with pytest.raises(MalformedError, match=r"^point_value must not be negative"):
        parse_amount("-2", what="point_value")


@pytest.mark.parametrize("text", ["-0", "-0.00", "-0.0"])
def test_a_negative_zero_is_refused_even_where_negatives_are_allowed(text):
    with pytest.raises(MalformedError, match=r"^amount must not be a negative zero$"):
        parse_amount(text, allow_negative=True)


def test_negatives_where_allowed():
    assert parse_amount("-1", allow_negative=True) == Decimal("-1")
    assert parse_amount("-0.01", allow_negative=True) == Decimal("-0.01")


@pytest.mark.parametrize("points", [[1.5, -1.5], [True, -1], [Decimal("NaN"), 0], [Decimal("Infinity"), 0],
                                    [MAX_POINTS + 1, -MAX_POINTS - 1], ["1", "-1"]])
def test_points_that_are_not_a_bounded_number(points):
    with pytest.raises(MalformedError, match=rf"^a seat's points must be a number of at most {MAX_POINTS} in size$"):
        settle(points, point_value=PV, commission_pct=PCT)


def test_decimal_points_and_the_largest_points_settle():
    s = settle([Decimal("2"), Decimal("-2")], point_value=PV, commission_pct=PCT)
    assert s.nets == (Decimal("0.47"), Decimal("-0.50")) and s.commission == Decimal("0.03")
    s = settle([MAX_POINTS, -MAX_POINTS], point_value=Decimal("0.01"), commission_pct=Decimal("0"))
    assert s.gross == (Decimal("10000000000.00"), Decimal("-10000000000.00"))


def test_points_that_do_not_sum_to_zero():
    with pytest.raises(MalformedError, match=r"^net points \[3, -2\] with pot change 0 do not sum to zero$"):
        settle([3, -2], point_value=PV, commission_pct=PCT)


@pytest.mark.parametrize("pv", [Decimal("0"), Decimal("0.00"), Decimal("-0.25"), Decimal("NaN")])
def test_a_point_value_of_zero_or_less_is_refused(pv):  # rule D-2: the table money rule (docs/records.md)
    with pytest.raises(MalformedError, match=r"^point_value must be more than 0$"):
        settle([4, -4], point_value=pv, commission_pct=PCT)


@pytest.mark.parametrize("pct", [Decimal("-1"), Decimal("100"), Decimal("100.01"), Decimal("Infinity")])
def test_a_commission_outside_0_to_below_100_is_refused(pct):  # rule D-2, R-2
    with pytest.raises(MalformedError, match=r"^commission_pct must be at least 0 and less than 100$"):
        settle([4, -4], point_value=PV, commission_pct=pct)


def test_settlement_is_exact_beyond_decimals_default_28_digits():
    # 10**12 points at 999,999,999,999,999.99 HT: 29 significant digits, which Decimal's default
    # context would round; the settlement's own context keeps every digit
    s = settle([10 ** 12, -10 ** 12], point_value=Decimal("999999999999999.99"), commission_pct=Decimal("0"))
    assert str(s.gross[0]) == "999999999999999990000000000.00"


def test_amounts_too_precise_to_settle_exactly():
    with pytest.raises(MalformedError, match=r"^the amounts are too large or too precise to settle exactly$"):
        settle([7, -7], point_value=PV, commission_pct=Decimal("3." + "3" * 60))  # a 62-digit rate


def test_no_seats_settle_to_a_zero_commission_in_cents():
    assert settle([], point_value=PV, commission_pct=PCT).to_json()["commission"] == "0.00"
