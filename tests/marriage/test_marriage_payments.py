"""Payments in points: the streamlined and the pairwise methods, and void rounds."""
from hypothesis import given, strategies as st
import pytest

from replay.errors import MalformedError
from replay.rulesets import resolve
from replay.marriage.payments import nets_streamlined, pairwise_nets, streamlined, void_nets

NEPAL = resolve("marriage/nepal")
CLASSIC = resolve("marriage/classic")


# rule MC-31: the four-player example with A=12, B=20, C=5, D=30; the third player wins,
# the first saw the joker (and the fourth), the second did not. n=4, T=67.
#   first:  T + 3 - 4*12 = 22   (basic: B-A = 8 to the second, C-A+3 = -4 to the third,
#                                 D-A = 18 to the fourth: 8 - 4 + 18 = 22)
#   second: T + 10 - 4*20 = -3  (the winner pays the second 3)
#   fourth: T + 3 - 4*30 = -50  (the winner pays the fourth 50)
#   the winner: 22 - 3 - 50 = -31 -- the winner loses overall (MC-30)
def test_four_player_example():
    scores, seen = (12, 20, 5, 30), (True, False, True, True)
    assert streamlined(scores, winner=2, seen=seen, dublee_finish=False, ruleset=CLASSIC) == (22, -3, 0, -50)
    assert nets_streamlined(scores, winner=2, seen=seen, dublee_finish=False, ruleset=CLASSIC) == (-22, 3, -31, 50)
    assert pairwise_nets(scores, winner=2, seen=seen, dublee_finish=False, ruleset=CLASSIC) == (-22, 3, -31, 50)


# rule MC-30: each player pays every other the difference of card points; the winner may
# lose overall (above: -31); with equal points only the seen payments remain
def test_differences_only_between_equal_scores():
    assert pairwise_nets((4, 4, 4), winner=0, seen=(True, True, True), dublee_finish=False,
                         ruleset=NEPAL) == (6, -3, -3)


# rule MC-28: 3 from each opponent who saw, 10 from each who did not
def test_seen_and_unseen_payments():
    assert streamlined((0, 0, 0, 0), winner=0, seen=(True, True, False, False), dublee_finish=False,
                       ruleset=CLASSIC) == (0, 3, 10, 10)


# rule MC-29: 5 more from each opponent when the winner finished with eight dublees
def test_dublee_finish_adds_five():
    scores, seen = (12, 20, 5, 30), (True, False, True, True)
    assert streamlined(scores, winner=2, seen=seen, dublee_finish=True, ruleset=CLASSIC) == (27, 2, 0, -45)
    assert pairwise_nets(scores, winner=2, seen=seen, dublee_finish=True, ruleset=CLASSIC) == (-27, -2, -16, 45)


# rule D-9: the seen payments apply to nepal too, and their values are settings
def test_seen_payment_values_are_settings():
    rs = resolve("marriage/nepal", {"seen_points": 4, "unseen_points": 12, "dublee_bonus": 1})
    assert streamlined((0, 0, 0), winner=1, seen=(True, True, False), dublee_finish=True, ruleset=rs) == (5, 0, 13)
    assert streamlined((0, 0, 0), winner=1, seen=(True, True, False), dublee_finish=False, ruleset=NEPAL) == (3, 0, 10)


# rule MN-33: maal is exchanged with everyone whether or not a player finished, and the
# finisher also receives a set amount: seat 1 (30 maal, did not finish) gains from both
def test_two_sources_of_points():
    nets = pairwise_nets((0, 30, 6), winner=2, seen=(False, True, True), dublee_finish=False, ruleset=NEPAL)
    # seat 0 pays 30 to seat 1, 6 + 10 to seat 2; seat 2 pays 24 to seat 1 and gets 3 from it
    assert nets == (-46, 54 - 3, 16 - 24 + 3)
    assert sum(nets) == 0


# rule D-10: a void round has no winner and no seen payments: net_i = n*S_i - T
def test_void_round():
    assert void_nets((10, 0, 5)) == (15, -15, 0)
    assert pairwise_nets((10, 0, 5), winner=None, seen=(False, False, False), dublee_finish=False,
                         ruleset=NEPAL) == (15, -15, 0)


def test_bad_input():
    with pytest.raises(MalformedError, match=r"^winner must be a seat 0\.\.1, got 2$"):
        streamlined((1, 2), winner=2, seen=(True, True), dublee_finish=False, ruleset=NEPAL)
    with pytest.raises(MalformedError, match=r"^seen has 1 entries for 2 seats$"):
        streamlined((1, 2), winner=0, seen=(True,), dublee_finish=False, ruleset=NEPAL)
    with pytest.raises(MalformedError, match=r"^the winner has shown, so has seen the tiplu$"):
        streamlined((1, 2), winner=0, seen=(False, True), dublee_finish=False, ruleset=NEPAL)
    with pytest.raises(MalformedError, match=r"^a settlement needs at least two seats, got 1$"):
        void_nets((3,))


tables = st.integers(2, 5).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 200), min_size=n, max_size=n),
    st.integers(0, n - 1),
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.booleans(),
    st.sampled_from([NEPAL, CLASSIC])))


# rules MC-31, MC-30: both methods give the same nets; every settlement sums to zero
@given(tables)
def test_methods_agree_and_sum_to_zero(table):
    scores, winner, seen, dublee, rs = table
    seen[winner] = True
    kw = dict(winner=winner, seen=tuple(seen), dublee_finish=dublee, ruleset=rs)
    pay = streamlined(scores, **kw)
    nets = nets_streamlined(scores, **kw)
    assert nets == pairwise_nets(scores, **kw)
    assert sum(nets) == 0
    assert pay[winner] == 0
    assert nets[winner] == sum(pay)


# rule D-10: void nets sum to zero and match the pairwise differences
@given(st.lists(st.integers(0, 200), min_size=2, max_size=5))
def test_void_nets_sum_to_zero(scores):
    nets = void_nets(scores)
    assert sum(nets) == 0
    assert nets == pairwise_nets(scores, winner=None, seen=(False,) * len(scores), dublee_finish=False,
                                 ruleset=CLASSIC)
