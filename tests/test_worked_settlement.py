"""The settlement worked term by term (replay.worked), against hand-computed examples."""
from __future__ import annotations

import json
import pathlib
from decimal import Decimal

import pytest

from audit.auditor.verdict.verify import audit_record
from replay.errors import MalformedError
from replay.game import Outcome, engine_for
from replay.rulesets import resolve
from replay.settlement import settle
from replay.worked import work_settlement

DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "records"
PLAYERS = ["asha", "bikash", "chandra", "dipa"]


def _work(preset, outcome, pv="0.25", pct="5"):
    engine = engine_for(resolve(preset))
    s = settle(outcome.net_points, point_value=Decimal(pv), commission_pct=Decimal(pct),
               pot_delta_points=outcome.pot_delta_points)
    return work_settlement(engine, outcome, s, point_value=Decimal(pv), commission_pct=Decimal(pct), players=PLAYERS)


def test_marriage_t_plus_w_minus_n_s_by_hand():
    # rule MC-31, MC-28, MC-30, D-9: scores A..D = 12, 30, 20, 5; the third wins; seats 0 and 2 saw.
    # T = 67, n = 4.  Seat 0: 67 + 3 - 4*12 = 22; seat 1: 67 + 10 - 120 = -43; seat 3: 67 + 10 - 20 = 57.
    out = Outcome(points=(12, 30, 20, 5), net_points=(-22, 43, 36, -57), winner=2,
                  breakdown=({"seen": True}, {"seen": False}, {"seen": True}, {"seen": False}),
                  detail={"finish": {"dublee": False}})
    w = _work("marriage/nepal", out)
    p = w["points"]
    assert (p["T"], p["n"], p["winner"]) == (67, 4, 2)
    rows = p["rows"]
    assert [r.get("pays_winner") for r in rows] == [22, -43, None, 57]
    assert [r.get("w") for r in rows] == [3, 10, None, 10]
    assert rows[0]["sum"] == "T + w − n·S = 67 + 3 − 4·12 = 22"
    assert rows[2]["receives"] == 36
    # the basic method, pair by pair: seat 0 pays 30-12, 20-12, 5-12 and w = 3 to the winner: 22
    assert rows[0]["pairwise"] == [{"to": 1, "points": 18}, {"to": 2, "points": 8}, {"to": 3, "points": -7},
                                   {"to": 2, "points": 3, "w": True}]
    assert sum(x["points"] for x in rows[0]["pairwise"]) == 22 == -rows[0]["pairwise_net"]
    # rule D-2: 43 points x 0.25 = 10.75 HT, 5% commission 0.5375 -> 0.54, net 10.21
    money = w["money"]["rows"]
    assert (money[1]["gross"], money[1]["commission"], money[1]["net"]) == ("10.75", "0.54", "10.21")
    assert money[0]["commission"] == "0.00" and money[0]["net"] == "-5.50"
    # the winner's 36 points: 9.00 HT, commission 0.45; the house takes 0.54 + 0.45
    assert money[2]["commission"] == "0.45" and w["money"]["commission"] == "0.99"


def test_marriage_dublee_finish_adds_five_to_w():
    # rule MC-29: the winner finished on dublees: each opponent pays 5 more
    out = Outcome(points=(0, 10, 0), net_points=(-15, 10 + 15 + 10 - 30 + 0, 0), winner=1,
                  breakdown=({"seen": False}, {"seen": True}, {"seen": True}), detail={"finish": {"dublee": True}})
    # T = 10, n = 3: seat 0 pays 10 + 15 - 0 = 25, seat 2 pays 10 + 8 - 0 = 18; the winner receives 43
    out = Outcome(points=out.points, net_points=(-25, 43, -18), winner=1, breakdown=out.breakdown, detail=out.detail)
    rows = _work("marriage/nepal", out)["points"]["rows"]
    assert (rows[0]["w_seen"], rows[0]["w_dublee"], rows[0]["w"]) == (10, 5, 15)
    assert rows[2]["w"] == 8 and rows[1]["receives"] == 43


def test_marriage_void_round():
    # rule D-10: no winner: net = n*S - T
    out = Outcome(points=(4, 0, 2), net_points=(6, -6, 0), winner=None,
                  breakdown=({"seen": True}, {"seen": False}, {"seen": True}))
    p = _work("marriage/classic", out)["points"]
    assert p["method"] == "D-10" and p["rows"][0]["sum"] == "n·S − T = 3·4 − 6 = 6"


