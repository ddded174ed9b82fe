"""The pair side of the collusion review (docs/collusion.md, "Pairs"): each pair signal's score
and null world by hand, the per-hand filing and the one false-discovery control across
accounts and pairs, the colluding pair planted in the simulator and flagged while honest
tables of the same size are not, and ``tiplu simulate --collude-seats`` / ``tiplu collusion``."""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from click.testing import CliRunner

from audit.auditor.collusion import review
from audit.auditor.collusion.pair_signals import add_pairs, assess, pair_key, two_sided_t
from audit.auditor.collusion.significance import SignalTest
from audit.auditor.collusion.cheaters import account, played_observations
from replay.fairness import hand_randomness
from replay.kitti.moves import Arrange
from replay.kitti.pair_signals import arrangement_pair_observations, together
from replay.kitti.strategy import default_arrangement, share_table
from replay.pair_signals import FLOW, PairObservation, flow_observations, flows
from replay.registry import game_for
from replay.rulesets import resolve
from replay.rummy.moves import Discard
from replay.rummy.pair_signals import feed_observation, reference_discard
from replay.rummy.signals import use_of
from replay.stream import Stream
from web.cli import main


def test_a_game_s_pair_signals_are_found_by_naming():
    from replay.pair_signals import decision_pair_signals
    from replay.kitti.pair_signals import hand_pair_signals as kitti
    from replay.rummy.pair_signals import hand_pair_signals as rummy
    assert decision_pair_signals(game_for("kitti")) is kitti
    assert decision_pair_signals(game_for("rummy13")) is rummy      # the package is replay/rummy
    from replay.marriage.pair_signals import hand_pair_signals as marriage
    assert decision_pair_signals(game_for("marriage")) is marriage


def test_flows_split_each_loss_by_gain():
    # seat 0 lost 6 and seat 1 lost 2; seats 2 and 3 won 6 and 2: each loss splits 3:1
    assert flows([-6, -2, 6, 2]) == {(0, 2): Fraction(9, 2), (0, 3): Fraction(3, 2),
                                     (1, 2): Fraction(3, 2), (1, 3): Fraction(1, 2)}
    assert flows([0, 0, 0, 0]) == {}


def test_the_token_flow_cancels_a_strong_player_and_sees_chip_dumping():
    # seat 0 wins 3 from each of the others: a strong player, no pair between anyone
    strong = {(o.seat, o.target): o.actual for o in flow_observations([9, -3, -3, -3])}
    assert set(strong.values()) == {0}
    # seat 1 pays seat 0 alone, 4 tokens: flows f(1,0) = 4, nothing else.  For (0, 1):
    # beyond(1->0) = 4 - mean(f(1,2), f(1,3)) - mean(f(2,0), f(3,0)) + mean(f(2,3), f(3,2)) = 4;
    # beyond(0->1) = 0 - 0 - 0 + 0 = 0, so seat 0 received 4 from seat 1 beyond chance
    dump = {(o.seat, o.target): o for o in flow_observations([4, -4, 0, 0])}
    assert dump[(0, 1)].actual == 4 and dump[(0, 1)].null == (0,) and dump[(0, 1)].signal == FLOW
    # (0, 2): beyond(2->0) = 0 - 0 - mean(f(1,0), f(3,0)) + 0 = -2, beyond(0->2) = 0: seat 2 is
    # where seat 0's winnings from seat 1 did not come from; (1, 2): beyond(1->2) = 0 - mean(f(1,0),
    # f(1,3)) - 0 + 0 = -2, so +2; seats 2 and 3 saw nothing pass between them
    assert dump[(2, 3)].actual == 0 and dump[(0, 2)].actual == -2 and dump[(1, 2)].actual == 2
    assert flow_observations([1, -1, 0]) == []            # fewer than four seats: no contrast


