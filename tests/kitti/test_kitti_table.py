"""A table of deals: the kitti carries over, the dealer moves (D-2, D-4, D-13, D-14)."""
from decimal import Decimal

from hypothesis import given, settings, strategies as st

from replay.kitti.eval_requests import evaluate
from replay.kitti.table import TableState


def S(text):
    return [s.split() for s in text.split("/")]


# Deal 1: rounds to seats 0, 1, 2 -> nobody has two: a kitti.
DEAL1 = {"seats": [{"sets": S("AS AH AD / 7C 5D 2H / 6C 4D 3H")},
                   {"sets": S("KS QS JS / KH KD 2S / 9C 8D 4S")},
                   {"sets": S("QH JH TH / QC QD 3S / 9S 9H 4C")}]}
# Deal 2: round one tied (K-Q-J v K-Q-J), then seat 0, then seat 1: a kitti again.
DEAL2 = {"seats": [{"sets": S("KS QH JD / AS AC 3D / 8S 6H 2C")},
                   {"sets": S("KH QD JC / 7S 7H 4C / TS 9H 2S")},
                   {"sets": S("5S 5H 2D / 4S 4H 3C / 9S 6D 3S")}]}
# Deal 3: seat 2 takes rounds one and two and the pot of 9.
DEAL3 = {"seats": [{"sets": S("QS QH QD / JS JH 4C / 9C 9D 2S")},
                   {"sets": S("8S 7S 6S / TC TD 3C / 6H 4D 2D")},
                   {"sets": S("AS AH AD / KS KH 2C / 7C 5D 3H")}]}


def test_kitti_carries_over_three_deals():
    # rules D-14, K-1, K-18, D-13, D-4, D-2 -- by hand, 1 HT a point, 10 % commission:
    # deal 1: everyone -1, pot 0 -> 3; deal 2: everyone -1, pot 3 -> 6;
    # deal 3: seat 2 stakes 1 and takes 9: +8 gross, commission 0.80, net 7.20; pot 9 -> 0.
    out = evaluate({"op": "table", "deals": [DEAL1, DEAL2, DEAL3], "point_value": "1",
                    "commission_pct": "10"})
    d1, d2, d3 = out["deals"]
    assert [r["winner"] for r in d1["rounds"]] == [0, 1, 2] and d1["reason"] == "kitti"
    assert (d1["pot_before"], d1["pot_after"], d1["net_points"]) == (0, 3, [-1, -1, -1])
    assert [r["winner"] for r in d2["rounds"]] == [None, 0, 1] and d2["reason"] == "kitti"
    assert (d2["pot_before"], d2["pot_after"]) == (3, 6)
    assert d3["winner"] == 2 and d3["rounds_won"] == [1, 0, 2] and d3["salami"] is False
    assert (d3["pot_before"], d3["pot_after"], d3["net_points"]) == (6, 0, [-1, -1, 8])
    assert d3["nets"] == ["-1.00", "-1.00", "7.20"] and d3["commission"] == "0.80"
    assert [d["dealer"] for d in (d1, d2, d3)] == [0, 1, 2] and out["dealer"] == 0
    assert out["balances"] == ["-3.00", "-3.00", "5.20"]
    assert out["commission"] == "0.80" and out["pot"] == 0 and out["pot_ht"] == "0.00"


def test_table_state_books_money_and_moves_the_dealer():
    # rules D-4, D-2, D-14
    t = TableState.open(4, point_value="0.50", commission_pct="5", dealer=3)
    t, s = t.record([-1, -1, -1, -1], 4)
    assert t.dealer == 0 and t.pot == 4 and s.pot_delta == Decimal("2.00")
    t, s = t.record([-1, -1, 7, -1], -4)
    assert t.pot == 0 and t.dealer == 1
    assert s.commission == Decimal("0.18")          # 5 % of 3.50 = 0.175 -> 0.18 half-up
    assert t.balances == (Decimal("-1.00"), Decimal("-1.00"), Decimal("2.82"), Decimal("-1.00"))
    t.check_zero_sum()


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 5), st.data(), st.sampled_from(["0.01", "0.25", "1", "3.33"]),
       st.sampled_from(["0", "2.5", "5", "12.75"]))
def test_every_table_sums_to_zero(n, data, pv, pct):
    # rules D-2, D-14: players' nets + commission + the pot's change = 0, deal by deal and overall
    t = TableState.open(n, point_value=pv, commission_pct=pct)
    for _ in range(data.draw(st.integers(1, 6))):
        stake = data.draw(st.integers(1, 5))
        if data.draw(st.booleans()):
            winner = data.draw(st.integers(0, n - 1))
            nets = [-stake] * n
            nets[winner] += t.pot + n * stake
            delta = -t.pot
        else:
            nets, delta = [-stake] * n, n * stake
        t, s = t.record(nets, delta)
        assert sum(s.nets) + s.commission + s.pot_delta == 0
    t.check_zero_sum()
