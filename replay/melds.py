"""Melds shared by the games: sequences of one suit and sets of one rank.

Glossary. Each game's rule file has its own words for the same shapes; this module uses
the left-hand words, and each game keeps its own words in what it shows and reports.

=================  ======================  ======================  ======================
here               Marriage ``nepal``      Marriage ``classic``    Rummy
=================  ======================  ======================  ======================
sequence           sequence (MN-8)         sequence (MC-5)         sequence, run (R-9)
pure sequence      pure sequence (MN-8)    pure sequence (MC-5)    pure sequence (D-21)
impure sequence    dirty sequence (MN-10)  dirty sequence (MC-6)   impure sequence (D-21)
set                trial (MN-11)           triplet (MC-7)          set (R-11, D-21)
impure set         --                      dirty triplet (MC-8)    set with a joker (D-21)
=================  ======================  ======================  ======================

* **rank** -- an ``int`` 1 (Ace) .. 13 (King), as :class:`replay.cards.Rank`.
* **position** -- the place of a rank in a sequence: 1 (Ace low), 2 .. 13 and 14 (Ace
  high).  The Ace sits low or high, never both and never in the middle: A-2-3 and Q-K-A
  are sequences, K-A-2 is not (MN-12, MC-9, R-10).  So a sequence holds at most 13 cards.
* **sequence** -- cards of one suit at consecutive positions.  **Pure**: every card is
  itself (a natural); **impure**: a joker stands in for at least one of them.
* **set** -- cards of one rank, each of a different suit (Marriage: exactly three,
  MN-11, MC-7; Rummy: three or four, D-21).
* **natural** -- a card standing as itself; which cards are jokers is each game's own
  rule (:mod:`replay.marriage.jokers`, :func:`replay.rummy.groups.is_joker`).
* **wraps** -- ranks that lie on consecutive ranks only by going round the corner
  K-A-2: never a sequence, and the reason a game names when it refuses one.

Three identical cards (the Marriage *tunnela*, MN-7, MC-4) are neither a sequence nor a
set; Rummy never allows the same card twice in one group (R-11), and this module never
counts two equal ranks in one sequence.  Card codes are read through
:mod:`replay.cards` only.
"""
from __future__ import annotations

from itertools import combinations
from typing import Collection, Sequence

from .cards import RANK_OF, RANKS, SUIT_OF, SUITS, Card, card_of

__all__ = [
    "ACE_HIGH", "MAX_RUN", "fits_run", "is_run", "wraps", "can_complete_run", "RUNS_OF_THREE",
    "is_pure_sequence", "can_fill_sequence", "is_set",
]

ACE_HIGH = 14   # the position of an Ace above the King
MAX_RUN = 13    # the longest sequence: A .. K or 2 .. A


def fits_run(ranks: Collection[int], length: int) -> bool:
    """Whether ``ranks``, all different, lie within ``length`` consecutive positions,
    the Ace low or high but never both (MN-12, MC-9, R-10): the ranks a sequence of
    ``length`` cards can hold, jokers standing for the positions not held."""
    if length > MAX_RUN or len(set(ranks)) != len(ranks):
        return False
    if not ranks:
        return True
    lo, hi = min(ranks), max(ranks)
    if hi - lo < length:
        return True
    if lo != 1:
        return False
    return ACE_HIGH - min(r for r in ranks if r != 1) < length  # the Ace moved high


#: the rank windows of a sequence of three, lowest first: A-2-3 .. J-Q-K, then Q-K-A
RUNS_OF_THREE: tuple[tuple[int, int, int], ...] = (
    tuple((r, r + 1, r + 2) for r in range(1, 12)) + ((12, 13, 1),))
_RUN_RANKS_OF_THREE = frozenset(frozenset(w) for w in RUNS_OF_THREE)


