"""One deal settled by hand-computed examples: K-1, K-3, K-5, K-8, K-17 ... K-22, D-2, D-13 ... D-17."""
from decimal import Decimal

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from replay.cards import STANDARD
from replay.errors import IllegalMoveError, MalformedError
from replay.kitti.arrangement import splits
from replay.kitti.eval_requests import evaluate
from replay.kitti.ranking import ranker_for
from replay.kitti.showdown import settle_deal
from replay.rulesets import resolve
from replay.settlement import settle as settle_money


def S(text):
    return [s.split() for s in text.split("/")]


def settle(seats, **kw):
    return evaluate({"op": "settle", "seats": seats, **kw})


# Seat 0 wins all three rounds; seat 1 plays on; seat 2 folds.
SALAMI = [
    {"sets": S("AS AH AD / KS QS JS / 9C 9D 2H")},
    {"sets": S("KH KD KC / 7S 6S 5S / JH TD 2C")},
    {"fold": True},
]


def test_salami_by_hand():
    # rules D-13, K-5, K-1, D-2: pot 3 stakes; seat 1 (played) pays one extra stake, seat 2
    # (folded) only loses its stake.  0.25 HT a point, 10 % commission on +0.75 = 0.075 -> 0.08.
    out = settle(SALAMI, point_value="0.25", commission_pct="10")
    assert out["winner"] == 0 and out["rounds_won"] == [3, 0, 0] and out["salami"] is True
    assert out["net_points"] == [3, -2, -1]
    assert out["salami_points"] == [1, -1, 0]
    assert out["gross"] == ["0.75", "-0.50", "-0.25"]
    assert out["commission"] == "0.08" and out["nets"] == ["0.67", "-0.50", "-0.25"]
    assert out["pot_before"] == 0 and out["pot_after"] == 0


def test_salami_stakes_setting():
    # rule D-13: salami_stakes = 2, stake = 3 -> the player pays 6 more
    out = settle(SALAMI, settings={"salami_stakes": 2, "stake": 3})
    assert out["net_points"] == [-3 + 9 + 6, -3 - 6, -3]


def test_two_rounds_and_consecutive():
    # rule D-13: round winners 0, 1, 0
    seats = [{"sets": S("AS AH AD / 9C 9D 4S / 8C 8D 3S")},
             {"sets": S("KS QS JS / TC TD 2S / 7H 5H 2D")}]
    two = settle(seats)
    assert [r["winner"] for r in two["rounds"]] == [0, 1, 0]
    assert two["winner"] == 0 and two["net_points"] == [1, -1] and two["salami"] is False
    # rules D-13, D-14: under "consecutive" nobody has two in a row: a kitti, the pot stays
    cons = settle(seats, settings={"win_rule": "consecutive"}, pot_before=4)
    assert cons["winner"] is None and cons["reason"] == "kitti"
    assert cons["net_points"] == [-1, -1] and cons["pot_after"] == 6 and cons["pot_delta"] == 2


def test_consecutive_win():
    # rule D-13: rounds 2 and 3 to seat 1 take the pot under both rules
    seats = [{"sets": S("AS AH AD / 9C 9D 4S / 8C 8D 3S")},
             {"sets": S("KS QS JS / TC TD 2S / 9H 9S 2D")}]
    for rule in ("two-rounds", "consecutive"):
        out = settle(seats, settings={"win_rule": rule})
        assert out["winner"] == 1 and out["rounds_won"] == [1, 2]


def test_strength_does_not_add_up():
    # rule K-8: a trail of aces in round one still wins only one round
    seats = [{"sets": S("AS AH AD / 6C 4C 3D / 5C 4D 2S")},
             {"sets": S("KS KH 2D / QS QH 3S / JS JH 4H")}]
    out = settle(seats)
    assert out["rounds_won"] == [1, 2] and out["winner"] == 1


def test_tied_round_counts_for_no_one():
    # rules K-16, K-18: K-Q-J against K-Q-J ties round one; seat 2 never ties
    seats = [{"sets": S("KS QH JD / AS AC 3D / 8S 6H 2C")},
             {"sets": S("KH QD JC / 7S 7H 4C / TS 9H 2S")},
             {"sets": S("5S 5H 2D / 4S 4H 3C / 9S 6D 3S")}]
    out = settle(seats)
    assert out["rounds"][0]["winner"] is None and out["rounds"][0]["tied"] == [0, 1]
    assert out["rounds_won"] == [1, 1, 0] and out["winner"] is None


