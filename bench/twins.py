#!/usr/bin/env python3
"""The audit side's single implementations against another checkout's, in one process.

Issue 31 left one implementation of each thing in the product.  ``bench/replay.py
--against DIR`` measures the ``replay/`` side (the stream, the replay loop); this measures
the ``audit/`` side: ``audit/signing.py`` (signing and verifying a statement) and
``audit/tlog/merkle.py`` (a record's 13 inclusion proofs under one checkpoint, with and
without the memo).  With ``--against DIR`` each module of the checkout at DIR is loaded
beside this one under another name, both run the same inputs, alternating round by round
(the only fair comparison on a loaded, shared machine); the answers must be the same.
Times are CPU seconds (``time.process_time``); the figure printed is the ratio
after / before (best of the rounds, and the median of the per-round ratios).

    python bench/twins.py --against /path/to/old/checkout [--rounds 9]
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import audit.signing as signing_after  # noqa: E402
import audit.tlog.merkle as merkle_after  # noqa: E402
from audit.tlog.merkle import MemoryTree  # noqa: E402


def load(checkout: Path, relative: str, name: str):
    """The module file ``relative`` of ``checkout`` as ``audit.<name>`` (relative imports resolve in ``audit``)."""
    spec = importlib.util.spec_from_file_location(f"audit.{name}", checkout / relative)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def signing_jobs(mod):
    key = mod.SigningKey.from_hex(hashlib.sha256(b"bench key").hexdigest())
    statements = [{"kind": "deal", "hand_id": f"h-{i}", "seat": i % 4, "digest": hashlib.sha256(b"%d" % i).hexdigest()}
                  for i in range(300)]
    signed = [key.sign(s) for s in statements]

    def sign():
        return [key.sign(s)["sig"] for s in statements]

    def verify():
        return [mod.verify_statement(s, key.public_hex)["hand_id"] for s in signed]
    return {"sign 300 statements": sign, "verify 300 statements": verify}


def merkle_jobs(mod, tree, size):
    batches = [[(tree.levels[0][m], m, tuple(tree.inclusion_proof(m, size))) for m in range(start, start + 13)]
               for start in range(0, size - 13, 97)]

    def plain():
        return [mod.root_from_inclusion_proof(leaf, m, size, path) for batch in batches for leaf, m, path in batch]

    def memo():
        out = []
        for batch in batches:
            memo = {}
            out.extend(mod.root_from_inclusion_proof(leaf, m, size, path, memo=memo) for leaf, m, path in batch)
        return out
    return {"inclusion folds": plain, "inclusion folds, memo per record": memo}


def cpu(fn) -> tuple[float, object]:
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, required=True, help="a checkout whose audit/ modules are the baseline")
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args(argv)
    size = 5000
    tree = MemoryTree(merkle_after.leaf_hash(b"entry %d" % i) for i in range(size))
    before = {**signing_jobs(load(args.against, "audit/signing.py", "_signing_before")),
              **merkle_jobs(load(args.against, "audit/tlog/merkle.py", "_merkle_before"), tree, size)}
    after = {**signing_jobs(signing_after), **merkle_jobs(merkle_after, tree, size)}
    for name in after:
        best = {"before": float("inf"), "after": float("inf")}
        ratios = []
        for _ in range(args.rounds):
            tb, ob = cpu(before[name])
            ta, oa = cpu(after[name])
            if ob != oa:
                raise SystemExit(f"{name}: the two implementations answer differently")
            best["before"], best["after"] = min(best["before"], tb), min(best["after"], ta)
            ratios.append(ta / max(tb, 1e-9))
        print(f"{name}: before {best['before'] * 1e3:.1f} ms, after {best['after'] * 1e3:.1f} ms (best of {args.rounds}):"
              f" x{best['after'] / best['before']:.2f}; pairwise median x{statistics.median(ratios):.2f}"
              f" (x{min(ratios):.2f}-x{max(ratios):.2f})")


if __name__ == "__main__":
    main()
