"""Marriage benchmarks: maal evaluations per second against a baseline from the same run.

    python bench/marriage.py [--hands N]

The baseline is a plain ``collections.Counter`` over the same cards (the least any maal
count must do: look at every card once). Ratios, not absolute times, are what to compare
between machines. Hands are dealt deterministically from the v1 shuffle, so every run
measures the same work. (The round engine adds its own section below.)
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replay.fairness import hand_randomness  # noqa: E402
from replay.rulesets import resolve  # noqa: E402
from replay.marriage.finish import find_finish  # noqa: E402
from replay.marriage.maal import count_maal  # noqa: E402


def sample_holdings(ruleset, n_hands: int):
    """(hand, table, tiplu) triples: 21-card deals, the first card of each stock as tiplu."""
    out = []
    k = 0
    while len(out) < n_hands:
        rnd = hand_randomness(b"\x01" * 32, f"bench-{k}", ruleset, [bytes([i]) * 32 for i in range(4)])
        deal = rnd.deal(0)
        tiplu = deal.stock[0]
        for hand in deal.hands:
            if len(out) < n_hands and sum(c == tiplu for c in hand) <= 2:
                out.append((tuple(hand[9:]), tuple(hand[:9]), tiplu))
        k += 1
    return out


def rate(fn, items, repeat: int = 3) -> float:
    """Best-of-``repeat`` calls per second of ``fn`` over ``items``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for it in items:
            fn(it)
        best = min(best, time.perf_counter() - start)
    return len(items) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    for preset in ("marriage/nepal", "marriage/classic"):
        rs = resolve(preset)
        holdings = sample_holdings(rs, args.hands)
        baseline = rate(lambda h: Counter(h[0] + h[1]), holdings)
        maal = rate(lambda h: count_maal(hand=h[0], table=h[1], tiplu=h[2], seen=True, ruleset=rs), holdings)  # noqa: B023 - called within this iteration
        finish_items = [(h[0][:13], h[2]) for h in holdings[: max(1, args.hands // 10)]]
        finish = rate(lambda h: find_finish(h[0], tiplu=h[1], ruleset=rs, dublee=False), finish_items, repeat=1)  # noqa: B023 - called within this iteration
        print(f"{preset}: baseline Counter {baseline:,.0f}/s; count_maal {maal:,.0f}/s "
              f"(ratio {maal / baseline:.3f}); find_finish on 13 cards {finish:,.0f}/s "
              f"(ratio {finish / baseline:.4f})")


if __name__ == "__main__":
    main()