def test_tie_only_counts_among_the_strongest():
    # rule K-18: two weaker sets tying does not stop the strongest from taking the round
    seats = [{"sets": S("AS AH AD / 9C 9D 4S / 8C 8D 3S")},
             {"sets": S("KH QD JC / 7S 7H 4C / TS 9H 2S")},
             {"sets": S("KS QH JD / 5S 5H 2D / 6D 4H 3C")}]
    out = settle(seats)
    assert out["rounds"][0]["winner"] == 0


def test_show_order_follows_the_round_winner():
    # rules K-17, K-4: round one in speaking order (dealer's right first); then the winner first
    seats = [{"sets": S("AS AH AD / 9C 9D 4S / 8C 8D 3S")},
             {"sets": S("KS QS JS / TC TD 2S / 7H 5H 2D")},
             {"fold": True}]
    out = settle(seats, dealer=0)
    assert out["rounds"][0]["show_order"] == [1, 0]   # dealer 0's right is seat 2 (folded), then 1
    assert out["rounds"][1]["show_order"] == [0, 1]   # seat 0 took round one
    assert out["rounds"][2]["show_order"] == [1, 0]   # seat 1 took round two


def test_uncontested_and_all_fold():
    # rule D-15: all but one fold -> that player takes the pot without showing
    hand = "AS AH AD KS QS JS 9C 9D 2H".split()
    out = settle([{"fold": True}, {"hand": hand}, {"fold": True}], pot_before=5)
    assert out["winner"] == 1 and out["reason"] == "uncontested" and out["rounds"] == []
    assert out["net_points"] == [-1, 7, -1] and out["pot_after"] == 0
    # rules D-15, D-14: all fold -> the pot stays
    out = settle([{"fold": True}, {"fold": True}], pot_before=5)
    assert out["winner"] is None and out["pot_after"] == 7 and out["net_points"] == [-1, -1]


FOUR_TWOS = "2S 2H 2D 2C 7S 8D 9C JH KC".split()


def test_four_of_a_kind_beats_a_trail_of_aces():
    # rules K-20, D-17: shown at once; wins even with no arrangement and against three aces
    out = settle([{"hand": FOUR_TWOS}, {"sets": S("AS AH AD / KS QS JS / 9H 9D 3H")}])
    assert out["winner"] == 0 and out["reason"] == "four_of_a_kind"
    assert out["four_of_a_kind"] == {"seat": 0, "rank": 2}
    assert out["net_points"] == [1, -1] and out["rounds"] == []


def test_four_of_a_kind_beats_an_enabled_two_three_five():
    # rules K-20, K-22, D-17
    on = {"two_three_five": True}
    seats = [{"hand": "9S 9H 9D 9C 7S 8D 4C JH KC".split()},
             {"sets": S("2S 3H 5D / AS AH AD / KS QS JS")}]
    out = settle(seats, settings=on)
    assert out["winner"] == 0 and out["reason"] == "four_of_a_kind"
    # without the four nines, the 2-3-5 takes round one from three aces
    seats = [{"sets": S("AS AH AD / 9S 9H 4C / 8C 8D 3S")},
             {"sets": S("2S 3H 5D / KS QS JS / TC TD 4H")}]
    out = settle(seats, settings=on)
    assert out["rounds"][0]["winner"] == 1 and out["winner"] == 1
    with pytest.raises(IllegalMoveError, match=r"^seat 1: sets must be placed strongest first \(rule K-6\)$"):  # rule K-6: off, 2-3-5 is a high card and cannot go first
        settle(seats)

def test_two_fours_higher_rank_wins():
    # rule K-20: two players with four of a kind: the higher rank wins (Ace high)
    out = settle([{"hand": FOUR_TWOS}, {"hand": "AS AH AD AC 3S 3H 4D 5C 6H".split()}])
    assert out["winner"] == 1 and out["four_of_a_kind"] == {"seat": 1, "rank": 14}


FOUR_PAIRS = {"sets": S("5S 4S 3S / 5H 4H 3H / 2S 2H 9C")}


