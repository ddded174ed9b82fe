"""Test each account's signals against chance, with false-discovery-rate control across all.

Per (account, signal): the excesses of its decisions (:attr:`replay.signals.Observation.excess`)
have mean zero for an honest player, whatever their strategy, because the real hidden
cards and the redealt ones are exchangeable given what the player saw.  The test is
one-sided Student's t on that mean (``scipy.stats.ttest_1samp``, ``alternative="greater"``):
decisions of different hands are independent (each deal is its own fair shuffle), and from
:data:`MIN_DECISIONS` on the mean of these bounded scores is close enough to normal.
Then every p-value of the run -- all accounts, all signals -- goes through the
Benjamini-Hochberg procedure (``scipy.stats.false_discovery_control``): a flag is a
q-value at or below :data:`ALPHA`.  When every account is honest, the chance that a run
flags anyone at all is at most ``ALPHA``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Mapping, Sequence

#: Decisions an account needs on a signal before it is tested or shown.
MIN_DECISIONS = 50
#: The false discovery rate of the flags (and, with every account honest, the chance of any flag).
ALPHA = 0.01


class Tested:
    """What an account's test and a pair's test (:class:`.pair_signals.PairTest`) share: it
    was run when it has a p-value, and it flags for review when its q-value (after the one
    Benjamini-Hochberg control of the run) is at most :data:`ALPHA`."""

    p: float | None
    q: float | None

    @property
    def tested(self) -> bool:
        return self.p is not None

    @property
    def flagged(self) -> bool:
        return self.q is not None and self.q <= ALPHA


@dataclass(frozen=True)
class SignalTest(Tested):
    """One account's test on one signal (``p``/``q`` are ``None`` below the minimum sample)."""

    account: str
    signal: str
    decisions: int
    mean_excess: float
    t: float | None
    p: float | None
    q: float | None = None


def one_sided_t(excesses: Sequence[Fraction]) -> tuple[float, float, float]:
    """``(mean, t, p)`` of the one-sided t-test that the mean excess is above zero."""
    from scipy import stats

    xs = [float(x) for x in excesses]
    mean = math.fsum(xs) / len(xs)
    if max(xs) == min(xs):  # no spread: the test has nothing to say unless every excess is positive
        return mean, (math.inf if mean > 0 else 0.0), (0.0 if mean > 0 else 1.0)
    res = stats.ttest_1samp(xs, 0.0, alternative="greater")
    return mean, float(res.statistic), float(res.pvalue)


def assess_accounts(excesses: Mapping[tuple[str, str], Sequence[Fraction]], *,
                  min_decisions: int = MIN_DECISIONS) -> list[SignalTest]:
    """Every (account, signal)'s test, q-values adjusted over all that were tested."""
    from scipy import stats

    rows = []
    for (account, signal), xs in sorted(excesses.items()):
        if len(xs) < min_decisions:
            mean = float(sum(xs, Fraction(0)) / len(xs)) if xs else 0.0
            rows.append(SignalTest(account, signal, len(xs), mean, None, None))
            continue
        mean, t, p = one_sided_t(xs)
        rows.append(SignalTest(account, signal, len(xs), mean, t, p))
    tested = [r for r in rows if r.tested]
    if tested:
        qs = stats.false_discovery_control([r.p for r in tested], method="bh")
        adjusted = {(r.account, r.signal): float(q) for r, q in zip(tested, qs)}
        rows = [replace(r, q=adjusted.get((r.account, r.signal))) for r in rows]
    return rows
