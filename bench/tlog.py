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

        # -- baseline: bare INSERTs of the same rows -----------------------------------------
        bare = sqlite_utils.Database(Path(tmp) / "bare.db")
        bare.execute("CREATE TABLE leaves (idx INTEGER PRIMARY KEY, leaf_hash BLOB NOT NULL, entry BLOB NOT NULL)")

        def bare_inserts() -> None:
            for lo in range(0, n, batch):
                with bare.atomic():
                    for i in range(lo, min(n, lo + batch)):
                        bare.conn.execute("INSERT INTO leaves VALUES (?, ?, ?)", (i, hashes[i], entries[i]))

        t_bare = timed(bare_inserts)

        # -- the log ---------------------------------------------------------------------------
        db = sqlite_utils.Database(Path(tmp) / "tlog.db")
        log = TransparencyLog(db)

        def appends() -> None:
            for lo in range(0, n, batch):
                with db.atomic():
                    for i in range(lo, min(n, lo + batch)):
                        log.append(entries[i])

        t_log = timed(appends)
        print(f"leaves: {n:,}  (transactions of {batch} appends)")
        print(f"append     TransparencyLog.append : {n / t_log:12,.0f} appends/s  ({t_log:.1f} s)")
        print(f"baseline   bare INSERT same rows  : {n / t_bare:12,.0f} rows/s     ({t_bare:.1f} s)")
        print(f"           ratio log/bare         : {t_bare / t_log:12.2f}  (1.00 = as fast as a bare insert)")

        t0 = time.perf_counter()
        root = log.root()
        t_root = time.perf_counter() - t0
        assert root == merkle.MemoryTree(hashes).root(), "root differs from the in-memory tree"
        print(f"root() at {n:,}                  : {t_root * 1e3:9.2f} ms")

        # -- proofs ---------------------------------------------------------------------------
        k = args.proofs
        idx = [rng.randrange(n) for _ in range(k)]
        inc: list[list[bytes]] = []
        t_inc = timed(lambda: inc.extend(log.inclusion_proof(i, n) for i in idx))
        pairs = [(rng.randrange(1, n + 1), n) for _ in range(k)]
        con: list[list[bytes]] = []
        t_con = timed(lambda: con.extend(log.consistency_proof(a, b) for a, b in pairs))
        old_roots = {a: log.root(a) for a, _ in pairs}

        def verify_all() -> None:
            for i, p in zip(idx, inc):
                merkle.verify_inclusion(hashes[i], i, n, p, root)

        def verify_cons() -> None:
            for (a, b), p in zip(pairs, con):
                merkle.verify_consistency(a, b, old_roots[a], root, p)

        t_vinc = timed(verify_all)
        t_vcon = timed(verify_cons)
        inc_nodes = sum(len(p) for p in inc)
        con_nodes = sum(len(p) for p in con)
        node = b"\x01" + bytes(64)

        def bare_sha(count: int) -> None:
            sha = hashlib.sha256
            for _ in range(count):
                sha(node).digest()

        t_sha_inc = timed(lambda: bare_sha(inc_nodes))
        t_sha_con = timed(lambda: bare_sha(con_nodes))
        print(f"inclusion proofs at size {n:,}: mean path {inc_nodes / k:.1f} hashes")
        print(f"  generate (from SQLite)          : {k / t_inc:12,.0f} proofs/s")
        print(f"  verify (RFC 9162 §2.1.3.2)      : {k / t_vinc:12,.0f} proofs/s")
        print(f"  baseline bare SHA-256 per node  : {k / t_sha_inc:12,.0f} proofs/s  "
              f"(verify ratio {t_sha_inc / t_vinc:.2f}, generate ratio {t_sha_inc / t_inc:.3f})")
        print(f"consistency proofs to size {n:,}: mean path {con_nodes / k:.1f} hashes")
        print(f"  generate (from SQLite)          : {k / t_con:12,.0f} proofs/s")
        print(f"  verify (RFC 9162 §2.1.4.2)      : {k / t_vcon:12,.0f} proofs/s")
        print(f"  baseline bare SHA-256 per node  : {k / t_sha_con:12,.0f} proofs/s  "
              f"(verify ratio {t_sha_con / t_vcon:.2f}, generate ratio {t_sha_con / t_con:.3f})")
        size_mb = (Path(tmp) / "tlog.db").stat().st_size / 1e6
        bare_mb = (Path(tmp) / "bare.db").stat().st_size / 1e6
        print(f"database size: log {size_mb:.0f} MB, bare {bare_mb:.0f} MB")
        db.close()
        bare.close()


if __name__ == "__main__":
    main()
