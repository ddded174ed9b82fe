"""Benchmark the transparency log at scale: appends per second and proofs per second.

    python bench/tlog.py                 # 1,000,000 leaves (a few minutes)
    python bench/tlog.py --leaves 20000  # quick

Every figure comes with a baseline measured in the same run on the same machine:

* appends: :meth:`TransparencyLog.append` (leaf hash + leaf row + cached subtree rows, one
  savepoint each) against bare ``INSERT``s of the same precomputed ``(index, leaf hash,
  entry)`` rows into a plain table, both in transactions of ``--batch`` rows;
* proofs: inclusion and consistency proof generation from the database, and their
  verification, against bare SHA-256 of the same number of 65-byte node inputs as the
  proofs have hashes (the least work any verifier must do).
"""
from __future__ import annotations

import argparse
import hashlib
import random
import sys
import tempfile
import time
from pathlib import Path

import sqlite_utils

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit.tlog import merkle  # noqa: E402
from audit.tlog.store import TransparencyLog  # noqa: E402


def entry(i: int) -> bytes:
    """A statement-sized entry (~200 bytes of canonical-looking JSON)."""
    return (b'{"key":"' + b"ab" * 32 + b'","sig":"' + b"cd" * 24 + b'","statement":{"hand_id":"h%08d","kind":"deal"}}'
            % i)


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--leaves", type=int, default=1_000_000)
    ap.add_argument("--proofs", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=1000, help="appends per transaction")
    ap.add_argument("--dir", type=Path, default=None, help="where to put the two SQLite files (default: a temp dir)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    n, batch = args.leaves, args.batch
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        entries = [entry(i) for i in range(n)]
        hashes = [merkle.leaf_hash(e) for e in entries]

        # -- appends, interleaved batch by batch with the baseline (bare INSERTs of the same
        #    rows) so that both see the same disk and the same load from other processes --
        bare = sqlite_utils.Database(Path(tmp) / "bare.db")
        bare.execute("CREATE TABLE leaves (idx INTEGER PRIMARY KEY, leaf_hash BLOB NOT NULL, entry BLOB NOT NULL)")
        db = sqlite_utils.Database(Path(tmp) / "tlog.db")
        log = TransparencyLog(db)
        t_bare = t_log = 0.0
        for lo in range(0, n, batch):
            hi = min(n, lo + batch)
            t0 = time.perf_counter()
            with bare.atomic():
                for i in range(lo, hi):
                    bare.conn.execute("INSERT INTO leaves VALUES (?, ?, ?)", (i, hashes[i], entries[i]))
            t1 = time.perf_counter()
            with db.atomic():
                for i in range(lo, hi):
                    log.append(entries[i])
            t2 = time.perf_counter()
            t_bare += t1 - t0
            t_log += t2 - t1

        print(f"leaves: {n:,}  (transactions of {batch} appends)")
        print(f"append     TransparencyLog.append : {n / t_log:12,.0f} appends/s  ({t_log:.1f} s)")
        print(f"baseline   bare INSERT same rows  : {n / t_bare:12,.0f} rows/s     ({t_bare:.1f} s)")
        print(f"           ratio log/bare         : {t_bare / t_log:12.2f}  (1.00 = as fast as a bare insert)")

        t0 = time.perf_counter()
        root = log.root()
        t_root = time.perf_counter() - t0
        assert root == merkle.MemoryTree(hashes).root(), "root differs from the in-memory tree"
        print(f"root() at {n:,}                  : {t_root * 1e3:9.2f} ms")

        # -- proofs: generation, verification and the bare-SHA-256 baseline, interleaved proof
        #    by proof so that all three see the same load --------------------------------------
        k = args.proofs
        node = b"\x01" + bytes(64)
        sha = hashlib.sha256

        def bare_sha(count: int) -> float:
            t0 = time.perf_counter()
            for _ in range(count):
                sha(node).digest()
            return time.perf_counter() - t0

        old_roots: dict[int, bytes] = {}
        totals = {"inc_gen": 0.0, "inc_ver": 0.0, "inc_sha": 0.0, "con_gen": 0.0, "con_ver": 0.0, "con_sha": 0.0}
        inc_nodes = con_nodes = 0
        for _ in range(k):
            i = rng.randrange(n)
            t0 = time.perf_counter()
            path = log.inclusion_proof(i, n)
            t1 = time.perf_counter()
            merkle.verify_inclusion(hashes[i], i, n, path, root)
            t2 = time.perf_counter()
            totals["inc_gen"] += t1 - t0
            totals["inc_ver"] += t2 - t1
            totals["inc_sha"] += bare_sha(len(path))
            inc_nodes += len(path)
            a = rng.randrange(1, n + 1)
            if a not in old_roots:
                old_roots[a] = log.root(a)
            t0 = time.perf_counter()
            path = log.consistency_proof(a, n)
            t1 = time.perf_counter()
            merkle.verify_consistency(a, n, old_roots[a], root, path)
            t2 = time.perf_counter()
            totals["con_gen"] += t1 - t0
            totals["con_ver"] += t2 - t1
            totals["con_sha"] += bare_sha(len(path))
            con_nodes += len(path)
        for name, label, nodes, section in [("inc", "inclusion proofs at size", inc_nodes, "§2.1.3.2"),
                                            ("con", "consistency proofs to size", con_nodes, "§2.1.4.2")]:
            gen, ver, bare_t = totals[f"{name}_gen"], totals[f"{name}_ver"], totals[f"{name}_sha"]
            print(f"{label} {n:,}: mean path {nodes / k:.1f} hashes, {k} proofs")
            print(f"  generate (from SQLite)          : {k / gen:12,.0f} proofs/s  (ratio to bare SHA {bare_t / gen:.3f})")
            print(f"  verify (RFC 9162 {section})      : {k / ver:12,.0f} proofs/s  (ratio to bare SHA {bare_t / ver:.2f})")
            print(f"  baseline bare SHA-256 per node  : {k / bare_t:12,.0f} proofs/s")
        size_mb = (Path(tmp) / "tlog.db").stat().st_size / 1e6
        bare_mb = (Path(tmp) / "bare.db").stat().st_size / 1e6
        print(f"database size: log {size_mb:.0f} MB, bare {bare_mb:.0f} MB")
        db.close()
        bare.close()


if __name__ == "__main__":
    main()
