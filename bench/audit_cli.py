"""``tiplu audit`` end to end: one process vs ``--workers N`` (and ``--dask local:N``), as a user runs it.

Every run is a fresh ``python3 -m web.cli audit ARCHIVE --json --no-progress [...]`` process,
so the imports, the workers' start-up, the planning and the merge all count, in both modes.
The modes are interleaved round by round (one process, ``--workers``, ..., one process, ...),
and each parallel run is divided by the mean of the one-process runs around it, so a
machine whose speed drifts (a shared VM) favours neither.  Wall time, the cores each run
got (CPU seconds of the process and everything it started, over the wall) and records per
CPU-second are reported; every report must be byte-identical to the one-process report.

``--tree DIR`` (repeatable) runs the same rounds from other checkouts too (e.g. the old code
in a ``git worktree``), interleaved with this one, against the same archive:

    python bench/audit_cli.py --records 6000 --base 500 --rounds 3
    python bench/audit_cli.py --archive /var/tmp/tiplu-bench/kitti-ledger-6000.db --tree /tmp/old
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def _cpu_kids() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(tree: Path, archive: str, extra: list[str]) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds of the run and its processes, the JSON report)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    t, c = time.perf_counter(), _cpu_kids()
    done = subprocess.run([sys.executable, "-m", "web.cli", "audit", archive, "--json", "--no-progress", *extra],
                          cwd=tree, env=env, capture_output=True)
    wall, cpu = time.perf_counter() - t, _cpu_kids() - c
    if done.returncode not in (0, 1):
        raise SystemExit(f"{tree}: audit failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return wall, cpu, done.stdout


def _load() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0]) if Path("/proc/loadavg").exists() else float("nan")


def bench(archive: str, records: int, trees: list[Path], modes: dict[str, list[str]], rounds: int, log=print) -> dict:
    out: dict = {"archive": archive, "records": records, "rounds": rounds, "trees": {}}
    runs: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    ratios: dict[tuple[str, str], list[float]] = {}
    expect: bytes | None = None
    identical = True
    for r in range(rounds):
        for tree in trees:
            walls: dict[str, float] = {}
            order = ["single", *modes, "single_after"]
            for mode in order:
                load = _load()
                wall, cpu, report = run_once(tree, archive, modes.get(mode, []))
                name = "single" if mode.startswith("single") else mode
                expect = report if expect is None else expect
                identical &= report == expect
                runs.setdefault((str(tree), name), []).append((wall, cpu, load))
                walls[mode] = wall
                log(f"  round {r + 1} {tree.name or tree} {mode}: {records / wall:,.0f} rec/s, {cpu / wall:.2f} cores, "
                    f"{records / cpu:,.0f} rec/CPU-s (load {load:.2f})")
            base = (walls["single"] + walls["single_after"]) / 2
            for mode in modes:
                ratios.setdefault((str(tree), mode), []).append(base / walls[mode])
    for (tree, name), rs in runs.items():
        row = out["trees"].setdefault(tree, {})
        wall = statistics.median(w for w, _, _ in rs)
        row[name] = {"rate": records / wall, "cores": statistics.median(c / w for w, c, _ in rs),
                     "per_cpu_s": statistics.median(records / c for _, c, _ in rs),
                     "load": statistics.median(l for _, _, l in rs)}
        if name != "single":
            row[name]["x"] = statistics.median(ratios[(tree, name)])
            row[name]["x_all"] = ratios[(tree, name)]
    out["identical"] = identical
    for tree, row in out["trees"].items():
        log(f"{tree}: one process {row['single']['rate']:,.0f} rec/s ({row['single']['cores']:.2f} cores, "
            f"{row['single']['per_cpu_s']:,.0f} rec/CPU-s); " + "; ".join(
                f"{m} {row[m]['rate']:,.0f} rec/s x{row[m]['x']:.2f} (each round: "
                + ", ".join(f"x{x:.2f}" for x in row[m]["x_all"]) + f"; {row[m]['cores']:.2f} cores, "
                f"{row[m]['per_cpu_s']:,.0f} rec/CPU-s)" for m in modes))
    log(f"reports identical: {identical}")
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--archive", help="an archive (default: --records copies of --base clean Kitti records, JSON lines)")
    ap.add_argument("--records", type=int, default=6000)
    ap.add_argument("--base", type=int, default=500)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dask", action="store_true", help="also time --dask local:N (its cluster start-up counts)")
    ap.add_argument("--tree", action="append", default=[], help="another checkout to time in the same rounds")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    log = (lambda *a: print(*a, file=sys.stderr)) if args.json else print
    archive = args.archive
    if not archive:  # bench/audit.py's throughput archive (a module of the same name as the package)
        import importlib.util

        spec = importlib.util.spec_from_file_location("bench_audit", ROOT / "bench" / "audit.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)  # type: ignore[union-attr]
        archive = str(mod.repeated_archive(args.records, args.base, log=log))
    records = _count(archive)
    modes = {f"workers{args.workers}": ["--workers", str(args.workers)]}
    if args.dask:
        modes[f"dask_local{args.workers}"] = ["--dask", f"local:{args.workers}"]
    trees = [Path(t).resolve() for t in args.tree] + [ROOT]
    out = bench(archive, records, trees, modes, args.rounds, log=log)
    if args.json:
        print(json.dumps(out, indent=2, sort_keys=True))
    return out


def _count(archive: str) -> int:
    if archive.endswith((".db", ".sqlite", ".sqlite3")):
        import sqlite3

        from audit.auditor.sources.splits import connect_ro

        conn = connect_ro(archive)
        try:
            return conn.execute("SELECT COUNT(*) FROM published_records").fetchone()[0]
        except sqlite3.Error as exc:
            raise SystemExit(f"{archive}: {exc}") from None
        finally:
            conn.close()
    with open(archive, "rb") as fh:
        return sum(1 for line in fh if line.strip())


if __name__ == "__main__":
    main()