def is_run(ranks: Collection[int]) -> bool:
    """Whether ``ranks`` are the ranks of a sequence: three or more, all different and
    consecutive, the Ace low or high, never K-A-2 (MN-8, MN-12, MC-9, R-10)."""
    if len(ranks) == 3:  # the common case, looked up
        return frozenset(ranks) in _RUN_RANKS_OF_THREE
    return len(ranks) > 3 and fits_run(ranks, len(ranks))


def wraps(ranks: Collection[int], length: int) -> bool:
    """Whether the ranks lie on ``length`` consecutive ranks only by going round the
    corner K-A-2 (counting each rank once): never a sequence (MN-12, MC-9, R-10)."""
    held = set(ranks)
    if fits_run(held, length) or length > MAX_RUN:
        return False
    return any(held <= {(start + i - 1) % 13 + 1 for i in range(length)} for start in range(1, 14))


_COMPLETES = frozenset(
    (r1, r2) for r1 in range(1, 14) for r2 in range(1, 14) if fits_run((r1, r2), 3))


def can_complete_run(r1: int, r2: int) -> bool:
    """Whether one more card (a joker standing in) makes ranks ``r1``, ``r2`` a sequence
    of three (MN-10, MC-6)."""
    return (r1, r2) in _COMPLETES


# The commonest questions -- three cards, or two and a joker -- answered by look-up: the
# sets of card codes that are the answer (a card held twice makes a smaller set, never
# one of these).  tests/test_melds.py checks them against the general functions below.
def _codes(*cards: Card) -> frozenset[int]:
    return frozenset(c.code for c in cards)


_PURE_SEQUENCES_OF_THREE = frozenset(
    _codes(*(card_of(r, s) for r in window)) for s in SUITS for window in RUNS_OF_THREE)
_SETS_OF_THREE = frozenset(
    _codes(*(card_of(r, s) for s in suits)) for r in RANKS for suits in combinations(SUITS, 3))
_SETS_OF_TWO = frozenset(
    _codes(*(card_of(r, s) for s in suits)) for r in RANKS for suits in combinations(SUITS, 2))
_SEQUENCES_OF_THREE_LESS_ONE = frozenset(
    _codes(card_of(r1, s), card_of(r2, s)) for s in SUITS for r1, r2 in combinations(RANKS, 2)
    if fits_run((r1, r2), 3))


def is_pure_sequence(cards: Sequence[Card]) -> bool:
    """Standard cards, each as itself, of one suit at consecutive positions (MN-8, MC-5,
    D-21)."""
    codes = [c.code for c in cards]
    if len(codes) == 3:
        return frozenset(codes) in _PURE_SEQUENCES_OF_THREE
    if not codes or max(codes) >= 52 or len({SUIT_OF[x] for x in codes}) != 1:
        return False
    return is_run([RANK_OF[x] for x in codes])


def can_fill_sequence(naturals: Sequence[Card], length: int) -> bool:
    """Whether standard cards ``naturals``, of one suit and all different, with jokers
    standing in for the rest, make a sequence of ``length`` cards (MN-10, MC-6, D-21).
    No naturals at all: jokers alone stand for any consecutive cards."""
    codes = [c.code for c in naturals]
    if len(codes) == 2 and length == 3:
        return frozenset(codes) in _SEQUENCES_OF_THREE_LESS_ONE
    if not codes:
        return length <= MAX_RUN
    if max(codes) >= 52 or len({SUIT_OF[x] for x in codes}) != 1:
        return False
    return fits_run([RANK_OF[x] for x in codes], length)


def is_set(cards: Sequence[Card]) -> bool:
    """Standard cards of one rank, each of a different suit (MN-11, MC-7, R-11, D-21);
    how many a set holds is each game's rule."""
    codes = [c.code for c in cards]
    if len(codes) == 3:
        return frozenset(codes) in _SETS_OF_THREE
    if len(codes) == 2:
        return frozenset(codes) in _SETS_OF_TWO
    if not codes or max(codes) >= 52 or len({RANK_OF[x] for x in codes}) != 1:
        return False
    return len({SUIT_OF[x] for x in codes}) == len(codes)