def test_four_pairs_void_only_when_enabled():
    # rule K-21, D-14
    other = {"sets": S("AS AH AD / KS QS JS / TD TC 6D")}
    off = settle([FOUR_PAIRS, other], pot_before=2)
    assert off["void"] is False and off["winner"] == 1
    on = settle([FOUR_PAIRS, other], pot_before=2, settings={"four_pairs_void": True})
    assert on["void"] is True and on["winner"] is None and on["reason"] == "void"
    assert on["net_points"] == [-1, -1] and on["pot_after"] == 4 and on["rounds"] == []


def test_illegal_arrangement_in_a_deal_is_an_error():
    # rules K-6, K-2
    with pytest.raises(IllegalMoveError, match=r"^seat 0: sets must be placed strongest first \(rule K-6\)$") as e:
        settle([{"sets": S("KS QS JS / AS AH AD / 9C 9D 2H")}, {"fold": True}])
    assert e.value.rule == "K-6"
    with pytest.raises(MalformedError, match=r"^card 2H is dealt to two seats \(one deck, D-12\)$"):   # rule D-12: one deck, a card cannot be dealt twice
        settle([{"sets": S("AS AH AD / KS QS JS / 9C 9D 2H")}, {"sets": S("KH QH JH / 9S 9H 2S / 2H 3D 5C")}])
    with pytest.raises(MalformedError, match=r"^'seats' must list 2-5 seats \(D-12\)$"):   # rule D-12: 2-5 players
        settle([{"fold": True}])
    with pytest.raises(MalformedError, match=r"^seat 0 neither folded nor arranged \(K-2\)$"):   # rule K-2: a contested seat must fold or arrange
        settle([{"hand": "AS AH AD KS QS JS 9C 9D 2H".split()}, {"sets": S("KH KD KC / 7S 6S 5S / JH TD 2C")}])


def test_error_line_shape():
    from audit.cli.evaluate import evaluate_line
    bad = evaluate_line("kitti", '{"op": "settle", "seats": [{"sets": [["KS","QS","JS"],["AS","AH","AD"],["9C","9D","2H"]]}, {"fold": true}]}')
    assert set(bad) == {"error"} and "K-6" in bad["error"]
    assert set(evaluate_line("kitti", '{"op": "rank", "cards": ["ZZ"]}')) == {"error"}
    assert set(evaluate_line("kitti", '{"op": "rank", "cards": ["AS"], "settings": {"nope": 1}}')) == {"error"}


@hsettings(max_examples=150, deadline=None)
@given(st.integers(2, 5), st.permutations(STANDARD), st.data(),
       st.fixed_dictionaries({"win_rule": st.sampled_from(["two-rounds", "consecutive"]),
                              "four_pairs_void": st.booleans(), "two_three_five": st.booleans(),
                              "stake": st.integers(1, 4), "salami_stakes": st.integers(0, 3)}))
def test_every_deal_settles_to_zero(n, deck, data, overrides):
    # rules D-2, D-13, D-14, D-15, K-5: nets + pot change = 0 in points and, with commission, in HT
    rs = resolve("kitti", overrides)
    rk = ranker_for(rs)
    hands = [tuple(deck[9 * i: 9 * i + 9]) for i in range(n)]
    folded = [data.draw(st.booleans()) for _ in range(n)]
    arranged = [None if f else splits(h, rk)[data.draw(st.integers(0, 279))] for h, f in zip(hands, folded)]
    pot = data.draw(st.integers(0, 50))
    res = settle_deal(rs, hands=hands, arranged=arranged, folded=folded, pot_before=pot)
    assert sum(res.net_points) + res.pot_delta == 0
    assert res.pot_after in (0, pot + n * overrides["stake"])
    assert (res.winner is None) == (res.pot_after != 0)
    if res.reason == "rounds":
        assert res.rounds_won[res.winner] >= 2
    for i in range(n):
        if folded[i] and i != res.winner:
            assert res.net_points[i] == -overrides["stake"]        # rule K-5
    pv = data.draw(st.sampled_from(["0.01", "0.25", "1.50"]))
    pct = data.draw(st.sampled_from(["0", "5", "12.5"]))
    s = settle_money(res.net_points, point_value=Decimal(pv), commission_pct=Decimal(pct),
                     pot_delta_points=res.pot_delta)
    assert sum(s.nets) + s.commission + s.pot_delta == 0
