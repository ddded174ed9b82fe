"""The per-account charts' numbers (audit/collusion/series.py): the cumulative excess by
the account's hand count and the honest band, by hand; thinning keeps the last point."""
from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest

from audit.auditor.collusion.observe import Observations, add_hand
from audit.auditor.collusion.report import review
from audit.auditor.collusion.series import BAND, cumulative
from replay.signals import Observation


def test_cumulative_excess_and_band_by_hand():
    xs = [Fraction(1), Fraction(-1), Fraction(2), Fraction(0)]
    s = cumulative("sig", [1, 1, 2, 3], xs)
    assert s.hands == (1, 1, 2, 3) and s.decisions == (1, 2, 3, 4)
    assert s.total == (1.0, 0.0, 2.0, 2.0)
    # mean 1/2, squared deviations .25 2.25 2.25 .25 = 5, sample sd sqrt(5/3); after k decisions
    # the honest sum's sd is sd * sqrt(k)
    sd = math.sqrt(5 / 3)
    assert s.band == pytest.approx(tuple(BAND * sd * math.sqrt(k) for k in (1, 2, 3, 4)))


def test_a_long_series_is_thinned_and_keeps_its_last_point():
    xs = [Fraction(k % 3 - 1) for k in range(301)]
    s = cumulative("sig", list(range(1, 302)), xs, points=120)
    assert len(s.hands) <= 121 and s.decisions[-1] == 301 and s.total[-1] == float(sum(xs))


def test_the_review_keeps_each_accounts_decisions_by_its_own_hand_count():
    obs = Observations()
    zero = [Decimal(0)] * 2
    add_hand(obs, "kitti", ["a", "b"], [Observation("s", 0, 1, (0,))], zero)       # a's hand 1
    add_hand(obs, "kitti", ["c", "a"], [], zero)                                    # a's hand 2: no decision
    add_hand(obs, "kitti", ["c", "a"], [Observation("s", 1, 0, (1,)), Observation("s", 0, 2, (0,))], zero)
    rep = review(obs)
    assert rep.series[("a", "s")].hands == (1, 3) and rep.series[("a", "s")].total == (1.0, 0.0)
    assert rep.series[("c", "s")].hands == (2,) and rep.series[("c", "s")].total == (2.0,)
