#!/usr/bin/env python3
"""The pair review's power and false-positive rate (``docs/collusion.md``, "Pairs").

    python bench/collusion_pairs.py power [--preset kitti] [--runs 2] [--rates 1,0.5,0.25]
    python bench/collusion_pairs.py power --preset rummy13 --tables 2 --signal rummy13.soft_drop
    python bench/collusion_pairs.py honest [--preset kitti] [--hands 10000]

``power``: four tables of four (16 accounts), a colluding pair in seats 0 and 1 of the first
(:mod:`audit.operator.sim.collude`, sharing on the given share of its decisions); each table played
once to the grid's longest length and reviewed on every prefix of the grid -- the first
length at which the pair is flagged (on any pair signal, or on ``--signal`` only; ``--tables``
tables instead of four), per seed, and how many other
accounts and pairs were flagged on the way.  ``honest``: honest archives (tables of four,
400 hands each) reviewed whole, account and pair flags counted.  Played in memory
(:mod:`audit.auditor.collusion.cheaters`), the same functions ``tiplu collusion`` uses.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GRIDS = {"kitti": (50, 100, 200, 400, 800, 1600, 3200), "rummy13": (20, 40, 80, 160, 320, 640),
         "marriage/nepal": (25, 50, 100, 200, 400, 800)}


def _review(parts, length):
    from audit.auditor.collusion import review
    from audit.auditor.collusion.observe import Observations, add_part

    obs = Observations()
    for (_t, h), part in parts.items():
        if h < length:
            add_part(obs, part)
    return review(obs)


def power(preset: str, runs: int, rates: list[float], longest: int | None, tables: int = 4,
          signal: str | None = None) -> None:
    from audit.auditor.collusion.cheaters import account, played_parts

    grid = [g for g in GRIDS[preset] if longest is None or g <= longest]
    pair = {account(0, 0), account(0, 1)}
    print(f"{preset}: rate  hands-of-its-table-until-the-pair-is-flagged per seed   false flags on the way "
          "(neither planted account)")
    for rate in rates:
        found, other, planted_own = [], 0, []
        for run in range(runs):
            t0 = time.perf_counter()
            parts = {}
            at = None
            lengths = iter(grid)
            length = next(lengths)
            for t, h, part in played_parts(preset, tables=tables, players=4, hands=grid[-1], seed=f"pairs{run}",
                                           collude={0: (0, 1, round(rate * 1000))}):
                parts[(t, h)] = part
                if t < tables - 1 or h + 1 < length:
                    continue
                rep = _review(parts, length)   # every table has played `length` hands
                hit = [f for f in rep.pair_flags if {f.account, f.target} == pair and signal in (None, f.signal)]
                # a flag on neither planted account is false; one on a planted account (its own
                # signals, or a pair with a third account) is reported apart
                other += sum(1 for f in rep.flags if f.account not in pair)
                other += sum(1 for f in rep.pair_flags if not {f.account, f.target} & pair)
                planted_own.extend(f"{f.account}:{f.signal}" for f in rep.flags if f.account in pair)
                planted_own.extend(f"{f.account}+{f.target}:{f.signal}" for f in rep.pair_flags
                                   if {f.account, f.target} & pair and f not in hit)
                if hit:
                    at = (length, sorted({f.signal for f in hit}))
                    break
                length = next(lengths, None)
                if length is None:
                    break
            found.append(at)
            print(f"  rate {rate}: seed {run}: {at} ({time.perf_counter() - t0:.0f} s); flags of a planted account "
                  f"on the way: {sorted(set(planted_own))}", flush=True)
        print(f"{rate:5.2f}  {' '.join(str(x[0]) if x else f'>{grid[-1]}' for x in found):30s} {other}", flush=True)


def honest(preset: str, hands: int, runs: int) -> None:
    from audit.auditor.collusion import review
    from audit.auditor.collusion.cheaters import played_observations

    per_table = 400
    for run in range(runs):
        t0 = time.perf_counter()
        obs = played_observations(preset, tables=max(1, hands // per_table), players=4, hands=per_table,
                                  seed=f"honest{run}")
        rep = review(obs)
        tested = sum(1 for t in rep.pair_tests if t.tested)
        by = defaultdict(int)
        for t in rep.pair_tests:
            by[t.signal] += t.tested
        print(f"run {run}: {obs.hands} hands, {sum(t.tested for t in rep.tests)} account and {tested} pair tests "
              f"({dict(by)}), {len(rep.flags)} account and {len(rep.pair_flags)} pair flags, smallest pair p "
              f"{min((t.p for t in rep.pair_tests if t.tested), default=1):.3g} ({time.perf_counter() - t0:.0f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("power")
    p.add_argument("--preset", default="kitti", choices=sorted(GRIDS))
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--rates", default="1,0.5,0.25")
    p.add_argument("--longest", type=int, default=None)
    p.add_argument("--tables", type=int, default=4)
    p.add_argument("--signal", default=None, help="the pair counts as flagged on this signal only")
    h = sub.add_parser("honest")
    h.add_argument("--preset", default="kitti", choices=sorted(GRIDS))
    h.add_argument("--hands", type=int, default=10_000)
    h.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    if args.cmd == "power":
        power(args.preset, args.runs, [float(x) for x in args.rates.split(",")], args.longest, args.tables, args.signal)
    else:
        honest(args.preset, args.hands, args.runs)


if __name__ == "__main__":
    main()
