#!/usr/bin/env python3
"""The collusion review's power and false-positive rate, and its cost against the audit.

    python bench/collusion.py power [--runs 5]       # hands until a planted superuser is flagged
    python bench/collusion.py power --preset marriage/nepal
    python bench/collusion.py power --preset rummy13 --signal rummy13.discard   # one signal's flags only
    python bench/collusion.py prefix --preset rummy13 --hands 300 --step 25     # every signal, one game per seed
    python bench/collusion.py prefix --preset marriage/nepal --peeker joker_peeking   # Marriage's joker hunter
    python bench/collusion.py honest [--hands 10000] # flags on honest archives
    python bench/collusion.py cost [--hands 200]     # review vs audit of the same records

``power``: one table of four (Kitti, or ``--preset rummy13``) with a superuser in seat 0 (peeking at the given share
of its decisions, :func:`audit.operator.sim.bots.kitti.choose_peeking`) beside three honest tables;
for each share, the smallest table length (of a doubling grid) at which the superuser is
flagged, over ``--runs`` seeds, and whether any honest account was flagged.  ``honest``:
honest archives (tables of four, 400 hands each) reviewed whole, flags counted.  ``cost``:
``tiplu collusion``'s time on a simulated archive as a ratio of ``tiplu audit``'s on the
same records, measured in the same run.  All played in memory (:mod:`audit.auditor.collusion.cheaters`)
except ``cost``, which goes through the ledger.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GRID = (50, 100, 200, 400, 800, 1600)
RUMMY_GRID = (10, 20, 40, 80, 160)
#: the table lengths tried, per preset (and for the Rummy discard and drop signals alone)
GRIDS = {"kitti": GRID, "rummy13": RUMMY_GRID, "marriage/nepal": (10, 20, 40, 80, 160, 320, 640),
         "rummy13.discard": (50, 100, 200, 400, 800), "rummy13.drop": (50, 100, 200, 400, 800)}


def power(runs: int, shares: list[float], preset: str = "kitti", signal: str | None = None) -> None:
    """``signal``: count only that signal's flags (the superuser's and the honest accounts')."""
    from audit.auditor.collusion import review
    from audit.auditor.collusion.cheaters import account, played_observations

    print("share  hands-until-flagged per run            honest accounts flagged")
    for share in shares:
        found, false = [], 0
        for run in range(runs):
            at = None
            grid = GRIDS.get(signal or preset, GRIDS[preset])
            for hands in grid:
                obs = played_observations(preset, tables=4, players=4, hands=hands, seed=f"power{run}",
                                          peek={(0, 0): round(share * 1000)})
                flags = [t for t in review(obs).flags if signal is None or t.signal == signal]
                false += sum(1 for t in flags if t.account != account(0, 0))
                if any(t.account == account(0, 0) for t in flags):
                    at = hands
                    break
            found.append(at)
        print(f"{share:5.2f}  {' '.join(str(x) if x else f'>{grid[-1]}' for x in found):40s} {false}")


def prefix_power(runs: int, shares: list[float], preset: str, hands: int, step: int, tables: int = 4,
                 peeker: str = "peeking") -> None:
    """Power of each signal from one long game per seed: the review of the first ``h`` hands
    of every table, for ``h`` = ``step``, ``2 step``, ...: the first ``h`` at which the
    superuser (table 0, seat 0) is flagged on each signal, and honest flags met on the way."""
    from collections import defaultdict

    from audit.auditor.collusion.cheaters import account, played_observations
    from audit.auditor.collusion.significance import assess_accounts

    print(f"{preset}: {tables} tables of four, {hands} hands each; superuser ({peeker}) at table 0 seat 0")
    print("share  signal            hands-until-flagged per run     honest flags on the way")
    for share in shares:
        found: dict[str, list] = defaultdict(list)
        false: dict[str, int] = defaultdict(int)
        for run in range(runs):
            obs = played_observations(preset, tables=tables, players=4, hands=hands, seed=f"power{run}",
                                      peek={(0, 0): round(share * 1000)}, peek_role=peeker)
            signals = sorted({sig for _, sig in obs.excesses})
            first: dict[str, int | None] = {sig: None for sig in signals}
            for h in range(step, hands + 1, step):
                cut = {key: [x for x, at in zip(xs, obs.hand_of[key]) if at <= h] for key, xs in obs.excesses.items()}
                for t in assess_accounts({k: v for k, v in cut.items() if v}):
                    if t.flagged and t.account == account(0, 0) and first[t.signal] is None:
                        first[t.signal] = h
                    elif t.flagged and t.account != account(0, 0):
                        false[t.signal] += 1
            for sig in signals:
                found[sig].append(first[sig])
        for sig, at in sorted(found.items()):
            print(f"{share:5.2f}  {sig:17s} {' '.join(str(x) if x else f'>{hands}' for x in at):31s} {false[sig]}")


