"""Load: many concurrent clients playing whole hands against a gunicorn-served Tiplu.

    python bench/load.py [--clients 50] [--seconds 30] [--workers 2] [--threads 4]

Starts gunicorn on 127.0.0.1 (a fresh ledger in a temporary directory), runs ``--clients``
client threads for ``--seconds`` (each drives hands through the operator and seat APIs:
``bench/servekit.py``), then checks that there were zero errors and that every
acknowledged statement is stored exactly once, and prints the request latency percentiles.
For a baseline measured in the same run it first times ``GET /api/v1/operators`` (a read
that touches no hand) with one client, and prints the write latencies as ratios of it.
Numbers are for comparing runs on one machine, never assertions.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import requests  # noqa: E402

from bench.servekit import Server, check_served, percentiles, prepare, run_clients  # noqa: E402


def baseline(url: str, n: int = 200) -> dict[str, float]:
    session = requests.Session()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        session.get(url + "/api/v1/operators", timeout=10).raise_for_status()
        times.append(time.perf_counter() - start)
    return percentiles(times)


def run(clients: int, seconds: float, workers: int, threads: int, directory: str, *,
        default_limits: bool = False) -> dict:
    path = os.path.join(directory, "load.db")
    token = prepare(path)
    server = Server(path, workers=workers, threads=threads, default_limits=default_limits).start()
    try:
        base = baseline(server.url)
        start = time.perf_counter()
        done = run_clients(server.url, token, clients, seconds=seconds)
        elapsed = time.perf_counter() - start
    finally:
        server.stop()
    latencies = [t for c in done for t in c.stats.latencies]
    errors = [e for c in done for e in c.stats.errors]
    acks = [a for c in done for a in c.stats.acks]
    checked = check_served(path, acks)
    return {"clients": clients, "seconds": round(elapsed, 1), "workers": workers, "threads": threads,
            "requests": len(latencies), "requests_per_s": round(len(latencies) / elapsed, 1),
            "hands_done": sum(c.stats.hands_done for c in done), "errors": len(errors), "error_samples": errors[:5],
            "acked": len(acks), "stored": checked["statements"], "latency": percentiles(latencies),
            "baseline_read": base}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--default-limits", action="store_true",
                    help="serve with the app's default rate limits (every client is 127.0.0.1: one address)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        r = run(args.clients, args.seconds, args.workers, args.threads, d, default_limits=args.default_limits)
    print(f"{r['clients']} clients, {r['seconds']} s, gunicorn -w {r['workers']} --threads {r['threads']}")
    print(f"requests {r['requests']} ({r['requests_per_s']}/s), whole hands {r['hands_done']}, "
          f"errors {r['errors']}, acknowledged statements {r['acked']} (all stored once; {r['stored']} in the ledger)")
    base = r["baseline_read"]["p50"]
    for k, v in r["latency"].items():
        print(f"  {k:>6}: {v * 1000:8.1f} ms   ({v / base:6.1f}x a lone read's p50 of {base * 1000:.1f} ms)")
    for e in r["error_samples"]:
        print("  error:", e)
    if r["errors"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
