"""A table's money reconciles to the cent, every term named (issue 29, item 5): the counted
hands' balances + the house's commission + what they moved into the carried pot == 0, and a
hand settled on a pot the audit rejects (carry_mismatch) never counts.

The figures below are worked by hand from the rules; the settlements are the real
``replay.settlement.settle`` (the hands' replays are stood in for: only their money, their
table's carry and number are read by the report).
"""
from __future__ import annotations

import copy
import json
from decimal import Decimal as D
from types import SimpleNamespace

from click.testing import CliRunner

from audit.cli import main
from web.cli import main as tiplu_main
from audit.auditor.run.report import AuditReport
from audit.operator.sim.tamper import TamperContext, _resign_record
from audit.auditor.verdict.verify import Verdict, audit_record
from replay.settlement import settle
from replay.stream import Stream

PLAYERS = ("asha", "bikash", "chandra")
PV, PCT = D("1.00"), D("10")  # one HT a point, 10 % commission on a winner's gain (D-2)


def _hand(no: int, pot_before: int, net_points: list[int], pot_delta: int) -> Verdict:
    record = SimpleNamespace(table=SimpleNamespace(players=PLAYERS, carry={"pot_before": pot_before}, hand_no=no),
                             ruleset=SimpleNamespace(game="kitti"), outcome=None)
    outcome = SimpleNamespace(pot_delta_points=pot_delta, winner=None)
    replay = SimpleNamespace(record=record, outcome=outcome,
                             settlement=settle(net_points, point_value=PV, commission_pct=PCT, pot_delta_points=pot_delta))
    return Verdict(f"h{no}", "kitti", (), "t1", replay)


def _table(*verdicts: Verdict) -> dict:
    report = AuditReport()
    for v in verdicts:
        report.add(v.hand_id, v)
    return report.to_json()["tables"]["t1"]


# Hand 0 -- a kitti, nobody wins (D-14): each of the three stakes 1 (K-1), the pot goes 0 -> 3.
#   nets -1, -1, -1; commission 0 (nobody gains); pot change +3.
# Hand 1 -- asha wins the pot (D-13): she takes 3 carried + 3 new stakes = 6, her gain 6 - 1 = 5;
#   commission 10 % of 5 = 0.50 (D-2), so her net is 4.50; bikash, chandra -1; pot 3 -> 0 (-3).
# Hand 2 -- a kitti again: nets -1, -1, -1, pot 0 -> 3 (+3).
# Table: asha -1 + 4.50 - 1 = 2.50; bikash -3; chandra -3; balances sum -3.50;
#   commission 0.50; pot change +3 - 3 + 3 = +3.00;  -3.50 + 0.50 + 3.00 = 0.00.
HAND0 = (0, 0, [-1, -1, -1], 3)
HAND1 = (1, 3, [5, -1, -1], -3)
HAND2 = (2, 0, [-1, -1, -1], 3)


def test_balances_commission_and_pot_change_sum_to_zero_to_the_cent():
    # rule D-2, rule D-14, rule K-1, rule D-13
    t = _table(_hand(*HAND0), _hand(*HAND1), _hand(*HAND2))
    assert t["balances"] == {"asha": "2.50", "bikash": "-3.00", "chandra": "-3.00"}
    assert t["commission"] == "0.50"
    assert t["reconciliation"] == {"balances": "-3.50", "commission": "0.50", "pot_change": "3.00", "sum": "0.00",
                                   "hands_counted": 3, "hands_not_counted": 0}
    assert t["pot"] == {"start": 0, "end": 3, "moved_by_counted_hands": 3, "moved_by_hands_not_counted": 0}


