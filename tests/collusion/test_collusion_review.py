"""The review (audit/auditor/collusion): the tests' numbers by hand, the pair graph, the planted
superuser flagged and honest tables not, and ``tiplu collusion`` end to end."""
from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

import pytest
from click.testing import CliRunner

from audit.auditor.collusion.observe import Observations, _add_flows, add_hand
from audit.auditor.collusion.pairs import components, pair_rows
from audit.auditor.collusion.report import review
from audit.auditor.collusion.significance import ALPHA, assess_accounts, one_sided_t
from audit.auditor.collusion.cheaters import account, played_observations
from web.cli import main


def test_one_sided_t_by_hand():
    # xs = 1, 2, 3: mean 2, sd 1, t = 2 / (1 / sqrt 3) = 3.4641; one-sided p at 2 df = 0.0371
    mean, t, p = one_sided_t([Fraction(1), Fraction(2), Fraction(3)])
    assert mean == 2 and t == pytest.approx(3.4641, abs=1e-4) and p == pytest.approx(0.0371, abs=1e-4)
    assert one_sided_t([Fraction(0)] * 5)[2] == 1.0           # no spread, no excess: nothing to see
    assert one_sided_t([Fraction(1, 2)] * 5)[2] == 0.0        # every decision beat its redeals


def test_benjamini_hochberg_by_hand_and_the_minimum_sample():
    # p = .01 .04 .03 .2 (m = 4): sorted .01 .03 .04 .2 -> q = min over j >= i of p_j m / j
    # = .04, .0533, .0533, .2
    pvals = {"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.2}
    rows = {}
    import audit.auditor.collusion.significance as sig
    real = sig.one_sided_t
    try:
        sig.one_sided_t = lambda xs: (0.0, 0.0, pvals[xs[0]])   # feed the p-values straight in
        rows = {r.account: r for r in assess_accounts({(k, "s"): [k] * 3 for k in pvals}, min_decisions=3)}
    finally:
        sig.one_sided_t = real
    assert [round(rows[k].q, 4) for k in "abcd"] == [0.04, 0.0533, 0.0533, 0.2]
    few = assess_accounts({("e", "s"): [Fraction(1)] * 2}, min_decisions=3)[0]
    assert not few.tested and few.q is None and not few.flagged


def test_flows_split_each_loss_among_the_winners_by_gain():
    obs = Observations()
    _add_flows(["a", "b", "c", "d"], [Decimal(3), Decimal(-1), Decimal(-2), Decimal(0)], obs)
    assert dict(obs.flows) == {("b", "a"): 1, ("c", "a"): 2}
    _add_flows(["a", "b", "c"], [Decimal(1), Decimal(1), Decimal(-2)], obs)
    assert obs.flows[("c", "a")] == 3 and obs.flows[("c", "b")] == 1


def test_pairs_and_groups():
    obs = Observations()
    add_hand(obs, "kitti", ["a", "b", "c"], [], [Decimal(2), Decimal(-1), Decimal(-1)])
    add_hand(obs, "kitti", ["a", "b", "x"], [], [Decimal(-2), Decimal(2), Decimal(0)])
    add_hand(obs, "kitti", ["y", "z"], [], [Decimal(0), Decimal(0)])
    rows = pair_rows(obs.together, obs.flows)
    assert rows[0] == {"accounts": ["a", "b"], "hands_together": 2, "net_flow_to_first": "-1.00"}
    assert components(obs.together) == [["a", "b", "c", "x"], ["y", "z"]]


def test_a_planted_superuser_is_flagged_and_nobody_else():
    # docs/collusion.md: peeking at every decision, flagged within 200 hands at a table of four
    obs = played_observations("kitti", tables=4, players=4, hands=200, seed="test-peek", peek={(0, 0): 1000})
    rep = review(obs)
    assert [t.account for t in rep.flags] == [account(0, 0)]
    assert all(t.tested for t in rep.tests)


def test_the_same_tables_played_honestly_flag_nobody():
    rep = review(played_observations("kitti", tables=4, players=4, hands=100, seed="test-peek"))
    assert rep.flags == () and all(t.tested for t in rep.tests)


@pytest.mark.slow
def test_ten_thousand_honest_hands_flag_nobody():
    # docs/collusion.md: the false discovery rate is 1 %, so an honest archive flags anyone in at
    # most 1 % of runs; this seeded archive of 10,000 hands (25 tables of 4, 400 hands each) flags none,
    # neither an account nor a pair.
    rep = review(played_observations("kitti", tables=25, players=4, hands=400, seed="honest-10k"))
    assert rep.hands == 10_000 and sum(t.tested for t in rep.tests) == 100
    assert rep.flags == (), [(t.account, t.p) for t in rep.flags]
    assert min(t.q for t in rep.tests) > ALPHA
    # the pair side (docs/collusion.md, "Pairs"): 150 pairs x 2 signals, in the same control
    assert sum(t.tested for t in rep.pair_tests) == 300
    assert rep.pair_flags == (), [(t.account, t.target, t.signal, t.p) for t in rep.pair_flags]


def _simulate(tmp_path, *extra):
    out = tmp_path / "a.jsonl"
    res = CliRunner().invoke(main, ["simulate", "--preset", "kitti", "--hands", "150", "--seed", "cli-peek",
                                    "--out", str(out), *extra])
    assert res.exit_code == 0, res.output
    return out


def test_cli_flags_the_superuser_seat_of_a_simulated_archive(tmp_path):
    out = _simulate(tmp_path, "--peek-seat", "0")
    res = CliRunner().invoke(main, ["collusion", str(out), "--no-progress"])
    assert res.exit_code == 1, res.output
    assert "asha: REVIEW" in res.output and "not a finding of cheating" in res.output
    data = json.loads(CliRunner().invoke(main, ["collusion", str(out), "--json", "--no-progress"]).output)
    assert [f["account"] for f in data["flags"]] == ["asha"]
    assert data["hands"] == 150 and data["alpha"] == ALPHA and len(data["accounts"]) == 4


def test_cli_on_the_same_archive_played_honestly_exits_0(tmp_path):
    res = CliRunner().invoke(main, ["collusion", str(_simulate(tmp_path)), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "0 flagged for review" in res.output


def test_cli_refuses_a_peeking_seat_that_is_not_at_the_table(tmp_path):
    res = CliRunner().invoke(main, ["simulate", "--preset", "kitti", "--players", "3", "--peek-seat", "5"])
    assert res.exit_code == 2 and "seat 5 is not at a table of 3" in res.output


def test_cli_bad_source_is_one_line(tmp_path):
    res = CliRunner().invoke(main, ["collusion", str(tmp_path / "missing.jsonl")])
    assert res.exit_code != 0 and "no such file" in res.output and "Traceback" not in res.output


def test_cli_refuses_a_peeking_seat_in_a_game_whose_bot_cannot_peek(monkeypatch):
    # every built-in game's bot peeks now: take Marriage's superuser away to see the refusal
    import audit.operator.sim.bots.marriage as bot
    monkeypatch.delattr(bot, "choose_peeking")
    res = CliRunner().invoke(main, ["simulate", "--preset", "marriage/nepal", "--peek-seat", "0"])
    assert res.exit_code == 2 and "the marriage bot cannot peek yet" in res.output
