"""The default arrangement (used for timeouts) and the scores bots pick arrangements by.

**Share** of a set: out of the 22,100 sets of a 52-card pack, twice the number it beats
plus the number it ties (an integer, so no floats enter an audited rule).  The **score**
of an arrangement is the sum of its three sets' shares: a plain estimate of how many
rounds it wins against random sets.

**Default arrangement** of a hand (what a seat that times out plays, recorded as an
``Arrange`` with ``auto: true``): the split with the highest score; among equal scores,
the one whose keys (strongest set first) are greatest; among those, the first in the
order of :func:`~replay.kitti.arrangement.splits`.  It is a pure function of the nine
cards and the ruleset, so an auditor recomputes it.
"""
from __future__ import annotations

from functools import cache
from itertools import combinations
from operator import add, attrgetter
from typing import Sequence

from ..cards import Card
from .arrangement import Sets, _split_positions, _split_triples, order_sets, split_keys
from .ranking import SetRanker

N_SETS = 22100
_code = attrgetter("code")


@cache
def share_table(ranker: SetRanker) -> dict[int, int]:
    """Key -> share (2 x sets beaten + sets tied) over every set of the pack."""
    counts: dict[int, int] = {}
    table = ranker.table
    for a, b, c in combinations(range(52), 3):
        k = table[a * 2704 + b * 52 + c]
        counts[k] = counts.get(k, 0) + 1
    shares, below = {}, 0
    for k in sorted(counts):
        shares[k] = 2 * below + counts[k]
        below += counts[k]
    return shares


def scored_splits(cards: Sequence[Card], ranker: SetRanker) -> list[tuple[int, tuple[int, int, int], tuple[int, ...]]]:
    """Every split as ``(score, keys strongest first, positions in sorted(cards))``."""
    shares = share_table(ranker)
    return [(shares[k[0]] + shares[k[1]] + shares[k[2]], k, pos) for k, pos in split_keys(cards, ranker)]


def sets_of(cards: Sequence[Card], pos: Sequence[int], ranker: SetRanker) -> Sets:
    """The arrangement of a split given by positions in ``sorted(cards)``."""
    hand = sorted(cards, key=_code)   # Card order is code order
    return order_sets([[hand[p] for p in pos[0:3]], [hand[p] for p in pos[3:6]],
                       [hand[p] for p in pos[6:9]]], ranker)


def default_arrangement(cards: Sequence[Card], ranker: SetRanker) -> Sets:
    """The timeout arrangement (see the module docstring)."""
    return sets_of(cards, _split_positions()[_default_split(cards, ranker)[1]], ranker)


def default_keys(cards: Sequence[Card], ranker: SetRanker) -> tuple[int, int, int]:
    """The rank keys of the default arrangement's sets, strongest first (without its cards)."""
    return _default_split(cards, ranker)[0]


def _default_split(cards: Sequence[Card], ranker: SetRanker) -> tuple[tuple[int, int, int], int]:
    """The default split's keys (strongest first) and its index in split order.

    :func:`scored_splits`' choice without its 280 tuples: each of the hand's 84 sets is
    ranked and scored once, every split's score summed in C (``map``), and only the splits
    of the best score have their keys put in order."""
    shares = share_table(ranker)
    codes = sorted(c.code for c in cards)
    table = ranker.table
    triples, _ = _split_triples()
    keys = [table[codes[a] * 2704 + codes[b] * 52 + codes[c]] for a, b, c in triples]
    score_of = [shares[k] for k in keys]
    first, second, third = _split_columns()
    get = score_of.__getitem__
    scores = list(map(add, map(add, map(get, first), map(get, second)), map(get, third)))
    top = max(scores)
    best: tuple[int, int, int] | None = None
    best_at = 0
    for at in [at for at, score in enumerate(scores) if score == top]:   # in split order
        high, middle, low = sorted((keys[first[at]], keys[second[at]], keys[third[at]]), reverse=True)
        ordered = (high, middle, low)
        if best is None or ordered > best:
            best, best_at = ordered, at
    assert best is not None
    return best, best_at


@cache
def _split_columns() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The 280 splits' first, second and third sets, as indices into the 84 sets of a hand."""
    triples = _split_triples()[1]
    return tuple(t[0] for t in triples), tuple(t[1] for t in triples), tuple(t[2] for t in triples)
