#!/usr/bin/env python3
"""Decks per second of the v1 shuffle, against the bare cost of its HMAC blocks.

For each shoe size this shuffles many decks through :meth:`replay.stream.Stream.shuffle`
(each deck from its own hand id, so nothing is cached), counts the HMAC-SHA256 blocks the
streams consumed, then times ``hmac.digest`` over the same number of blocks with the
same key and message sizes.  The ratio (shuffle time / bare HMAC time) is what Python's
Fisher-Yates and rejection sampling add on top of the cryptography; aim: within 3x.  (The
stream computes its blocks from SHA-256 states made once per stream, cheaper than these
one-shot calls, so the ratio can be below 1.)

    python bench/shuffle.py [--seconds 0.5]
"""
from __future__ import annotations

import argparse
import hashlib
import hmac
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from replay.cards import JOKER, MASTER, STANDARD  # noqa: E402
from replay.stream import STREAM_TAG, Stream, enc, key_material  # noqa: E402

SHOES = {
    52: STANDARD,                              # kitti (D-12)
    106: STANDARD * 2 + (JOKER,) * 2,          # rummy13, 2-6 seats (D-18)
    156: STANDARD * 3,                         # marriage/classic (MC-1)
    159: STANDARD * 3 + (JOKER,) * 3,          # rummy13, 7-8 seats (D-18)
    160: STANDARD * 3 + (JOKER,) * 3 + (MASTER,),  # marriage/nepal (MN-1)
}


def bench_size(shoe, seconds: float) -> tuple[float, float, float]:
    server = hashlib.sha256(b"bench server").digest()
    ruleset_hash = hashlib.sha256(b"bench ruleset").digest()
    seeds = [hashlib.sha256(b"seat %d" % i).digest()[:16] for i in range(4)]
    # Build the streams first: the key material is per hand, not per shuffle.
    streams = [Stream(server, key_material(f"bench-{i}", ruleset_hash, seeds), "deal") for i in range(4000)]
    decks, blocks, t0 = 0, 0, time.perf_counter()
    while True:
        for s in streams[:200]:
            s.shuffle(shoe)
            blocks += s.blocks_used
        decks += 200
        streams = streams[200:] or [Stream(server, key_material(f"bench-{decks + i}", ruleset_hash, seeds), "deal")
                                    for i in range(4000)]
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            break
    shuffle_time = elapsed
    msg_prefix = enc(STREAM_TAG) + bytes(32) + enc(b"deal")
    digest = hmac.digest
    t0 = time.perf_counter()
    for i in range(blocks):
        digest(server, msg_prefix + i.to_bytes(8, "big"), "sha256")
    hmac_time = time.perf_counter() - t0
    return decks / shuffle_time, blocks / decks, shuffle_time / hmac_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="time per shoe size (default 0.5)")
    args = parser.parse_args()
    print(f"{'shoe':>5}  {'decks/s':>9}  {'blocks/deck':>11}  {'x bare HMAC':>11}")
    for size, shoe in SHOES.items():
        rate, blocks, ratio = bench_size(shoe, args.seconds)
        print(f"{size:>5}  {rate:>9.0f}  {blocks:>11.2f}  {ratio:>10.2f}x")


if __name__ == "__main__":
    main()