def test_a_hand_settled_on_a_pot_the_audit_rejects_never_counts():
    # rule D-14: the pot carries to the next deal unchanged.  The operator claims hand 1 starts
    # with a pot of 6 (hand 0 left 3): asha takes 6 + 3 = 9, a gain of 8, commission 0.80, net
    # 7.20; the pot goes 6 -> 0.  Counted, asha would show -1 + 7.20 - 1 = 5.20.  Hand 1 is
    # settled on a rejected pot, so only hands 0 and 2 count:
    #   asha -2, bikash -2, chandra -2 (sum -6.00); commission 0; pot change +3 + 3 = +6.00.
    forged1 = _hand(1, 6, [8, -1, -1], -6)
    t = _table(_hand(*HAND0), forged1, _hand(*HAND2))
    assert t["balances"] == {"asha": "-2.00", "bikash": "-2.00", "chandra": "-2.00"}
    assert t["commission"] == "0.00"
    assert t["reconciliation"] == {"balances": "-6.00", "commission": "0.00", "pot_change": "6.00", "sum": "0.00",
                                   "hands_counted": 2, "hands_not_counted": 1}
    assert (t["passed"], t["unreconciled"]) == (2, 1)
    [rej] = t["rejected"]
    assert rej["hand_id"] == "h1" and rej["reason"] == "carry_mismatch"
    assert t["carry_faults"] == ["hand 1 starts with pot 6, but hand 0 left 3"]
    # the pot: 0 at the start (hand 0), 3 at the end (hand 2); the counted hands moved +3 and +3,
    # so the hand not counted moved it by -3 (from the 3 hand 0 left to the 0 hand 2 starts from)
    assert t["pot"] == {"start": 0, "end": 3, "moved_by_counted_hands": 6, "moved_by_hands_not_counted": -3}


def test_a_forged_carry_in_a_real_archive_is_taken_out_of_the_balances(tmp_path, kitti_archive):
    # rule D-14 end to end: a re-signed record whose pot is 4 points bigger is rejected, its
    # money is not counted, and what is counted still reconciles to zero
    ledger, _, records = kitti_archive
    recs = [copy.deepcopy(r) for r, _ in records]
    recs[2]["table"]["carry"]["pot_before"] += 4
    _resign_record(recs[2], TamperContext(ledger.signing_key("demo-operator"), Stream(bytes(32), bytes(32), "c")))
    src = tmp_path / "d.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in recs))
    res = CliRunner().invoke(main, ["audit", str(src), "--json", "--no-progress"])
    assert res.exit_code == 1
    t = json.loads(res.output)["tables"]["t1"]
    assert [r["hand_id"] for r in t["rejected"]] == [recs[2]["hand_id"]]
    # the balances are exactly the other hands' replayed nets
    want: dict[str, D] = {}
    commission = D(0)
    for k, rec in enumerate(recs):
        if k == 2:
            continue
        s = audit_record(rec).replay.settlement
        for player, net in zip([x["player"] for x in rec["table"]["seats"]], s.nets):
            want[player] = want.get(player, D(0)) + net
        commission += s.commission
    assert {p: D(v) for p, v in t["balances"].items()} == want and D(t["commission"]) == commission
    r = t["reconciliation"]
    assert D(r["balances"]) + D(r["commission"]) + D(r["pot_change"]) == 0 and r["sum"] == "0.00"


def test_the_table_page_and_api_show_the_reconciliation(tmp_path):
    # rule D-2, rule D-14: every demo table adds up to 0.00, with the pot named where there is one
    from web.cli import demo_app

    res = CliRunner().invoke(tiplu_main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    client = demo_app(tmp_path / "tiplu.db").test_client()
    tables = {h["table_id"]: h["preset"] for h in client.get("/api/v1/hands?limit=200").get_json()["hands"]}
    for tid, preset in tables.items():
        money = client.get(f"/api/v1/tables/{tid}").get_json()
        r = money["reconciliation"]
        assert D(r["balances"]) + D(r["commission"]) + D(r["pot_change"]) == 0 and r["sum"] == "0.00"
        assert D(r["balances"]) == sum((D(v) for v in money["balances"].values()), D(0))
        html = client.get(f"/tables/{tid}").get_data(as_text=True)
        assert 'data-sum="0.00"' in html and f"balances {r['balances']}" in html
        assert ("moved into the pot" in html) == (preset == "kitti")
