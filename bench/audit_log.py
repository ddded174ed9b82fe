"""Parallel ledger audits with the whole-log checks: one process vs ``--workers N`` vs Dask ``local:N``.

The row of issue 18 (``--workers 2`` vs one process on 6,000+ records, keep >= 1.7x, and Dask
``local:2`` too) measured on a *ledger* -- where every record is also judged against the
operator's whole log (``audit.auditor.evidence.logcheck``) -- as ``tiplu audit LEDGER.db`` runs it.  The
one-process baseline runs before and after the parallel runs (bracketing, as
``bench/audit.py`` does).  For each parallel run it also reports the parent's own CPU
seconds (planning, the log snapshot, merging) as a share of the run's wall time: the
whole-log step must not make the run serial-bound.

    python bench/audit_log.py --records 6000            # builds (and caches) the ledger once
    python bench/audit_log.py --records 6000 --json

The ledger is cached in ``$TIPLU_BENCH_CACHE`` (default ``/var/tmp/tiplu-bench``) as
``kitti-ledger-<n>.db`` (simulated Kitti tables of 100 hands, 4 seats).
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from archives import cache_dir  # noqa: E402


def ledger_archive(n: int, log=print) -> Path:
    path = cache_dir() / f"kitti-ledger-{n}.db"
    if path.exists():
        return path
    from audit.operator.ledger import Ledger
    from audit.operator.sim.archive import simulate_archive

    tmp = path.with_name(path.stem + ".part.db")
    for stale in (tmp, tmp.with_name(tmp.stem + ".secrets.db")):
        stale.unlink(missing_ok=True)
    t = time.perf_counter()
    with Ledger(str(tmp), create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, min(100, n - k)) for k in range(0, n, 100)], seed="bench-log")
    log(f"  built {n} records in {time.perf_counter() - t:.0f} s")
    tmp.rename(path)
    tmp.with_name(tmp.stem + ".secrets.db").rename(path.with_name(path.stem + ".secrets.db"))
    return path


def _cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _cpu_kids() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(records: int, workers: int, *, dask: bool = True, log=print) -> dict:
    from audit.operator.ledger.store import open_readonly
    from audit.auditor.evidence.ledger_log import LedgerLog
    from audit.auditor.run.parallel import audit_parallel, audit_partitions_dask, dask_client, plan_partitions, shippable_log
    from audit.auditor.run.parallel import Handoff
    from audit.auditor.run.runner import audit_items
    from audit.auditor.sources.reader import iter_source

    db = str(ledger_archive(records, log=log))
    out: dict = {"records": records, "workers": workers, "source": "ledger, whole-log checks"}
    reports: list[str] = []
    cpu_s: list[float] = []

    def single() -> float:
        t, me = time.perf_counter(), _cpu_self()
        rep = audit_items(iter_source(db), log=LedgerLog(open_readonly(db), path=db))
        reports.append(json.dumps(rep.to_json(), sort_keys=True))
        out["clean"] = rep.total - rep.failed
        cpu_s.append(_cpu_self() - me)
        return time.perf_counter() - t

    def parallel(name: str, call) -> None:
        t, me, kids = time.perf_counter(), _cpu_self(), _cpu_kids()
        rep = call()
        wall = time.perf_counter() - t
        out[f"{name}_rate"] = records / wall
        out[f"{name}_parent_cpu_share"] = (_cpu_self() - me) / wall
        if not name.startswith("dask"):  # local pools are reaped at once: their CPU is counted
            spent = _cpu_self() - me + _cpu_kids() - kids
            out[f"{name}_cores"] = spent / wall
            out[f"{name}_per_cpu_s"] = records / spent
        out[f"{name}_identical"] = json.dumps(rep.to_json(), sort_keys=True) == reports[0]
        log(f"  {name}: {out[f'{name}_rate']:,.0f} records/s, parent CPU {out[f'{name}_parent_cpu_share']:.0%} "
            f"of wall, report {'identical' if out[f'{name}_identical'] else 'DIFFERS'}")

    before = single()
    log(f"  one process: {records / before:,.0f} records/s")
    parallel("workers", lambda: audit_parallel(db, workers=workers, log=LedgerLog(open_readonly(db), path=db)))
    parallel("workers_ship", lambda: audit_parallel(db, workers=workers, read_in_workers=False,
                                                    log=LedgerLog(open_readonly(db), path=db)))
    if dask:
        client = dask_client(f"local:{workers}")
        try:
            def on_dask():
                view = LedgerLog(open_readonly(db), path=db)
                return audit_partitions_dask(plan_partitions(db, taper=workers), client,
                                             handoff=Handoff(shipped=shippable_log(view, reads_files=True)))

            def on_dask_index():  # the workers get every leaf hash from the parent (a LogIndex broadcast)
                view = LedgerLog(open_readonly(db), path=db)
                return audit_partitions_dask(plan_partitions(db, read_in_workers=False, taper=workers), client,
                                             handoff=Handoff(shipped=shippable_log(view, reads_files=False)))
            parallel("dask", on_dask)
            parallel("dask_index", on_dask_index)
        finally:
            cluster = client.cluster
            client.close()
            cluster.close()
    after = single()
    log(f"  one process again: {records / after:,.0f} records/s")
    out["single"] = records / ((before + after) / 2)
    out["single_before"], out["single_after"] = records / before, records / after
    out["single_per_cpu_s"] = 2 * records / sum(cpu_s)
    out["single_cores"] = sum(cpu_s) / (before + after)
    log(f"  records per CPU-second: one process {out['single_per_cpu_s']:,.0f} ({out['single_cores']:.2f} cores), "
        + ", ".join(f"{n} {out[n + '_per_cpu_s']:,.0f} ({out[n + '_cores']:.2f} cores)"
                    for n in ("workers", "workers_ship") if n + "_per_cpu_s" in out))
    for name in ("workers", "workers_ship", "dask", "dask_index"):
        if f"{name}_rate" in out:
            out[f"{name}_x"] = out[f"{name}_rate"] / out["single"]
    log("  ratios vs the bracketing one-process baseline: " + ", ".join(
        f"{n} x{out[n + '_x']:.2f}" for n in ("workers", "workers_ship", "dask", "dask_index") if n + "_x" in out))
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=6000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    log = (lambda *a: print(*a, file=sys.stderr)) if args.json else print
    out = run(args.records, args.workers, dask=not args.no_dask, log=log)
    if args.json:
        print(json.dumps(out, indent=2, sort_keys=True))
    return out


if __name__ == "__main__":
    main()
