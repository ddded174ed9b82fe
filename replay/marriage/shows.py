"""Finding the sets a hand could show: pure three-card sets and dublees.

Used by the engine to list show moves and by the bot; the *checks* of a show are in
:mod:`replay.marriage.combos` (the engine always validates with those).

* **pure set** -- a tunnela (three identical cards, MN-7 / MC-4) or a pure sequence of
  three (one suit, consecutive ranks; the Ace low A-2-3 or high Q-K-A, never K-A-2,
  MN-12 / MC-9).  A maal card is also its own rank and suit (MN-13), so no tiplu is
  needed to find these.  The master card (MN-10, setting ``master_in_pure``) is not
  used by this finder: a table that allows it still accepts such a show when a player
  lays it, but the engine does not list it.
* **dublee** -- two identical standard cards (MN-9, MC-18).
"""
from __future__ import annotations

from collections import Counter
from typing import Iterator, Sequence

from ..cards import Card, card_of
from ..melds import RUNS_OF_THREE

Group = tuple[Card, ...]


def pure_candidates(counts: Counter[Card]) -> list[Group]:
    """Every distinct pure three-card set whose cards ``counts`` holds (tunnelas first)."""
    out: list[Group] = [(c, c, c) for c in sorted(counts, key=lambda c: c.code) if counts[c] >= 3]
    for suit in range(4):
        for window in RUNS_OF_THREE:
            cards = tuple(card_of(r, suit) for r in window)
            if all(counts[c] >= 1 for c in cards):
                out.append(cards)
    return out


def iter_pure_sets(hand: Sequence[Card], n: int) -> Iterator[tuple[Group, ...]]:
    """Every way (up to order) to take ``n`` disjoint pure sets from ``hand``."""
    counts = Counter(hand)
    cands = pure_candidates(counts)

    def rec(start: int, need: int, chosen: list[Group]) -> Iterator[tuple[Group, ...]]:
        if need == 0:
            yield tuple(chosen)
            return
        for i in range(start, len(cands)):
            group = cands[i]
            if all(counts[c] >= group.count(c) for c in group):
                for c in group:
                    counts[c] -= 1
                chosen.append(group)
                # The same candidate may be taken again (two identical runs from three decks).
                yield from rec(i, need - 1, chosen)
                chosen.pop()
                for c in group:
                    counts[c] += 1

    yield from rec(0, n, [])


def find_pure_sets(hand: Sequence[Card], n: int, *, limit: int = 3) -> list[tuple[Group, ...]]:
    """Up to ``limit`` ways to show ``n`` pure sets from ``hand`` (``[()]`` when n is 0)."""
    out = []
    for choice in iter_pure_sets(hand, n):
        out.append(choice)
        if len(out) >= limit:
            break
    return out


def find_dublees(hand: Sequence[Card], n: int = 7) -> tuple[Group, ...] | None:
    """``n`` dublees (pairs of identical standard cards) from ``hand``, or ``None``.

    Takes the pairs of the lowest card codes first; a card held three times gives one pair.
    """
    counts = Counter(c for c in hand if c.is_standard)
    pairs: list[Group] = []
    for card in sorted(counts, key=lambda c: c.code):
        for _ in range(counts[card] // 2):
            pairs.append((card, card))
    return tuple(pairs[:n]) if len(pairs) >= n else None

