#!/usr/bin/env python3
"""Benchmark: the 13-card Rummy collusion signals (pick, discard, drop, feed) on played hands,
against the way they were computed before (the baseline, measured in the same run).

The hands are played once, in memory, by the simulator's bots (two tables of four, one with a
superuser, one with a colluding pair; :mod:`audit.auditor.collusion.cheaters`'s streams), and
every hand's moves are kept.  Then the observations of every hand (``GAME.hidden_signals`` and
the pair signals, as ``tiplu collusion`` makes them) are computed twice, each pass from empty
memo tables (:func:`replay.rummy.solver.clear_caches`):

* **baseline** -- the solver as the signals used it before: every card of a hand tried as the
  discard, each a full :func:`~replay.rummy.solver.solve` (grouping built), nothing memoised;
* **now** -- :func:`~replay.rummy.solver.min_points` (points only, memoised on the multiset)
  and :func:`~replay.rummy.solver.best_discard` (the bound that skips discards that cannot win).

Both passes must give the same observations (checked).  Printed: CPU milliseconds per hand
of each and the ratio; then the same for a whole simulated hand, the bots' play and the
observations together (the bots ask the solver for the same hands as the signals, so they
share the memo; the baseline's bots try every discard with a full solve too), which is what
an in-memory power or false-positive run (``bench/collusion.py``) costs.  Times are this thread's CPU time, so other work on a shared machine does not
inflate them.

    python bench/rummy_signals.py [--hands 40]
"""
from __future__ import annotations

import argparse
import sys
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def played(hands: int) -> list:
    """``(game, engine, hand id, steps, nets)`` of every hand of the two tables (table 0: a
    superuser in seat 0; table 1: a colluding pair in seats 0 and 1)."""
    from audit.auditor.collusion.cheaters import played_hands

    out = []
    for t, (peek, collude) in enumerate((({(0, 0): 1000}, None), (None, {1: (0, 1, 1000)}))):
        for hand in played_hands("rummy13", tables=2, players=4, hands=hands, seed="bench-rummy-signals",
                                 peek=peek, collude=collude, table_ids=[t]):
            out.append((hand.game, hand.engine, hand.hand_id, list(hand.steps), hand.nets))
    return out


def plain_min_points(cards, wild, *, high):
    from replay.rummy.solver import solve

    return solve(cards, wild, high=high).points


def plain_best_discard(cards, wild, *, high):
    from replay.rummy.groups import card_points
    from replay.rummy.solver import solve

    best = None
    for i, card in enumerate(cards):
        key = (solve(tuple(cards[:i]) + tuple(cards[i + 1:]), wild, high=high).points,
               -card_points(card, wild, high=high), card.code)
        if best is None or key < best[0]:
            best = (key, card)
    return best[0][0], best[1]


@contextmanager
def baseline(*, bots: bool = False):
    """The signals' solver calls as they were: no memo, no bound, every card tried (and the
    bots', with ``bots``)."""
    names = ["replay.rummy.signals.min_points", "replay.rummy.signals.best_discard",
             "replay.rummy.discard_drop_signals.min_points", "replay.rummy.pair_signals.best_discard",
             "replay.rummy.soft_signals.min_points"]
    if bots:
        names += ["audit.operator.sim.bots.rummy13.min_points", "audit.operator.sim.bots.rummy13.best_discard",
                  "audit.operator.sim.collude.min_points"]
    with ExitStack() as stack:
        for name in names:
            stack.enter_context(mock.patch(name, plain_best_discard if name.endswith("best_discard")
                                           else plain_min_points))
        yield


def observe(hands: list, *, fresh: bool = True) -> tuple[list, float]:
    from audit.auditor.collusion.observe import decision_observations
    from audit.auditor.collusion.pair_signals import hand_pair_observations
    from replay.rummy.solver import clear_caches

    if fresh:
        clear_caches()
    t0 = time.thread_time()
    out = [(decision_observations(game, engine, hand_id, steps),
            hand_pair_observations(game, engine, hand_id, steps, nets))
           for game, engine, hand_id, steps, nets in hands]
    return out, time.thread_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=40, help="hands per table (two tables)")
    args = ap.parse_args()
    hands = played(args.hands)
    with baseline():
        old, t_old = observe(hands)
    new, t_new = observe(hands)
    if old != new:
        raise SystemExit("the two passes gave different observations")
    n = len(hands)
    decisions = sum(len(a) + len(b) for a, b in new)
    print(f"{n} Rummy hands, {decisions} observations (identical in both passes)")
    print(f"baseline (every discard tried, full solve, no memo): {t_old / n * 1000:.1f} ms a hand")
    print(f"now (points memoised, bounded best discard):         {t_new / n * 1000:.1f} ms a hand")
    print(f"speed-up of the signals: x{t_old / t_new:.2f}")
    from replay.rummy.solver import clear_caches

    table = max(4, args.hands // 4)
    with baseline(bots=True):
        clear_caches()
        t0 = time.thread_time()
        old = [observe(played(table), fresh=False)[0]]
        t_old = time.thread_time() - t0
    clear_caches()
    t0 = time.thread_time()
    new = [observe(played(table), fresh=False)[0]]
    t_new = time.thread_time() - t0
    if old != new:
        raise SystemExit("the two simulated passes gave different observations")
    print(f"a simulated hand, played and observed ({2 * table} hands): baseline {t_old / (2 * table) * 1000:.1f} ms, "
          f"now {t_new / (2 * table) * 1000:.1f} ms a hand")
    print(f"speed-up of a simulated hand: x{t_old / t_new:.2f}")


if __name__ == "__main__":
    main()
