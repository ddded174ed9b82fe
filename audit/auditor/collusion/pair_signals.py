"""The pair side of the collusion review: gather pair observations per ordered pair of
accounts and test them with the accounts' tests (``docs/collusion.md``, "Pairs").

:func:`hand_pair_observations` replays one hand's steps through the game's decision pair
signals (``replay/<game>/pair_signals.py``: ``kitti.together``, ``rummy13.feed``,
``rummy13.soft_drop``) and adds every
game's ``tokens.flow``.  :func:`assess` runs the one-sided t-test of
:mod:`.significance` on every (account, account, signal) with at least the minimum sample and
puts their p-values through **one** Benjamini-Hochberg procedure together with the
accounts' own tests, so the false discovery rate holds across accounts, pairs and signals.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

from replay.pair_signals import PairObservation, decision_pair_signals, flow_observations
from replay.stream import Stream

from .significance import MIN_DECISIONS, SignalTest, Tested, one_sided_t

_KEY = hashlib.sha256(b"tiplu/collusion/pairs/v1").digest()


def pair_stream(hand_id: str, index: int) -> Stream:
    """The pair signals' redeals for move ``index`` of hand ``hand_id`` (fixed, documented)."""
    material = hashlib.sha256(b"tiplu/collusion/pairs/v1/" + hand_id.encode("utf-8")).digest()
    return Stream(_KEY, material, f"move:{index}")


def hand_pair_observations(game: Any, engine: Any, hand_id: str, steps: Sequence[tuple[int, Any, Any]],
                           nets: Sequence[Any]) -> tuple[PairObservation, ...]:
    """Every pair observation of one replayed hand: its decisions' and its token flow."""
    found: list[PairObservation] = []
    signals = decision_pair_signals(game)
    if signals is not None:
        found.extend(signals(engine, steps, lambda index: pair_stream(hand_id, index)))
    found.extend(flow_observations(list(nets)))
    return tuple(found)


#: Signals that say which way something went (tokens ``seat`` received from ``target``):
#: filed with the sign of the first account in name order, tested two-sided.  The others
#: add up both accounts' choices towards each other and are tested one-sided.
ANTISYMMETRIC = frozenset({"tokens.flow"})


def pair_key(a: str, b: str, signal: str) -> tuple[tuple[str, str, str], int]:
    """Where a pair observation is filed -- the two accounts in name order and the signal --
    and the sign its excess takes there."""
    first, second = sorted((a, b))
    flip = signal in ANTISYMMETRIC and (first, second) != (a, b)
    return (first, second, signal), (-1 if flip else 1)


def add_pairs(into: dict[tuple[str, str, str], list[Fraction]], names: Sequence[str],
              found: Iterable[PairObservation]) -> None:
    """Add one hand's pair observations: per pair of accounts and signal, the **sum** of the
    hand's excesses, one value per hand (decisions of one hand share its cards; different
    hands are independent deals, so the t-test counts hands).  A seat pair of one account
    (the same name twice) is no pair."""
    sums: dict[tuple[str, str, str], Fraction] = {}
    for obs in found:
        a, b = names[obs.seat], names[obs.target]
        if a != b:
            key, sign = pair_key(a, b, obs.signal)
            sums[key] = sums.get(key, Fraction(0)) + sign * obs.excess
    for key, total in sums.items():
        into[key].append(total)


@dataclass(frozen=True)
class PairTest(Tested):
    """One ordered pair's test on one signal: ``account`` towards ``target`` (tested and
    flagged as an account's test is: :class:`.significance.Tested`)."""

    account: str
    target: str
    signal: str
    decisions: int
    mean_excess: float
    t: float | None
    p: float | None
    q: float | None = None
    #: every hand scored exactly 0 (a seat that always threw its own reference discard, a
    #: flow where the losers always paid alike): no information, so no test -- it would only
    #: add a p-value of 1 to the control
    blank: bool = False


def _pair_test(key: tuple[str, str, str], xs: Sequence[Fraction], min_decisions: int) -> PairTest:
    a, b, signal = key
    if len(xs) < min_decisions:
        mean = float(sum(xs, Fraction(0)) / len(xs)) if xs else 0.0
        return PairTest(a, b, signal, len(xs), mean, None, None)
    if not any(xs):
        return PairTest(a, b, signal, len(xs), 0.0, None, None, blank=True)
    mean, t, p = two_sided_t(xs) if signal in ANTISYMMETRIC else one_sided_t(xs)
    return PairTest(a, b, signal, len(xs), mean, t, p)


def two_sided_t(excesses: Sequence[Fraction]) -> tuple[float, float, float]:
    """``(mean, t, p)`` of the two-sided t-test that the mean excess is zero."""
    from scipy import stats

    xs = [float(x) for x in excesses]
    mean = math.fsum(xs) / len(xs)
    if max(xs) == min(xs):  # no spread: news only if every hand went the same way
        return mean, (math.copysign(math.inf, mean) if mean else 0.0), (0.0 if mean else 1.0)
    res = stats.ttest_1samp(xs, 0.0, alternative="two-sided")
    return mean, float(res.statistic), float(res.pvalue)


def assess(accounts: Sequence[SignalTest], pair_excesses: Mapping[tuple[str, str, str], Sequence[Fraction]], *,
           min_decisions: int = MIN_DECISIONS) -> tuple[list[SignalTest], list[PairTest]]:
    """The pair tests, and the accounts' tests and the pairs' with q-values from one
    Benjamini-Hochberg procedure over all of them (``accounts`` as
    :func:`.significance.assess_accounts` gives them; their own q-values are replaced)."""
    from scipy import stats

    pairs = [_pair_test(k, xs, min_decisions) for k, xs in sorted(pair_excesses.items())]
    pvals = [r.p for r in accounts if r.p is not None] + [r.p for r in pairs if r.p is not None]
    if not pvals:
        return list(accounts), pairs
    qs = iter(float(q) for q in stats.false_discovery_control(pvals, method="bh"))
    acc = [replace(r, q=next(qs)) if r.p is not None else r for r in accounts]
    prs = [replace(r, q=next(qs)) if r.p is not None else r for r in pairs]
    return acc, prs
