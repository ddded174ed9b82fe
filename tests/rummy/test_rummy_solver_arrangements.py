"""The solver's arrangement -- not only its points -- is part of every audited outcome (the
breakdown's groups and counted cards, byte for byte in the behaviour snapshot).  Where two
arrangements tie, the one it reports must not change when the search gets faster: on a
fixed, seeded set of hands (two and three decks, 13 and 14 cards, runs kept as a bot keeps
them, wild ranks and printed jokers only, two point scales) every solution is the one the
solver gave before the speed work of issue 18 (the digest below, recorded from main at
2409bfa)."""
from __future__ import annotations

import hashlib
import random

from replay.cards import JOKER, STANDARD
from replay.rummy.solver import clear_caches, solve

DIGEST = "2b5541f002cc43bed5e6fe9adfba4b287a71aa3f1ece974a38abfe90c6d5cd73"


def hands(n: int = 1500):
    rng = random.Random(18)
    for i in range(n):
        decks = 3 if i % 5 == 0 else 2
        shoe = list(STANDARD) * decks + [JOKER] * decks
        size = 13 if i % 3 else 14
        if i % 7 == 0:
            s, lo = rng.randrange(4), rng.randrange(1, 9)
            run = [STANDARD[13 * s + (lo + k) % 13] for k in range(rng.randrange(3, 7))]
            hand = run + rng.sample(shoe, size - len(run))
        else:
            hand = rng.sample(shoe, size)
        wild = None if i % 11 == 0 else rng.randrange(1, 14)
        yield hand, wild, 10 if i % 13 else 8


def arrangements():
    out = []
    for hand, wild, high in hands():
        sol = solve(hand, wild, high=high)
        out.append(f"{sol.points} {sol.case} {[[str(c) for c in g] for g in sol.groups]} "
                   f"{[str(c) for c in sol.loose]}")
    return out


def test_every_arrangement_is_the_one_reported_before():
    clear_caches()
    cold = arrangements()
    assert hashlib.sha256("\n".join(cold).encode()).hexdigest() == DIGEST
    assert arrangements() == cold  # and again from the memoised frontiers
