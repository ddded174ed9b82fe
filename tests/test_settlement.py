"""Money (replay/settlement.py) against hand-computed examples (D-2)."""
from decimal import Decimal as D

import pytest
from hypothesis import given, strategies as st

from replay.errors import MalformedError
from replay.settlement import format_amount, parse_amount, round_cents, settle


def test_commission_from_the_winner_rounded_half_up():  # rule D-2
    # 10 points at 0.25 = 2.50 HT; 5 % of 2.50 = 0.125 -> 0.13 (half up)
    s = settle([10, -4, -6], point_value=D("0.25"), commission_pct=D("5"))
    assert s.gross == (D("2.50"), D("-1.00"), D("-1.50"))
    assert s.nets == (D("2.37"), D("-1.00"), D("-1.50"))
    assert s.commission == D("0.13") and s.pot_delta == 0
    assert s.to_json() == {"gross": ["2.50", "-1.00", "-1.50"], "nets": ["2.37", "-1.00", "-1.50"],
                           "commission": "0.13", "pot_delta": "0.00"}


def test_exactly_half_a_cent_rounds_up_and_less_rounds_down():  # rule D-2
    # 1 point at 0.10 with 5 %: 0.005 -> 0.01
    assert settle([1, -1], point_value=D("0.10"), commission_pct=D("5")).commission == D("0.01")
    # 9 points at 0.01 with 5 %: 0.09 * 0.05 = 0.0045 -> 0.00
    assert settle([9, -9], point_value=D("0.01"), commission_pct=D("5")).commission == D("0.00")
    assert round_cents(D("2.675")) == D("2.68") and round_cents(D("-2.675")) == D("-2.68")


def test_zero_commission_keeps_the_gross():  # rule D-2
    s = settle([7, -3, -4], point_value=D("0.5"), commission_pct=D("0"))
    assert s.nets == s.gross == (D("3.5"), D("-1.5"), D("-2.0")) and s.commission == 0


def test_two_winners_each_pay_commission():  # rule D-2
    # D-10-style void round: nets 6, 2, -8 at 1 HT with 2.5 %: 0.15 + 0.05
    s = settle([6, 2, -8], point_value=D("1"), commission_pct=D("2.5"))
    assert s.commission == D("0.20") and s.nets == (D("5.85"), D("1.95"), D("-8"))


def test_pot_delta_counts_as_a_party():  # rule D-2 (Kitti carries a pot)
    s = settle([-1, -1, -1], point_value=D("0.25"), commission_pct=D("5"), pot_delta_points=3)
    assert s.pot_delta == D("0.75") and s.commission == 0 and sum(s.nets) + s.pot_delta == 0


def test_points_that_do_not_sum_to_zero_are_refused():  # rule D-2
    with pytest.raises(ValueError, match=r"^net points \[3, -2\] with pot change 0 do not sum to zero$"):
        settle([3, -2], point_value=D("1"), commission_pct=D("0"))


@given(st.lists(st.integers(-500, 500), min_size=1, max_size=7),
       st.sampled_from(["0.01", "0.25", "1", "2.5"]), st.sampled_from(["0", "2.5", "5", "10"]))
def test_money_always_sums_to_zero(points, pv, pct):  # rule D-2
    points = points + [-sum(points)]
    s = settle(points, point_value=D(pv), commission_pct=D(pct))
    assert sum(s.nets) + s.commission + s.pot_delta == 0
    assert all(f >= 0 for f in (g - n for g, n in zip(s.gross, s.nets)))


@pytest.mark.parametrize("text,value", [("0.25", D("0.25")), ("5", D("5")), ("0", D("0")), (3, D("3")),
                                        ("12.5", D("12.5")), ("999999999999999.99", D("999999999999999.99"))])
def test_parse_amount_accepts(text, value):
    assert parse_amount(text) == value


@pytest.mark.parametrize("bad", [0.25, 1.0, True, None, [], "NaN", "nan", "inf", "Infinity", "-inf", "0.125",
                                 "1.001", "-1", "1" * 16, "1" * 40, "1e3", "1E-2", "1_000", "+1", " 1", "1 ",
                                 "", " ", "१", "٣", "0x1", "1.", ".5", "--1"])
def test_parse_amount_rejects(bad):  # rule D-2: exact decimals, never floats
    with pytest.raises(MalformedError):
        parse_amount(bad)


def test_parse_amount_limits():
    assert parse_amount("-1.50", allow_negative=True) == D("-1.50")
    assert parse_amount("101") == D("101")  # an amount has no upper bound but its digits; a commission has (test_table_money_rule)
    with pytest.raises(MalformedError, match="two decimal places"):
        parse_amount("0.125")


def test_format_amount():
    assert format_amount(D("-1.5")) == "-1.50" and format_amount(D("2")) == "2.00"
    assert format_amount(D("0.125")) == "0.125"  # never silently rounded


@pytest.mark.parametrize("pv,pct", [("-0.25", "5"), ("0.25", "-1"), ("0.25", "100.01"), ("NaN", "5"), ("1", "Infinity"),
                                    ("0", "5"), ("0.25", "100")])
def test_settle_refuses_bad_table_values(pv, pct):  # rule D-2, R-2: the table money rule (docs/records.md)
    with pytest.raises(MalformedError):
        settle([1, -1], point_value=D(pv), commission_pct=D(pct))


def test_the_highest_commission_is_below_100():  # rule D-2, R-2: 0 <= commission_pct < 100
    # 20 points at 0.25 HT: a gain of 5.00; 99.99 % of it is 4.9995, half up 5.00 -- the cent
    # rounding takes it all here; 50 % of 5.00 is 2.50
    s = settle([20, -20], point_value=D("0.25"), commission_pct=D("99.99"))
    assert s.nets == (D("0.00"), D("-5.00")) and s.commission == D("5.00")
    s = settle([20, -20], point_value=D("0.25"), commission_pct=D("50"))
    assert s.nets == (D("2.50"), D("-5.00")) and s.commission == D("2.50")