def test_kitti_pot_in_rounds_and_pot_out():
    # rule K-1, D-13: 2 points carried in, 4 stakes of 1; seat 1 wins two rounds and takes all 6
    out = Outcome(points=(1, 2, 0, 0), net_points=(-1, 5, -1, -1), winner=1,
                  breakdown=tuple({"stakes": 1, "salami": 0} for _ in range(4)), pot_delta_points=-2,
                  detail={"pot_before": 2, "pot_after": 0, "reason": "rounds"})
    p = _work("kitti", out)["points"]
    assert (p["pot_in"], p["stakes_in"], p["pot_at_show"], p["pot_taken"], p["pot_out"]) == (2, 4, 6, 6, 0)
    assert p["rounds_won"] == [1, 2, 0, 0]
    assert p["rows"][1]["sum"] == "−1 stake +6 pot = 5"


def test_kitti_no_winner_keeps_the_pot():
    # rule D-14: nobody takes the pot; it is carried out whole
    out = Outcome(points=(1, 1, 1, 0), net_points=(-1, -1, -1, -1), winner=None,
                  breakdown=tuple({"stakes": 1, "salami": 0} for _ in range(4)), pot_delta_points=4,
                  detail={"pot_before": 0, "pot_after": 4, "reason": "kitti"})
    p = _work("kitti", out)["points"]
    assert p["pot_taken"] == 0 and p["pot_out"] == 4


def test_rummy_points_times_rate_and_commission_on_the_gain():
    # rule R-20, D-2: losers pay their points; the winner receives 20 + 45 + 80 = 145;
    # 145 x 0.10 = 14.50 HT, 10% commission 1.45, net 13.05
    out = Outcome(points=(0, 20, 45, 80), net_points=(145, -20, -45, -80), winner=0,
                  breakdown=({}, {"left": "drop"}, {}, {}))
    w = _work("rummy13", out, pv="0.10", pct="10")
    assert w["points"]["rows"][0]["sum"] == "receives 20 + 45 + 80 = 145"
    m = w["money"]["rows"][0]
    assert (m["gross"], m["commission"], m["net"]) == ("14.50", "1.45", "13.05")
    assert m["sum"] == "+145 × 0.10 = 14.50; − 10% commission 1.45 = 13.05"


def test_terms_that_do_not_give_the_engine_nets_are_refused():
    out = Outcome(points=(0, 20), net_points=(21, -21), winner=0, breakdown=({}, {}))
    with pytest.raises(MalformedError, match=r"^the worked points \[20, -20\] are not the engine's nets \[21, -21\]$"):
        _work("rummy13", out)


@pytest.mark.parametrize("name", ["marriage-nepal/golden-0.json", "marriage-classic/golden-0.json",
                                  "kitti/golden-0.json", "rummy13/golden-0.json"])
def test_every_audited_hand_carries_its_worked_settlement(name):
    v = audit_record((DIR / name).read_text())
    worked = v.replay.worked
    assert worked["points"]["net_points"] == list(v.replay.outcome.net_points)
    assert [r["net"] for r in worked["money"]["rows"]] == v.replay.settlement.to_json()["nets"]
    json.dumps(worked)  # plain JSON


def test_the_winners_pairwise_payments_add_up_too():
    # rule MC-30: the winner pays each the difference and receives each w; the sum is minus its net
    v = audit_record((DIR / "marriage-nepal/golden-0.json").read_text())
    pts = v.replay.worked["points"]
    win = pts["rows"][pts["winner"]]
    assert sum(x["points"] for x in win["pairwise"]) == -win["net_points"]
    for r in pts["rows"]:
        assert sum(x["points"] for x in r["pairwise"]) == -r["net_points"]


def _golden_worked(name="marriage-nepal/golden-0.json"):
    v = audit_record((DIR / name).read_text())
    return v.replay.worked, list(v.replay.record.table.players)


def test_the_pairwise_total_says_pays_or_gets_in_text_and_on_the_page():
    # rule MC-30: golden-0's winner bikash nets +28 and asha -5; the total of each seat's
    # pairwise payments reads "gets 28" / "pays 5", never "= -28" for a gain
    import jinja2

    from audit.cli.replay import worked_lines

    worked, players = _golden_worked()
    nets = {players[r["seat"]]: r["pairwise_net"] for r in worked["points"]["rows"]}
    assert nets["bikash"] == 28 and nets["asha"] == -5
    text = "\n".join(worked_lines(worked, players))
    assert "= gets 28" in text and "= pays 5" in text and "= -28" not in text and "= 5\n" not in text
    from replay.rulesets import resolve
    from web.game_templates import with_games, worked_template

    env = jinja2.Environment(loader=with_games(jinja2.FileSystemLoader(str(DIR.parents[1] / "web" / "templates"))))
    html = env.get_template("_worked.html").render(
        worked=worked, players=players, vj=None, ruleset=resolve("marriage/nepal"),
        worked_template=worked_template("marriage"))
    assert "= gets 28</span>" in html and "= pays 5</span>" in html and "= -28" not in html
