"""Kitti speed: sets ranked per second and deals settled per second.

    python bench/kitti.py [--seconds 1.0] [--eval-lines 100000] [--peer NAME=COMMAND ...]

Each figure is also printed as a ratio against a baseline measured in the same run on the
same machine (a bare ``sorted()`` of three ints, and a dict lookup), so numbers from
different machines compare.  Aim (docs/kitti.md): at least 500,000 set rankings per
second per core.

``tiplu eval kitti`` op ``rank``: a JSON-lines file of ``--eval-lines`` seeded random
sets is answered by a fresh ``python -m audit.cli eval kitti FILE`` process (start-up
included), best of three, interleaved with every ``--peer``: a command run the same way
with ``{file}`` replaced by the file's path (or the file on its stdin), whose output is
thrown away.  The peers the issue names are other projects' programs and are not part of
this repository; pass a driver of your own for each to measure them in the same run.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import shlex
import subprocess
import tempfile
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


ROOT = Path(__file__).resolve().parent.parent


def rank_lines(n: int) -> bytes:
    """``n`` seeded random ``rank`` requests, one JSON line each."""
    rng = random.Random(18)
    deck = [r + s for r in "23456789TJQKA" for s in "SHDC"]
    return "".join(json.dumps({"op": "rank", "cards": rng.sample(deck, 3)}) + "\n" for _ in range(n)).encode()


def run_timed(argv: list[str], path: str) -> float:
    """Wall seconds of one run of ``argv`` (``{file}`` replaced, else the file on stdin)."""
    uses_file = any("{file}" in a for a in argv)
    argv = [a.replace("{file}", path) for a in argv]
    with open(path, "rb") as stdin:
        t = time.perf_counter()
        res = subprocess.run(argv, stdin=subprocess.DEVNULL if uses_file else stdin, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, cwd=ROOT)
        secs = time.perf_counter() - t
    if res.returncode != 0:
        raise SystemExit(f"{argv[0]} failed: {res.stderr.decode(errors='replace').strip()[-200:]}")
    return secs


def bench_eval(n: int, peers: list[str], rounds: int = 3) -> None:
    commands = {"tiplu": [sys.executable, "-m", "audit.cli", "eval", "kitti", "{file}"]}
    for spec in peers:
        name, _, cmd = spec.partition("=")
        commands[name] = shlex.split(cmd)
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as f:
        f.write(rank_lines(n))
        f.flush()
        best = {name: float("inf") for name in commands}
        for _ in range(rounds):                 # interleaved: every command once per round
            for name, argv in commands.items():
                best[name] = min(best[name], run_timed(argv, f.name))
    tiplu = n / best["tiplu"]
    print(f"eval kitti rank, {n:,} JSON lines, start-up included: tiplu {tiplu:,.0f} sets/s")
    for name in commands:
        if name != "tiplu":
            rate = n / best[name]
            print(f"eval kitti rank peer {name}: {rate:,.0f} sets/s (tiplu x{tiplu / rate:.2f})")
    if not peers:
        print("eval kitti rank peers: none given (--peer NAME=COMMAND)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--eval-lines", type=int, default=100_000)
    ap.add_argument("--peer", action="append", default=[], metavar="NAME=COMMAND",
                    help="a peer to time on the same rank file ({file} is its path, else it is stdin)")
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
    if args.eval_lines:
        bench_eval(args.eval_lines, args.peer)


if __name__ == "__main__":
    main()