def honest(hands: int, runs: int, preset: str = "kitti") -> None:
    from audit.auditor.collusion import review
    from audit.auditor.collusion.cheaters import played_observations

    per_table = 400
    for run in range(runs):
        t0 = time.perf_counter()
        obs = played_observations(preset, tables=max(1, hands // per_table), players=4, hands=per_table,
                                  seed=f"honest{run}")
        rep = review(obs)
        tested = sum(1 for t in rep.tests if t.tested)
        print(f"run {run}: {obs.hands} hands, {tested} accounts tested, {len(rep.flags)} flagged, "
              f"smallest p {min(t.p for t in rep.tests if t.tested):.3g} ({time.perf_counter() - t0:.0f} s)")


def cost(hands: int) -> None:
    from click.testing import CliRunner
    from web.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "a.jsonl"
        CliRunner().invoke(main, ["simulate", "--preset", "kitti", "--hands", str(hands), "--out", str(out)],
                           catch_exceptions=False)
        times = {}
        for name, args in (("audit", ["audit", str(out), "--no-progress"]),
                           ("collusion", ["collusion", str(out), "--no-progress"])):
            best = None
            for _ in range(3):
                t0 = time.process_time()
                CliRunner().invoke(main, args, catch_exceptions=False)
                dt = time.process_time() - t0
                best = dt if best is None else min(best, dt)
            times[name] = best
    print(f"{hands} Kitti records: audit {times['audit']:.2f} CPU-s (baseline), collusion "
          f"{times['collusion']:.2f} CPU-s = x{times['collusion'] / times['audit']:.2f} the audit")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("power")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--shares", default="1,0.5,0.25")
    p.add_argument("--preset", default="kitti", choices=("kitti", "rummy13", "marriage/nepal"))
    p.add_argument("--signal", default=None, help="count only this signal's flags (e.g. rummy13.discard)")
    q = sub.add_parser("prefix")
    q.add_argument("--runs", type=int, default=2)
    q.add_argument("--shares", default="1,0.5,0.25")
    q.add_argument("--preset", default="rummy13", choices=("kitti", "rummy13", "marriage/nepal"))
    q.add_argument("--hands", type=int, default=300)
    q.add_argument("--step", type=int, default=25)
    q.add_argument("--tables", type=int, default=4)
    q.add_argument("--peeker", default="peeking", help="the superuser's bot role (joker_peeking: Marriage's joker hunter)")
    h = sub.add_parser("honest")
    h.add_argument("--hands", type=int, default=10_000)
    h.add_argument("--runs", type=int, default=1)
    h.add_argument("--preset", default="kitti", choices=("kitti", "rummy13", "marriage/nepal"))
    c = sub.add_parser("cost")
    c.add_argument("--hands", type=int, default=200)
    args = ap.parse_args()
    if args.cmd == "power":
        power(args.runs, [float(x) for x in args.shares.split(",")], args.preset, args.signal)
    elif args.cmd == "prefix":
        prefix_power(args.runs, [float(x) for x in args.shares.split(",")], args.preset, args.hands, args.step,
                     args.tables, args.peeker)
    elif args.cmd == "honest":
        honest(args.hands, args.runs, args.preset)
    else:
        cost(args.hands)


if __name__ == "__main__":
    main()
