#!/usr/bin/env python3
"""CPU microseconds per ``replay_record`` of a preset's bench records, against another checkout.

The records are ``bench/audit.py``'s simulated ones (60 hands of a 4-seat table, cached as
JSON lines).  With ``--against DIR`` the ``replay/`` package of the checkout at DIR is
copied under another name and loaded beside this one, so both replay the same records in
one process, alternating round by round (the only fair comparison on a loaded, shared
machine); every outcome and settlement must be the same.  Without it, this checkout alone.

    python bench/replay.py [--preset kitti] [--rounds 15] [--against /path/to/old/checkout]
"""
from __future__ import annotations

import argparse
import importlib
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def load(package: str, lines: list[str]):
    records = importlib.import_module(f"{package}.records")
    plain = importlib.import_module(f"{package}.canonical").PLAIN_JSON
    replay = importlib.import_module(f"{package}.replayer").replay_record
    parsed = []
    for line in lines:
        data, kind = records.load_json_kind(line)
        parsed.append(records.parse_record(data, plain=kind == plain))
    return replay, parsed


def per_record(replay, parsed) -> float:
    clock = time.process_time
    t = clock()
    for p in parsed:
        replay(p, strict=False)
    return (clock() - t) / len(parsed) * 1e6


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="kitti")
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--against", type=Path, help="a checkout whose replay/ is the baseline")
    args = ap.parse_args(argv)
    from bench.audit import preset_records

    lines = [json.dumps(r, sort_keys=True, separators=(",", ":")) for r in preset_records(args.preset, 4, args.hands)]
    runs = {"after": load("replay", lines)}
    if args.against:
        tmp = Path(tempfile.mkdtemp(prefix="tiplu-replay-"))
        shutil.copytree(args.against / "replay", tmp / "replay_before")
        sys.path.insert(0, str(tmp))
        runs = {"before": load("replay_before", lines), **runs}
        (old, po), (new, pn) = runs["before"], runs["after"]
        for a, b in zip(po, pn):
            x, y = old(a, strict=False), new(b, strict=False)
            if (repr(x.outcome), repr(x.settlement), x.faults) != (repr(y.outcome), repr(y.settlement), y.faults):
                raise SystemExit(f"the replays differ on {a.hand_id}")
    for replay, parsed in runs.values():
        replay(parsed[0], strict=False)  # warm
    best = {name: float("inf") for name in runs}
    ratios = []
    for _ in range(args.rounds):
        got = {name: per_record(*run) for name, run in runs.items()}
        for name, us in got.items():
            best[name] = min(best[name], us)
        if "before" in got:
            ratios.append(got["after"] / got["before"])
    out = {"preset": args.preset, "records": len(lines), "us_per_record": best}
    line = f"{args.preset}: " + ", ".join(f"{name} {us:.0f} us" for name, us in best.items())
    if ratios:
        ratios.sort()
        out["ratio_best"] = best["after"] / best["before"]
        out["ratio_median"] = ratios[len(ratios) // 2]
        line += (f" per replay (best of {args.rounds}): x{out['ratio_best']:.2f};"
                 f" pairwise median x{out['ratio_median']:.2f} (x{ratios[0]:.2f}-x{ratios[-1]:.2f})")
    print(line)
    return out


if __name__ == "__main__":
    main()
