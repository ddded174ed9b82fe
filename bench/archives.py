"""Benchmark archives of hand records, built once and cached (JSON lines).

* :func:`clean_archive` -- real records: Kitti tables (4 seats) played by the simulator
  through the real ledger (:func:`audit.operator.sim.tables.simulate_table`), several tables in
  parallel processes.  Every record audits clean.  Slow to build (tens of records per
  second per core), so it is cached.
* :func:`copied_archive` -- a large archive made fast by repeating the clean records with
  new hand ids (``<id>~<n>``).  A copied record fails its audit (the hand id is bound into
  the seat commitments and the signed statements), so it is for measuring the streaming
  machinery's memory and speed, never for "records audited clean per second".

The cache lives in ``$TIPLU_BENCH_CACHE`` or ``/var/tmp/tiplu-bench``.

    python bench/archives.py clean 5000      # build (or reuse) and print the path
    python bench/archives.py copies 1000000
"""
from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

HANDS_PER_TABLE = 100


def cache_dir() -> Path:
    d = Path(os.environ.get("TIPLU_BENCH_CACHE", "/var/tmp/tiplu-bench"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def _simulate(args: tuple[str, int, str]) -> list[str]:
    from audit.operator.ledger import Ledger
    from audit.operator.sim.tables import simulate_table

    table_id, hands, seed = args
    ledger = Ledger(":memory:")
    ledger.new_operator("demo-operator")
    lines: list[str] = []
    simulate_table(ledger, preset="kitti", players=4, hands=hands, seed=seed, table_id=table_id,
                   on_record=lambda r, k: lines.append(json.dumps(r, sort_keys=True, separators=(",", ":"))))
    return lines


def clean_archive(n: int, *, workers: int = 2, log=print) -> Path:
    """A JSON-lines archive of ``n`` clean Kitti records (cached); logs the build rate."""
    path = cache_dir() / f"kitti-clean-{n}.jsonl"
    if path.exists():
        return path
    jobs, left, i = [], n, 0
    while left > 0:
        jobs.append((f"bench-t{i:04d}", min(HANDS_PER_TABLE, left), "bench"))
        left -= HANDS_PER_TABLE
        i += 1
    tmp = path.with_suffix(".part")
    start = time.perf_counter()
    with tmp.open("w", encoding="utf-8") as fh, ProcessPoolExecutor(workers) as pool:
        for lines in pool.map(_simulate, jobs):
            fh.write("\n".join(lines) + "\n")
    tmp.rename(path)
    secs = time.perf_counter() - start
    log(f"simulated {n:,} clean Kitti records in {secs:.0f} s ({n / secs:.0f} records/s on {workers} processes)")
    return path


def copied_archive(n: int, *, base: int = 500, log=print) -> Path:
    """``n`` records: the clean ``base`` records repeated under new hand ids (they fail the audit)."""
    path = cache_dir() / f"kitti-copies-{n}.jsonl"
    if path.exists():
        return path
    src = clean_archive(base, log=log).read_text(encoding="utf-8").splitlines()
    tmp = path.with_suffix(".part")
    with tmp.open("w", encoding="utf-8") as fh:
        for i in range(n):
            rec = json.loads(src[i % len(src)])
            rec["hand_id"] = f"{rec['hand_id']}~{i // len(src)}"
            fh.write(json.dumps(rec, sort_keys=True, separators=(",", ":")) + "\n")
    tmp.rename(path)
    return path


if __name__ == "__main__":
    kind, count = sys.argv[1], int(sys.argv[2])
    print(clean_archive(count) if kind == "clean" else copied_archive(count))
