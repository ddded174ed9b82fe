"""`tiplu eval rummy13`: the points, check and settle operations, and their errors."""
import json
from decimal import Decimal

import pytest
from click.testing import CliRunner

from audit.cli import main
from replay.errors import TipluError
from replay.rummy.eval_requests import evaluate
from replay.settlement import settle


def test_points_op_returns_minimum_and_a_grouping():  # rules, D-22
    out = evaluate({"op": "points", "indicator": "7S",
                    "cards": "2H 3H 4H 5S 6S 7D 9D 9C 9S KD KC 8C 4C".split()})
    assert out["points"] == 32
    assert sorted(out["loose"]) == ["4C", "8C", "KC", "KD"]
    assert sorted(len(g) for g in out["groups"]) == [3, 3, 3]
    assert set(out) == {"points", "groups", "loose"}


def test_points_op_printed_joker_indicator():  # rule R-5
    cards = "7H 7S 7D 2C 4C 6C 8C TC QC KD 9D JD JS".split()
    # Under a JK indicator only printed jokers are wild: 7H 7S 7D is a plain set, there is
    # no pure sequence, and everything counts: 7 * 3 + 2+4+6+8+10+10+10+9+10+10 = 100.
    assert evaluate({"op": "points", "indicator": "JK", "cards": cards})["points"] == 100
    # with 7s wild they count 0, and there is still no pure sequence: 79
    assert evaluate({"op": "points", "indicator": "7C", "cards": cards})["points"] == 79


def test_check_op():  # rules, D-21
    ok = [["2H", "3H", "4H"], ["5S", "6S", "JK"], ["9D", "9C", "9S"], ["KD", "KC", "KH", "JC"]]
    assert evaluate({"op": "check", "indicator": "JH", "groups": ok}) == {"valid": True, "rule": None}
    wrap = [["KS", "AS", "2S"]] + ok[1:]
    assert evaluate({"op": "check", "indicator": "JH", "groups": wrap}) == {"valid": False, "rule": "R-10"}
    impure_only = [["2H", "JK", "4H"]] + ok[1:]
    assert evaluate({"op": "check", "indicator": "JH", "groups": impure_only})["rule"] == "R-9"


def test_settle_op_hand_computed():  # rules, D-2, D-25
    out = evaluate({"op": "settle", "points": [0, 35, 20, 80], "winner": 0,
                    "point_value": "0.25", "commission_pct": "5"})
    # losers pay 35, 20, 80 points x 0.25 = 8.75, 5.00, 20.00; the winner's 33.75 less
    # 5% commission (1.6875 -> 1.69) = 32.06
    assert out["net_points"] == [135, -35, -20, -80]
    assert out["nets"] == ["32.06", "-8.75", "-5.00", "-20.00"] and out["commission"] == "1.69"
    assert sum(Decimal(x) for x in out["nets"]) + Decimal(out["commission"]) == 0


def test_settlement_of_an_outcome_is_zero_sum():  # rules R-2, D-2, D-25
    st = settle([195, -20, -91, -84], point_value=Decimal("0.10"), commission_pct=Decimal("10"))
    assert st.nets == (Decimal("17.55"), Decimal("-2.00"), Decimal("-9.10"), Decimal("-8.40"))
    assert st.commission == Decimal("1.95")


@pytest.mark.parametrize("req", [
    {"op": "points", "indicator": "7S", "cards": ["2H"] * 13},            # too many copies
    {"op": "points", "indicator": "7S", "cards": ["2H", "3H"]},           # wrong count
    {"op": "points", "indicator": "7S", "cards": ["ZZ"] * 13},            # unknown card
    {"op": "points", "cards": "2H 3H 4H 5S 6S 7D 9D 9C 9S KD KC 8C 4C".split()},  # no indicator
    {"op": "settle", "points": [5, 35], "winner": 0, "point_value": "1"},  # winner has points
    {"op": "settle", "points": [0, 35], "winner": 0, "point_value": 0.25},  # float money
    {"op": "fly"},
])
def test_bad_requests_raise_typed_errors(req):  # rule R-4
    with pytest.raises(TipluError):
        evaluate(req)


def test_cli_json_lines():  # rule D-22
    lines = "\n".join([
        json.dumps({"op": "points", "indicator": "AC",
                    "cards": "2H 3H 4H 5S 6S 7S 8S 9D 9C 9S KD KC JK".split()}),
        "not json",
        json.dumps({"op": "check", "indicator": "AC", "groups": [["2H", "3H"]]}),
    ])
    res = CliRunner().invoke(main, ["eval", "rummy13"], input=lines + "\n")
    out = [json.loads(x) for x in res.output.splitlines()]
    assert out[0]["points"] == 0 and out[0]["loose"] == []
    assert set(out[1]) == {"error"}
    assert out[2] == {"valid": False, "rule": "R-7"}
    assert res.exit_code == 1


def test_every_rummy_setting_is_documented():  # rule D-1
    from pathlib import Path

    from replay.rulesets import preset_spec
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rummy13.md").read_text(encoding="utf-8")
    for name in preset_spec("rummy13")["settings"]:
        assert f"`{name}`" in doc
