"""Full-size crash-safety runs (the CI-size versions are in ``tests/security/``).

    python bench/crash.py [--kills 2000] [--concurrency 6]          # writer processes on one file
    python bench/crash.py --served [--kills 40] [--clients 16]       # gunicorn killed under load

Default mode: ``--kills`` short-lived writer processes (``--concurrency`` at a time, all on
one SQLite file in WAL mode) drive hands and are SIGKILLed at random points
(``bench/crashkit.py``); afterwards every acknowledged statement must be stored, the file
must pass ``integrity_check``, every signed checkpoint must be a prefix of the final
transparency log, a fresh ledger must finish every half-done hand, and no two hands may
share a server seed.

``--served``: ``--clients`` HTTP clients write while the gunicorn master and workers are
SIGKILLed ``--kills`` times and restarted on the same file (``bench/servekit.py``).

Prints what was checked and exits 1 on any failure.  Results go in ``docs/security.md``.
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from audit.operator.ledger import Ledger  # noqa: E402
from bench import crashkit, servekit  # noqa: E402


def distinct_server_seeds(path: str) -> int:
    """The number of committed hands, after checking that no two share a server seed
    (seeds are made ahead in batches per process: a forked or killed writer must never
    hand one out twice)."""
    conn = sqlite3.connect(path)
    try:
        commitments = [r[0] for r in conn.execute("SELECT commitment FROM hand_commitments")]
    finally:
        conn.close()
    assert len(set(commitments)) == len(commitments), "a server seed serves two hands"
    return len(commitments)


def run_writers(kills: int, concurrency: int, seed: int, directory: str) -> None:
    path = os.path.join(directory, "crash.db")
    crashkit.setup(path)
    storm = crashkit.kill_storm(path, kills=kills, concurrency=concurrency, max_delay=0.1, seed=seed)
    start = time.perf_counter()
    checked = crashkit.check_after_crashes(path, storm)
    print(f"writer processes: {storm.writers}, SIGKILLs: {storm.kills}, concurrency {concurrency}, "
          f"{storm.seconds:.1f} s")
    print(f"acknowledged statements: {checked.acked}, stored: {checked.statements} "
          f"(committed but killed before the ack: {checked.statements - checked.acked}); none lost")
    print(f"checkpoints signed during the storm: {checked.checkpoints}, each a prefix of the final log "
          f"({checked.log_size} leaves); integrity_check ok; log.check() ok")
    print(f"hands: {checked.hands}, left half-way and finished after restart: {checked.finished_after_restart}; "
          f"all verify ({time.perf_counter() - start:.1f} s to check)")
    print(f"committed hands: {distinct_server_seeds(path)}, each with a server seed of its own")


def run_served(kills: int, clients: int, seed: int, directory: str) -> None:
    path = os.path.join(directory, "served.db")
    token = servekit.prepare(path)
    result = servekit.served_crash(path, token, kills=kills, clients=clients, seed=seed)
    errors = [e for c in result.clients for e in c.stats.errors]
    if errors:
        print("unexpected answers:", errors[:5])
        sys.exit(1)
    checked = servekit.check_served(path, result.acks)
    with Ledger(path) as ledger:
        views = list(ledger.list_hands())
        for v in views:
            ledger.verify_hand(v.id)
        states = {v.state.value for v in views}
    assert states == {"revealed"}, states
    lost = sum(c.stats.lost_connections for c in result.clients)
    conflicts = sum(c.stats.conflicts for c in result.clients)
    print(f"gunicorn SIGKILLs: {result.kills}, clients: {clients}, {result.seconds:.1f} s")
    print(f"acknowledged statements: {checked['acked']}, stored: {checked['statements']}; none lost, none twice")
    print(f"requests cut by a kill: {lost}; 409 answers to a step whose first answer was lost: {conflicts}")
    print(f"hands: {len(views)}, all revealed and verified after the last restart; integrity_check ok")
    print(f"committed hands: {distinct_server_seeds(path)}, each with a server seed of its own")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--served", action="store_true", help="kill a gunicorn-served app instead of writer processes")
    ap.add_argument("--kills", type=int, default=None)
    ap.add_argument("--concurrency", type=int, default=6, help="writer processes at once (default mode)")
    ap.add_argument("--clients", type=int, default=16, help="HTTP clients (--served)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        if args.served:
            run_served(args.kills or 40, args.clients, args.seed, d)
        else:
            run_writers(args.kills or 2000, args.concurrency, args.seed, d)


if __name__ == "__main__":
    main()
