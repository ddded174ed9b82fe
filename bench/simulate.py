#!/usr/bin/env python3
"""Simulate K hands of every preset through the real ledger, audit them all, and check
that every clean hand audits clean and every tampered hand is caught (issue: simulated
tables).  Prints hands simulated and audited per second, each against a baseline
measured in the same run: the bare v1 deal (shuffle + deal) of the same hands.

    python bench/simulate.py                 # 1,000 hands per preset (a few minutes)
    python bench/simulate.py --hands 50      # quicker
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from audit.operator.ledger import Ledger  # noqa: E402
from audit.operator.sim.archive import simulate_archive  # noqa: E402
from audit.auditor.verdict.verify import audit_record  # noqa: E402
from replay.fairness import hand_randomness  # noqa: E402
from replay.rulesets import PRESETS, resolve  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1000, help="hands per preset (default 1000)")
    ap.add_argument("--tamper", type=float, default=0.05, help="share of hands forged (default 0.05)")
    ap.add_argument("--preset", action="append", choices=PRESETS, help="only these presets (repeatable)")
    args = ap.parse_args()
    print(f"{'preset':18} {'hands':>6} {'sim/s':>8} {'audit/s':>8} {'deal/s':>8} {'sim/deal':>9} "
          f"{'finished':>8} {'median':>7} {'forged':>6} {'caught':>6} {'clean ok':>8}")
    failed = False
    for preset in args.preset or PRESETS:
        records = []
        t0 = time.perf_counter()
        with Ledger(":memory:") as ledger:
            run = simulate_archive(ledger, [(preset, 4, args.hands)], seed="bench", tamper_rate=args.tamper,
                                   on_record=lambda r, k: records.append((r, k)))  # noqa: B023 - called within this iteration
        t_sim = time.perf_counter() - t0
        t0 = time.perf_counter()
        verdicts = [(audit_record(r), k) for r, k in records]
        t_audit = time.perf_counter() - t0
        rs = resolve(preset)
        t0 = time.perf_counter()
        for i in range(len(records)):
            hand_randomness(bytes(32), f"h{i}", rs, [bytes(16)] * 4).deal(0)
        t_deal = time.perf_counter() - t0
        forged = sum(1 for _, k in verdicts if k)
        caught = sum(1 for v, k in verdicts if k and not v.ok)
        clean = sum(1 for v, k in verdicts if not k and v.ok)
        ok = caught == forged and clean == len(verdicts) - forged
        failed |= not ok
        t = run.tables[0]
        n = len(records)
        print(f"{preset:18} {n:6d} {n / t_sim:8.1f} {n / t_audit:8.1f} {n / t_deal:8.0f} {t_deal / t_sim:9.4f} "
              f"{t.finished / t.hands:8.0%} {statistics.median(t.turns):7.1f} {forged:6d} {caught:6d} "
              f"{'yes' if clean == n - forged else 'NO':>8}")
    print("every clean hand audits clean and every forged hand is caught" if not failed else "FAILURES above")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
