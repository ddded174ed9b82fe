"""Benchmark: the rummy minimum-points solver on random hands.

Random hands of 13 from a shuffled two-deck shoe with two printed jokers (D-18); the card
after them is the indicator, so the wild rank is random (and sometimes a printed joker:
printed jokers only, R-5).  The shuffles come from the v1 stream with a fixed seed, so
every run solves the same hands.

Prints hands solved per second, the median and p99 time per hand, and the ratio against
a baseline measured in the same run: parsing and sorting the same 13 cards from text.
Two passes: ``cold`` starts with empty memo tables, ``warm`` solves fresh hands with the
memo tables the cold pass left (the steady state of a long-running table server).

    python bench/rummy.py [--hands N]
"""
from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replay.cards import format_cards, parse_cards  # noqa: E402
from replay.rummy.groups import wild_rank_of  # noqa: E402
from replay.rummy.solver import clear_caches, solve  # noqa: E402
from replay.shoes import build_shoe  # noqa: E402
from replay.stream import Stream  # noqa: E402


def random_hands(n: int, label: str) -> list[tuple[str, int | None]]:
    shoe = build_shoe(2, 2)
    stream = Stream(hashlib.sha256(b"tiplu bench rummy").digest(), bytes(32), label)
    out = []
    for _ in range(n):
        deck = stream.shuffle(shoe)
        out.append((format_cards(deck[:13]), wild_rank_of(deck[13])))
    return out


def time_each(fn, items) -> list[int]:
    times = []
    clock = time.perf_counter_ns
    for item in items:
        t0 = clock()
        fn(item)
        times.append(clock() - t0)
    return times


def report(name: str, times: list[int], base: list[int]) -> None:
    total = sum(times) / 1e9
    per_s = len(times) / total
    med = statistics.median(times) / 1e3
    p99 = sorted(times)[int(0.99 * (len(times) - 1))] / 1e3
    ratio = sum(times) / max(1, sum(base))
    print(f"{name:5s} {len(times):6d} hands  {per_s:9.0f} hands/s  median {med:7.1f} us  "
          f"p99 {p99:8.1f} us  max {max(times) / 1e3:8.1f} us  x{ratio:6.1f} baseline")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000)
    args = ap.parse_args()
    for label in ("cold", "warm"):
        hands = random_hands(args.hands, f"bench:{label}")
        base = time_each(lambda h: sorted(parse_cards(h[0])), hands)
        if label == "cold":
            clear_caches()
        times = time_each(lambda h: solve(parse_cards(h[0]), h[1]), hands)
        print(f"baseline (parse + sort 13 cards): median {statistics.median(base) / 1e3:.1f} us")
        report(label, times, base)


if __name__ == "__main__":
    main()
