"""Kitti speed: sets ranked per second and deals settled per second.

    python bench/kitti.py [--seconds 1.0]

Each figure is also printed as a ratio against a baseline measured in the same run on the
same machine (a bare ``sorted()`` of three ints, and a dict lookup), so numbers from
different machines compare.  Aim (docs/kitti.md): at least 500,000 set rankings per
second per core.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replay.fairness import hand_randomness  # noqa: E402
from replay.kitti.arrangement import split_keys  # noqa: E402
from replay.kitti.ranking import ranker  # noqa: E402
from replay.kitti.showdown import settle_deal  # noqa: E402
from replay.kitti.strategy import default_arrangement  # noqa: E402
from replay.rulesets import resolve  # noqa: E402
from replay.settlement import settle  # noqa: E402
from decimal import Decimal  # noqa: E402


def rate(fn, items, seconds):
    """Items processed per second by ``fn(items)`` (repeated for about ``seconds``)."""
    done, start = 0, time.perf_counter()
    while True:
        fn(items)
        done += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    t = args.seconds
    r = ranker()
    triples = [((i * 7) % 52, (i * 11 + 1) % 52, (i * 13 + 2) % 52) for i in range(20000)]
    triples = [x for x in triples if len(set(x)) == 3]
    lookup = {x: i for i, x in enumerate(triples)}

    def base_sorted(xs):
        for a, b, c in xs:
            sorted((a, b, c))

    def base_dict(xs):
        get = lookup.__getitem__
        for x in xs:
            get(x)

    def rank_key(xs):
        key = r.key
        for a, b, c in xs:
            key(a, b, c)

    def rank_inline(xs):
        table = r.table
        for a, b, c in xs:
            table[a * 2704 + b * 52 + c]

    b_sorted = rate(base_sorted, triples, t)
    b_dict = rate(base_dict, triples, t)
    rk = rate(rank_key, triples, t)
    ri = rate(rank_inline, triples, t)
    print(f"baseline sorted() of 3 ints: {b_sorted:12,.0f} /s")
    print(f"baseline dict lookup:        {b_dict:12,.0f} /s")
    print(f"sets ranked (ranker.key):    {rk:12,.0f} /s   x{rk / b_sorted:.2f} sorted()  x{rk / b_dict:.2f} dict"
          f"   {'OK' if rk >= 500_000 else 'BELOW'} aim 500,000/s")
    print(f"sets ranked (table inline):  {ri:12,.0f} /s   x{ri / b_sorted:.2f} sorted()  x{ri / b_dict:.2f} dict")

    rs = resolve("kitti")
    deals = []
    for i in range(60):
        rnd = hand_randomness(hashlib.sha256(b"bench%d" % i).digest(), f"b{i}", rs, [bytes([s]) * 16 for s in range(4)])
        hands = rnd.deal(i % 4).hands
        deals.append((hands, [default_arrangement(h, r) for h in hands]))
    folded = [False] * 4
    pv, pct = Decimal("0.25"), Decimal("5")

    def settle_all(ds):
        for hands, arranged in ds:
            res = settle_deal(rs, hands=hands, arranged=arranged, folded=folded, pot_before=0, ranker=r)
            settle(res.net_points, point_value=pv, commission_pct=pct, pot_delta_points=res.pot_delta)

    def split_all(ds):
        for hands, _ in ds:
            split_keys(hands[0], r)

    ds = rate(settle_all, deals, t)
    sp = rate(split_all, deals, t)
    print(f"deals settled (4 seats, points + HT): {ds:10,.0f} /s   x{ds / b_sorted:.6f} sorted()")
    print(f"hands split 280 ways and ranked:      {sp:10,.0f} /s   x{sp / b_sorted:.6f} sorted()")


if __name__ == "__main__":
    main()