def test_a_pair_observation_needs_two_seats_and_a_null():
    with pytest.raises(ValueError, match=r"^a pair observation needs two different seats$"):
        PairObservation("x", 1, 1, Fraction(0), (Fraction(0),))
    with pytest.raises(ValueError, match=r"^a pair observation needs at least one null value$"):
        PairObservation("x", 0, 1, Fraction(0), ())
    assert PairObservation("x", 0, 1, Fraction(3), (Fraction(1), Fraction(2))).excess == Fraction(3, 2)


def test_pairs_are_filed_per_hand_by_name_and_the_flow_keeps_its_direction():
    into = defaultdict(list)
    names = ["zed", "amy", "bob", "amy"]
    found = [PairObservation("kitti.together", 0, 1, Fraction(1), (Fraction(0),)),
             PairObservation("kitti.together", 1, 0, Fraction(2), (Fraction(1),)),
             PairObservation(FLOW, 0, 1, Fraction(5), (Fraction(0),)),      # amy received -5 from zed
             PairObservation(FLOW, 1, 3, Fraction(7), (Fraction(0),))]      # amy and amy: no pair
    add_pairs(into, names, found)
    assert dict(into) == {("amy", "zed", "kitti.together"): [2], ("amy", "zed", FLOW): [-5]}
    assert pair_key("b", "a", FLOW) == (("a", "b", FLOW), -1)
    assert pair_key("b", "a", "kitti.together") == (("a", "b", "kitti.together"), 1)


def test_one_benjamini_hochberg_over_accounts_and_pairs():
    # an account at p .01 and pair sums whose two-sided t-tests give p = .04, then the BH over
    # m = 2: q = .02 and .04 -- the pair's p-value raised the account's q from .01 to .02
    account = SignalTest("a", "s", 60, 0.1, 2.4, 0.01)
    xs = [Fraction(1), Fraction(2), Fraction(-1), Fraction(3), Fraction(0), Fraction(2)]
    p = two_sided_t(xs)[2]
    accs, pairs = assess([account], {("a", "b", FLOW): xs}, min_decisions=6)
    qs = sorted([0.01, p])
    assert accs[0].q == pytest.approx(min(0.01 * 2 / (qs.index(0.01) + 1), max(qs)))
    assert pairs[0].p == pytest.approx(p) and pairs[0].q == pytest.approx(max(p, 0.02))
    few, = assess([], {("a", "b", FLOW): xs[:3]}, min_decisions=6)[1]
    assert not few.tested and few.q is None and not few.flagged
    zero, = assess([], {("a", "b", FLOW): [Fraction(0)] * 6}, min_decisions=6)[1]
    assert zero.blank and not zero.tested                           # all 0: no information, no p-value


def test_an_account_and_a_pair_are_tested_and_flagged_by_one_rule():
    # docs/collusion.md: one control, one threshold -- a q-value at ALPHA flags either kind,
    # just above it neither; no p-value means not tested (significance.Tested, shared)
    from dataclasses import replace

    from audit.auditor.collusion.pair_signals import PairTest
    from audit.auditor.collusion.significance import ALPHA

    account = SignalTest("a", "s", 60, 0.1, 2.4, 0.001)
    pair = PairTest("a", "b", FLOW, 60, 0.1, 2.4, 0.001)
    for t in (account, pair):
        assert t.tested and not t.flagged                          # no q yet: not flagged
        assert replace(t, q=ALPHA).flagged and not replace(t, q=ALPHA * 1.01).flagged
        assert not replace(t, p=None).tested
    assert type(account).flagged is type(pair).flagged             # one definition


def _kitti():
    rs = resolve("kitti")
    s = Stream(b"k" * 32, b"m" * 32, "deal")
    randomness = hand_randomness(s.block(0), "k1", rs, [s.block(i)[:16] for i in range(1, 5)])
    engine = game_for("kitti").engine(rs)
    return engine, engine.start(randomness, dealer=3)


