"""Input rules at the edge: player names, amounts, points -- refused where they enter.

* A player name holds no control character (newline, NUL, ...), no bidi embedding,
  override or isolate (U+202A-202E, U+2066-2069), no invisible format character and no
  space but U+0020: each would change what a page or a terminal shows around it.
* ``point_value``/``commission_pct`` are unsigned decimal strings: ``"-0"`` is refused, in
  the ledger, the CLI and the operator API alike.
* ``tiplu eval ... settle`` with figures past the limits (points beyond
  :data:`replay.settlement.MAX_POINTS`, amounts past 15 digits) answers that line with
  ``{"error"}`` and goes on with the next; the money it does answer is exact.
"""
from __future__ import annotations

import json
from decimal import Decimal

import pytest
from click.testing import CliRunner

from audit.cli import main
from audit.operator.ledger import Ledger, check_player_name
from replay.errors import MalformedError
from replay.settlement import MAX_POINTS, parse_amount, settle

BAD_NAMES = ["asha\nbikash", "asha\r", "a\x00b", "a\tb", "evil\u202etxt.exe", "\u202dx", "a\u202ab", "a\u2066b",
             "a\u2069", "a\u200bb", "a\u200eb", "a\u061cb", "\ufeffasha", "a\u2028b", "a\u2029b", "a\u00a0b",
             "a\u3000b", "a\ue000b", "a\x85b", "a\u0378b"]
GOOD_NAMES = ["asha", "Bikash Thapa", "चन्द्र", "ডিপা", "O'Neil-2", "Zoë", "李"]


@pytest.mark.parametrize("name", BAD_NAMES, ids=[repr(n) for n in BAD_NAMES])
def test_names_that_change_what_is_shown_are_refused(name):
    with pytest.raises(MalformedError, match=r"^a player name (is 1-64 characters without outer spaces|may not contain U\+[0-9A-F]{4,5} \(a control, format or bidi character, or a space other than U\+0020\))"):
        check_player_name(name)
    ledger = Ledger(":memory:")
    ledger.new_operator("acme")
    ledger.new_table("t1", operator="acme", preset="kitti", seats=3)
    with pytest.raises(MalformedError, match=r"^a player name (is 1-64 characters without outer spaces|may not contain U\+[0-9A-F]{4,5} \(a control, format or bidi character, or a space other than U\+0020\))"):
        ledger.new_hand("t1", ["asha", name, "chandra"], hand_id="h1")
    assert list(ledger.list_hands()) == []


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_ordinary_names_in_any_script_are_kept(name):
    assert check_player_name(name) == name


def test_names_are_refused_over_the_operator_api(make_app, site):
    client = make_app().test_client()
    headers = {"Authorization": f"Bearer {site.operator_token}"}
    for name in ("evil\u202etxt", "two\nlines"):
        resp = client.post("/api/v1/operator/hands", headers=headers,
                           json={"table_id": "t1", "players": ["asha", name, "chandra"]})
        assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "malformed", resp.get_json()


@pytest.mark.parametrize("text", ["-0", "-0.00", "-0.0", "-1", "-5"])
def test_signed_amounts_and_negative_zero_are_refused(text, make_app, site):
    with pytest.raises(MalformedError, match=r"^commission_pct must not be negative \(or carry a sign\)$"):
        parse_amount(text, what="commission_pct")
    ledger = Ledger(":memory:")
    ledger.new_operator("acme")
    for field in ("commission_pct", "point_value"):
        with pytest.raises(MalformedError, match=r"^(commission_pct|point_value) must not be negative \(or carry a sign\)$"):
            ledger.new_table("t1", operator="acme", preset="kitti", seats=3, **{field: text})
    resp = make_app().test_client().post(
        "/api/v1/operator/tables", headers={"Authorization": f"Bearer {site.operator_token}"},
        json={"table_id": "t-neg", "preset": "kitti", "seats": 3, "commission_pct": text})
    assert resp.status_code == 400, resp.get_json()


def test_negative_zero_is_refused_even_where_signs_are_allowed():
    assert parse_amount("-1.50", allow_negative=True) == Decimal("-1.50")
    with pytest.raises(MalformedError, match=r"^amount must not be a negative zero$"):
        parse_amount("-0", allow_negative=True)


def test_settle_past_the_limits_answers_that_line_and_goes_on():
    lines = [
        {"op": "settle", "points": [0, 10 ** 29, 5], "winner": 0, "point_value": "999999999999999.99",
         "commission_pct": "5"},
        {"op": "settle", "points": [0, 10, 5], "winner": 0, "point_value": "1" * 16},
        {"op": "settle", "points": [0, 10, 5], "winner": 0, "point_value": "0.25", "commission_pct": "5"},
        {"op": "settle", "points": [0, 999_999_999, 5], "winner": 0, "point_value": "999999999999999.99",
         "commission_pct": "33.33"},
    ]
    res = CliRunner().invoke(main, ["eval", "rummy13"], input="".join(json.dumps(x) + "\n" for x in lines))
    answers = [json.loads(x) for x in res.output.splitlines()]
    assert len(answers) == 4 and res.exit_code == 1
    assert "error" in answers[0] and "error" in answers[1]
    assert answers[2]["nets"] == ["3.56", "-2.50", "-1.25"] and answers[2]["commission"] == "0.19"
    big = answers[3]  # within the limits: exact to the cent, and zero-sum
    assert sum(Decimal(x) for x in big["nets"]) + Decimal(big["commission"]) == 0
    assert big["gross"][1] == str(Decimal(-999_999_999) * Decimal("999999999999999.99"))


def test_settle_refuses_points_past_the_limit_in_the_library():
    with pytest.raises(MalformedError, match=r"^a seat's points must be a number of at most 1000000000000 in size$"):
        settle([MAX_POINTS + 1, -(MAX_POINTS + 1)], point_value=Decimal(1), commission_pct=Decimal(0))
    ok = settle([MAX_POINTS, -MAX_POINTS], point_value=Decimal("999999999999999.99"), commission_pct=Decimal("99.99"))
    assert sum(ok.nets) + ok.commission == 0
