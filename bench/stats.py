#!/usr/bin/env python3
"""The deal statistics page at scale, and the tests' power and false-positive rate.

    python bench/stats.py build --db var/bench/stats-10k.db [--hands 10000]
    python bench/stats.py page --db var/bench/stats-10k.db [--repeat 20]
    python bench/stats.py power [--archives 200]

``build`` simulates an archive through the real ledger (all four presets, in the demo's
proportions of tables; honest operator) and prints how long it took.  ``page`` opens the
app on it and times ``GET /stats`` cold (every record audited and counted), then warm
(the cache keyed by the set of published records) -- best and median of ``--repeat`` --
and the fingerprint alone.  ``power`` measures, with fair deals and with the biased
operator of ``audit/operator/sim/bias.py`` (deals straight from the v1 shuffle: no ledger, no
play), how often each test is flagged at 99% at several archive sizes.
"""
from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# (preset, players, share of the hands): Kitti and Marriage at two table sizes, Rummy at one
PLAN = [("kitti", 4, 0.3), ("kitti", 3, 0.15), ("marriage/nepal", 4, 0.15), ("marriage/classic", 4, 0.15),
        ("marriage/nepal", 3, 0.05), ("rummy13", 4, 0.1), ("rummy13", 6, 0.1)]
TABLE_HANDS = 250


def build(db: Path, hands: int, seed: str) -> None:
    from audit.operator.ledger import Ledger
    from audit.operator.sim.archive import simulate_archive

    db.parent.mkdir(parents=True, exist_ok=True)
    if db.exists():
        sys.exit(f"{db} exists: remove it first")
    plan = []
    for preset, players, share in PLAN:
        n = round(hands * share)
        while n > 0:
            plan.append((preset, players, min(TABLE_HANDS, n)))
            n -= TABLE_HANDS
    start = time.perf_counter()
    done = [0]

    def said(t) -> None:
        done[0] += t.hands
        el = time.perf_counter() - start
        print(f"  {t.table_id}: {t.hands} hands ({done[0]} in {el:.0f} s, {done[0] / el:.1f} hands/s)", flush=True)

    with Ledger(str(db), create=True) as ledger:
        simulate_archive(ledger, plan, seed=seed, on_table=said)
    el = time.perf_counter() - start
    print(f"built {done[0]} hands in {el:.0f} s ({done[0] / el:.1f} hands/s) into {db}")


def page(db: Path, repeat: int) -> None:
    from web import create_app
    from audit.operator.ledger import Ledger
    from audit.auditor.stats.cache import fingerprint

    app = create_app({"TESTING": True, "TIPLU_DB": str(db), "TIPLU_STATS_WAIT": 24 * 3600})
    client = app.test_client()
    t = time.perf_counter()
    res = client.get("/stats")
    cold = time.perf_counter() - t
    assert res.status_code == 200
    size = len(res.data)
    warm = []
    for _ in range(repeat):
        t = time.perf_counter()
        res = client.get("/stats")
        warm.append(time.perf_counter() - t)
        assert res.status_code == 200
    with Ledger(str(db)) as ledger:
        fp = []
        for _ in range(repeat):
            t = time.perf_counter()
            fingerprint(ledger)
            fp.append(time.perf_counter() - t)
    data = client.get("/api/v1/stats").get_json()
    print(f"{data['hands']} hands counted of {data['considered']} published; page {size / 1024:.0f} KiB")
    print(f"cold GET /stats: {cold:.1f} s")
    print(f"warm GET /stats: best {min(warm) * 1000:.1f} ms, median {statistics.median(warm) * 1000:.1f} ms "
          f"({repeat} requests)")
    print(f"fingerprint alone: median {statistics.median(fp) * 1000:.1f} ms")
    for g in data["games"]:
        print(f"  {g['preset']} {g['seats']} seats: {g['hands']} hands, flagged: {g['flagged'] or 'none'}")


def power(archives: int) -> None:
    from audit.operator.sim.bias import Bias
    from audit.auditor.stats.deals import DealStats, deal_facts
    from replay.fairness import hand_randomness
    from replay.rulesets import resolve

    rs = resolve("kitti")

    def run(hands: int, bias: Bias | None, a: int) -> dict[str, bool]:
        stats = DealStats()
        for h in range(hands):
            def draw(attempt: int) -> tuple[bytes, list[bytes]]:
                s = hashlib.sha256(f"power/{a}/{h}/{attempt}".encode()).digest()  # noqa: B023 - called within this iteration
                return s, [s[:16]] * 4
            server, seeds = bias.choose(rs, f"h{h}", h % 4, draw) if bias else draw(0)
            deal = hand_randomness(server, f"h{h}", rs, seeds).deal(h % 4)
            stats.add(deal_facts(rs, deal, dealer=h % 4), rs)
        g = next(iter(stats.groups.values()))
        return {c.id: c.test.flagged for c in g.charts(rs) if c.about == "deal" and c.test.valid}

    print(f"kitti, 4 seats; {archives} archives per row; share of archives flagged at 99%")
    for label, bias, sizes in (("fair", None, (30, 60)),
                               ("biased tries=8", Bias(tries=8), (20, 40, 60)),
                               ("biased tries=2", Bias(tries=2), (60, 120, 240))):
        for hands in sizes:
            n = archives if bias is None else max(20, archives // 4)
            counts: dict[str, int] = {}
            for a in range(n):
                for k, v in run(hands, bias, a).items():
                    counts[k] = counts.get(k, 0) + v
            rates = ", ".join(f"{k} {v / n:.1%}" for k, v in sorted(counts.items()))
            print(f"  {label:<15} {hands:>4} hands: {rates}  ({n} archives)", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--db", type=Path, required=True)
    b.add_argument("--hands", type=int, default=10_000)
    b.add_argument("--seed", default="bench-stats")
    g = sub.add_parser("page")
    g.add_argument("--db", type=Path, required=True)
    g.add_argument("--repeat", type=int, default=20)
    w = sub.add_parser("power")
    w.add_argument("--archives", type=int, default=200)
    a = p.parse_args()
    if a.cmd == "build":
        build(a.db, a.hands, a.seed)
    elif a.cmd == "page":
        page(a.db, a.repeat)
    else:
        power(a.archives)


if __name__ == "__main__":
    main()
