#!/usr/bin/env python3
"""Statistical checks of the v1 shuffle (not a unit test; see docs/fairness.md for results).

Shuffles the 52-card pack many times, each from its own hand id (and a fresh server seed
every 1,000 hands), exactly as ``HandRandomness.shoe()`` does for ``kitti``, and prints
three chi-square statistics against their 99 % critical values:

1. card x position: how often each card lands at each position.  Expected N/52 per
   cell; degrees of freedom (52-1)^2 = 2601 (both margins are fixed).
2. pair adjacency: how often card b lies directly below card a, over the 51 adjacent
   position pairs of every deck.  Expected N*51/2652 per ordered pair (a != b); df 2651.
   (Pairs within one deck are slightly dependent, so this is an approximate test.)
3. first draw of the ``tiplu`` sub-stream over n = 117 (a marriage/nepal stock, MN-4, D-5):
   expected N/117 per value; df 116.

The critical values use the Wilson-Hilferty approximation of the chi-square quantile
(no scipy needed).  A statistic above its critical value is flagged FAIL; with three
tests at 99 %, a fair shuffle shows at least one FAIL about 3 % of the time.

    python tools/shuffle_stats.py [--shuffles 500000] [--label stats]
Exit status: 0 if every statistic is below its critical value, else 1.
"""
from __future__ import annotations

import argparse
import hashlib
import math
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from replay.cards import STANDARD  # noqa: E402
from replay.rulesets import resolve  # noqa: E402
from replay.stream import Stream, key_material  # noqa: E402

Z_99 = 2.3263478740408408  # standard normal quantile at 0.99


def chi2_critical(df: int, z: float = Z_99) -> float:
    """Wilson-Hilferty: the chi-square quantile with ``df`` degrees of freedom at normal quantile z."""
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + z * math.sqrt(h)) ** 3


def chi2(counts, expected: float) -> float:
    return sum((c - expected) ** 2 for c in counts) / expected


def run(shuffles: int, label: str) -> list[tuple[str, float, int, float]]:
    ruleset_hash = bytes.fromhex(resolve("kitti").hash)
    seeds = [hashlib.sha256(f"{label}:seat{i}".encode()).digest()[:16] for i in range(4)]
    codes = [c.code for c in STANDARD]
    position = [0] * (52 * 52)       # position * 52 + card
    adjacent = [0] * (52 * 52)       # upper card * 52 + lower card
    tiplu = [0] * 117
    offsets = range(0, 52 * 52, 52)
    server = b""
    for h in range(shuffles):
        if h % 1000 == 0:
            server = hashlib.sha256(f"{label}:server{h // 1000}".encode()).digest()
        material = key_material(f"{label}-{h}", ruleset_hash, seeds)
        deck = Stream(server, material, "deal").shuffle(codes)
        for i in map(int.__add__, offsets, deck):
            position[i] += 1
        for a, b in zip(deck, deck[1:]):
            adjacent[a * 52 + b] += 1
        tiplu[Stream(server, material, "tiplu").randbelow(117)] += 1
    pairs = [adjacent[a * 52 + b] for a in range(52) for b in range(52) if a != b]
    return [
        ("card x position", chi2(position, shuffles / 52), 51 * 51, chi2_critical(51 * 51)),
        ("pair adjacency", chi2(pairs, shuffles * 51 / (52 * 51)), 52 * 51 - 1, chi2_critical(52 * 51 - 1)),
        ("tiplu draw n=117", chi2(tiplu, shuffles / 117), 116, chi2_critical(116)),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description="Chi-square checks of the v1 shuffle.")
    parser.add_argument("--shuffles", type=int, default=500_000, help="number of 52-card shuffles (default 500000, about 40 s)")
    parser.add_argument("--label", default="stats", help="seed label, to draw a different sample")
    args = parser.parse_args()
    t0 = time.perf_counter()
    results = run(args.shuffles, args.label)
    print(f"{args.shuffles} shuffles of the 52-card pack, label {args.label!r}, {time.perf_counter() - t0:.1f} s")
    print(f"{'test':<18} {'chi-square':>11} {'df':>6} {'99% critical':>13}  verdict")
    ok = True
    for name, stat, df, crit in results:
        ok &= stat <= crit
        print(f"{name:<18} {stat:>11.1f} {df:>6} {crit:>13.1f}  {'pass' if stat <= crit else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