def test_kitti_together_scores_the_pair_s_stronger_sets_and_redeals_the_unseen_cards():
    engine, state = _kitti()
    ranker = engine.ranker
    shares = share_table(ranker)
    # by hand: two rivals, the pair's stronger sets (k1, k2 and no third: a tie wins nothing)
    assert together((5, 4, 3), (1, 4, 7), {1: 10, 3: 20, 4: 30, 5: 40, 7: 50}, 2) == \
        Fraction(40, 44200) ** 2 + Fraction(50, 44200) ** 2
    seat = 0
    default = Arrange(seat, default_arrangement(state.hands[seat], ranker))
    obs = arrangement_pair_observations(default, state.hands, ranker, Stream(b"x" * 32, b"y" * 32, "z"))
    assert {o.target for o in obs} == {1, 2, 3}
    assert all(o.actual == 0 and o.null == (0, 0) for o in obs)     # its own default: 0 in every world
    seen = []

    class Recorder:
        def shuffle(self, cards):
            seen.append(sorted(c.code for c in cards))
            return list(cards)

    arrangement_pair_observations(Arrange(seat, default.sets, auto=False), state.hands, ranker, Recorder())
    mine = {c.code for c in state.hands[seat]}
    assert seen == [sorted(set(range(52)) - mine)] * 2              # the 43 cards the seat could not see
    assert arrangement_pair_observations(Arrange(seat, default.sets, auto=True), state.hands, ranker,
                                         Recorder()) == []          # a timeout is no choice
    assert shares  # the table the score reads


def _rummy():
    rs = resolve("rummy13")
    s = Stream(b"r" * 32, b"m" * 32, "deal")
    randomness = hand_randomness(s.block(0), "r1", rs, [s.block(i)[:16] for i in range(1, 5)])
    engine = game_for("rummy13").engine(rs)
    state = engine.start(randomness, dealer=3)
    from replay.rummy.moves import Pick
    state = engine.apply(state, Pick(state.turn, "closed"))
    return engine, state


def test_rummy_feed_measures_a_discard_against_the_discarder_s_reference_to_the_next_hand():
    engine, state = _rummy()
    seat, high, wild = state.turn, engine.ruleset["high_card_points"], state.wild
    hand = state.hands[seat]
    ref = reference_discard(hand, wild, high=high)
    rng = Stream(b"x" * 32, b"y" * 32, "z")
    same = engine.apply(state, Discard(seat, ref))
    obs = feed_observation(engine, state, Discard(seat, ref), same, {}, rng)
    assert obs.target == (seat + 1) % 4 and obs.actual == 0 and obs.null == (0, 0)
    other = next(c for c in hand if c != ref)
    after = engine.apply(state, Discard(seat, other))
    receiver = after.turn
    drawn = []

    class Recorder:
        def shuffle(self, cards):
            drawn.append(list(cards))
            return list(reversed(cards))

    known = {receiver: [after.hands[receiver][0]]}    # as if it had taken that card from the open pile
    obs = feed_observation(engine, state, Discard(seat, other), after, known, Recorder())
    real = after.hands[receiver]
    assert obs.actual == use_of(real, other, wild, high=high) - use_of(real, ref, wild, high=high)
    pool = drawn[0]
    # the pool: every other hand and the closed stock, less the card known to be the receiver's
    # (never the discarder's own cards: it sees them)
    unseen = Counter(c for s, h in enumerate(after.hands) if s != seat for c in h) + Counter(after.closed)
    assert Counter(pool) == unseen - Counter([real[0]])
    redealt = (real[0],) + tuple(reversed(pool))[:12]               # the known card kept, 12 redealt
    assert obs.null[0] == use_of(redealt, other, wild, high=high) - use_of(redealt, ref, wild, high=high)
    assert feed_observation(engine, state, Discard(seat, other, auto=True), after, {}, rng) is None


# ---------------------------------------------------------------------------- planted pairs

def _pair_flags(rep):
    return {(f.account, f.target, f.signal) for f in rep.pair_flags}


def test_a_planted_kitti_pair_is_flagged_and_the_same_tables_played_honestly_are_not():
    # docs/collusion.md: a pair sharing every hand at one of two tables, flagged within 300 hands
    pair = (account(0, 0), account(0, 1), "kitti.together")
    rep = review(played_observations("kitti", tables=2, players=4, hands=300, seed="test-pair",
                                     collude={0: (0, 1, 1000)}))
    assert _pair_flags(rep) == {pair}
    assert {t.account for t in rep.flags} <= set(pair[:2])         # the pair saw hidden cards: at most they
    honest = review(played_observations("kitti", tables=2, players=4, hands=300, seed="test-pair"))
    assert honest.pair_flags == () and honest.flags == ()
    assert sum(t.tested for t in honest.pair_tests) == 24           # 6 pairs x 2 signals x 2 tables


@pytest.mark.slow   # 320 Rummy hands through the solver: minutes, not seconds
def test_a_planted_rummy_pair_is_flagged_and_the_same_tables_played_honestly_are_not():
    # docs/collusion.md: the feeding pair at one of two Rummy tables, flagged within 80 hands
    pair = (account(0, 0), account(0, 1), "rummy13.feed")
    rep = review(played_observations("rummy13", tables=2, players=4, hands=80, seed="test-rummy-pair",
                                     collude={0: (0, 1, 1000)}))
    assert pair in _pair_flags(rep) and all(f[:2] == pair[:2] for f in _pair_flags(rep))
    assert {t.account for t in rep.flags} <= set(pair[:2])         # the pair saw hidden cards: at most they
    honest = review(played_observations("rummy13", tables=2, players=4, hands=80, seed="test-rummy-pair"))
    assert honest.pair_flags == () and honest.flags == ()


# ---------------------------------------------------------------------------- the CLI

def test_cli_plants_a_pair_and_the_review_flags_it(tmp_path):
    out = tmp_path / "pair.jsonl"
    res = CliRunner().invoke(main, ["simulate", "--preset", "kitti", "--hands", "300", "--seed", "cli-pair",
                                    "--collude-seats", "0,1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["collusion", str(out), "--no-progress"])
    assert res.exit_code == 1, res.output
    assert "asha and bikash: REVIEW" in res.output and "not a finding of collusion" in res.output
    data = json.loads(CliRunner().invoke(main, ["collusion", str(out), "--json", "--no-progress"]).output)
    assert [(f["accounts"], f["signal"]) for f in data["pair_flags"]] == [(["asha", "bikash"], "kitti.together")]
    row = next(p for p in data["pairs"] if p["accounts"] == ["asha", "bikash"])
    assert row["flagged"] and row["hands_together"] == 300 and row["share_together"] == 1.0
    assert {t["signal"] for t in row["tests"]} == {"kitti.together", "tokens.flow"}
    assert {f["account"] for f in data["flags"]} <= {"asha", "bikash"} and "pair_meaning" in data


@pytest.mark.parametrize("args, words", [
    (["--collude-seats", "0,7"], "seat 7 is not at a table of 4"),
    (["--collude-seats", "1,1"], "a pair needs two different seats"),
    (["--collude-seats", "0"], "expected two seats like 0,1"),
    (["--collude-seats", "0,1", "--peek-seat", "1"], "a seat cannot both peek and collude"),
])
def test_cli_refuses_a_bad_pair(args, words):
    res = CliRunner().invoke(main, ["simulate", "--preset", "kitti", *args])
    assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output


def test_cli_refuses_a_pair_in_a_game_whose_bot_cannot_collude(monkeypatch):
    # every built-in game's bot colludes now: take Marriage's colluding move away to see the refusal
    import audit.operator.sim.bots.marriage as bot
    monkeypatch.delattr(bot, "choose_colluding")
    res = CliRunner().invoke(main, ["simulate", "--preset", "marriage/nepal", "--collude-seats", "0,1"])
    assert res.exit_code == 2 and "the marriage bot cannot collude yet" in res.output
