"""Arrangements: nine cards split into three ordered sets (K-2, K-6, K-7, D-16).

Terms:

* **hand** -- a player's nine cards (K-1).
* **split** -- a partition of the hand into three sets of three; there are
  ``9! / (3!**3 * 3!) = 280`` of them (K-7).
* **arrangement** -- a split with its sets in round order.  It is legal only when the
  sets are in non-increasing strength, strongest first (K-6, D-16), so choosing a split
  fixes the order; sets of equal strength may come in either order (K-16 makes them
  equal), and :func:`splits` writes them in a canonical one.
* **four of a kind** (K-20) and **four pairs** (K-21) are properties of a hand, found by
  :func:`four_of_a_kind` and :func:`count_pairs`.

Canonical forms: cards inside a set are written strongest rank first (Ace high), then by
suit S, H, D, C; the 280 splits come in a fixed enumeration order of the hand sorted by
card code, so any permutation of the same nine cards gives the same list.
"""
from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations
from typing import Sequence

from ..cards import JOKER_CODE, RANK_OF, SUIT_OF, Card, Rank
from ..errors import IllegalMoveError, MalformedError
from .ranking import SetRanker

Set3 = tuple[Card, Card, Card]
Sets = tuple[Set3, Set3, Set3]
#: sets of cards of any shape, as a move's JSON or text gives them (:data:`Sets` once
#: :func:`check_arrangement` has checked them)
CardSets = tuple[tuple[Card, ...], ...]

HAND_SIZE = 9


@cache
def _split_positions() -> tuple[tuple[int, ...], ...]:
    """The 280 splits of positions 0..8, each as nine positions (set 1, set 2, set 3).

    Each set is listed with its lowest position first, and the sets by their lowest
    position, so every partition appears exactly once.
    """
    out = []
    rest0 = tuple(range(9))
    for pair1 in combinations(rest0[1:], 2):
        first = (0,) + pair1
        rest1 = tuple(p for p in rest0 if p not in first)
        for pair2 in combinations(rest1[1:], 2):
            second = (rest1[0],) + pair2
            third = tuple(p for p in rest1 if p not in second)
            out.append(first + second + third)
    return tuple(out)


#: each code's display-order key (below), made once; ``card_sort_key`` reads it
_SORT_KEYS: tuple[tuple[int, int], ...] = tuple((-(14 if RANK_OF[c] == 1 else RANK_OF[c]), SUIT_OF[c])
                                               for c in range(52)) + ((0, -1), (0, -1))


def card_sort_key(card: Card) -> tuple[int, int]:
    """Display order inside a set: rank high first (Ace = 14), then suit S, H, D, C."""
    return _SORT_KEYS[card.code]


def canonical_set(cards: Sequence[Card]) -> Set3:
    """Three cards in display order (:func:`card_sort_key`)."""
    a, b, c = sorted(cards, key=card_sort_key)
    return a, b, c


def order_sets(sets: Sequence[Sequence[Card]], ranker: SetRanker) -> Sets:
    """The three sets strongest first (K-6); equal sets in canonical card order."""
    canon = [canonical_set(s) for s in sets]
    keyed = sorted(canon, key=lambda s: (-ranker.key(s[0].code, s[1].code, s[2].code),
                                         [card_sort_key(c) for c in s]))
    first, second, third = keyed
    return first, second, third


def check_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    """A hand of nine distinct standard cards, sorted by code; :class:`MalformedError` otherwise."""
    if len(cards) != HAND_SIZE:
        raise MalformedError(f"a Kitti hand has nine cards, not {len(cards)} (K-1)")
    if any(not c.is_standard for c in cards):
        raise MalformedError("Kitti is played with one 52-card deck: no jokers (D-12)")
    if len(set(cards)) != HAND_SIZE:
        raise MalformedError("a hand cannot hold the same card twice (one deck, D-12)")
    return tuple(sorted(cards))


def splits(cards: Sequence[Card], ranker: SetRanker) -> tuple[Sets, ...]:
    """The 280 arrangements of a hand, each with its sets in their forced order (K-7)."""
    hand = check_hand(cards)
    out = []
    for pos in _split_positions():
        sets = (tuple(hand[p] for p in pos[0:3]), tuple(hand[p] for p in pos[3:6]),
                tuple(hand[p] for p in pos[6:9]))
        out.append(order_sets(sets, ranker))
    return tuple(out)


@cache
def _split_triples() -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]]:
    """The 84 three-position subsets of 0..8, and each of the 280 splits as three indices into them."""
    triples = tuple(combinations(range(9), 3))
    index: dict[tuple[int, ...], int] = {t: i for i, t in enumerate(triples)}
    return triples, tuple((index[p[0:3]], index[p[3:6]], index[p[6:9]]) for p in _split_positions())


def split_keys(cards: Sequence[Card], ranker: SetRanker) -> list[tuple[tuple[int, int, int], tuple[int, ...]]]:
    """The 280 splits as (keys strongest first, the nine positions in ``sorted(cards)``).

    The fast form used by bots and the benchmark: each of the 84 possible sets of the hand
    is ranked once, and no Card objects are built.
    """
    codes = sorted(c.code for c in cards)
    table = ranker.table
    triples, split_idx = _split_triples()
    keys = [table[codes[a] * 2704 + codes[b] * 52 + codes[c]] for a, b, c in triples]
    out = []
    for (i, j, k), pos in zip(split_idx, _split_positions()):
        k1, k2, k3 = keys[i], keys[j], keys[k]
        if k1 < k2:
            k1, k2 = k2, k1
        if k2 < k3:
            k2, k3 = k3, k2
            if k1 < k2:
                k1, k2 = k2, k1
        out.append(((k1, k2, k3), pos))
    return out


def check_arrangement(sets: Sequence[Sequence[Card]], ranker: SetRanker, *,
                      hand: Sequence[Card] | None = None) -> Sets:
    """Check an arrangement; return its sets.  :class:`IllegalMoveError` naming the rule.

    * not three sets of three cards, a card used twice, a card not in ``hand`` (when
      given), a joker -> K-2 (the nine cards are split into three sets of three);
    * sets not strongest first -> K-6 (D-16).
    """
    fast = _legal_fast(sets, ranker, hand)
    return fast if fast is not None else checked_arrangement(sets, ranker, hand=hand)


def checked_arrangement(sets: Sequence[Sequence[Card]], ranker: SetRanker, *,
                        hand: Sequence[Card] | None = None) -> Sets:
    """:func:`check_arrangement` one rule at a time, for any sequences and card values: the
    checks that name what is wrong (and the reference the fast path is tested against)."""
    if not isinstance(sets, (list, tuple)) or len(sets) != 3:
        raise IllegalMoveError("an arrangement is exactly three sets", rule="K-2")
    for i, s in enumerate(sets):
        if not isinstance(s, (list, tuple)) or len(s) != 3:
            raise IllegalMoveError(f"set {i + 1} must hold exactly three cards", rule="K-2")
    flat = [c for s in sets for c in s]
    if any(not isinstance(c, Card) or not c.is_standard for c in flat):
        raise IllegalMoveError("only the 52 standard cards are in play (D-12)", rule="K-2")
    exact = all(type(c) is Card for c in flat) and (hand is None or all(type(c) is Card for c in hand))
    # exact Cards are equal when their codes are: compare the codes (no dataclass hash per card)
    seen: set[int | Card] = set()
    for c in flat:
        k = c.code if exact else c
        if k in seen:
            raise IllegalMoveError(f"card {c} is used twice", rule="K-2")
        seen.add(k)
    if hand is not None:
        held = {c.code for c in hand} if exact else set(hand)
        for c in flat:
            if (c.code if exact else c) not in held:
                raise IllegalMoveError(f"card {c} is not in the player's hand", rule="K-2")
    keys = [ranker.key(s[0].code, s[1].code, s[2].code) for s in sets]
    if not keys[0] >= keys[1] >= keys[2]:
        raise IllegalMoveError("sets must be placed strongest first", rule="K-6")
    return _as_sets(sets)


_SEQ = (list, tuple)


def _legal_fast(sets: Sequence[Sequence[Card]], ranker: SetRanker, hand: Sequence[Card] | None) -> Sets | None:
    """The sets of a legal arrangement of exact :class:`Card` values in lists or tuples, by
    their codes; ``None`` when that is not what ``sets`` is -- or it breaks a rule, which the
    checks of :func:`check_arrangement` then name."""
    if type(sets) not in _SEQ or len(sets) != 3:
        return None
    s1, s2, s3 = sets
    if type(s1) not in _SEQ or type(s2) not in _SEQ or type(s3) not in _SEQ or not len(s1) == len(s2) == len(s3) == 3:
        return None
    flat = (*s1, *s2, *s3)
    if set(map(type, flat)) != _CARD_ONLY:
        return None
    codes = [c.code for c in flat]
    distinct = set(codes)
    if len(distinct) != 9 or max(codes) >= JOKER_CODE:
        return None
    if hand is not None:
        if set(map(type, hand)) != _CARD_ONLY or not distinct <= {c.code for c in hand}:
            return None
    a, b, c, d, e, f, g, h, i = codes
    table = ranker.table
    if not table[a * 2704 + b * 52 + c] >= table[d * 2704 + e * 52 + f] >= table[g * 2704 + h * 52 + i]:
        return None
    return _as_sets(sets)


def _as_sets(sets: Sequence[Sequence[Card]]) -> Sets:
    """Three sequences of three cards (their lengths checked by the caller) as :data:`Sets`."""
    (a, b, c), (d, e, f), (g, h, i) = sets
    return (a, b, c), (d, e, f), (g, h, i)


_CARD_ONLY = {Card}


def four_of_a_kind(cards: Sequence[Card]) -> int | None:
    """The highest rank held four times (Ace = 14, so four aces are highest), or None (K-20)."""
    ranks = [RANK_OF[c.code] for c in cards]
    if len(set(ranks)) > len(ranks) - 3:  # four of one rank leave at most len - 3 distinct values
        return None
    counts = [0] * 14
    for c in cards:
        code = c.code
        if code < JOKER_CODE:  # c.is_standard
            counts[code % 13 + 1] += 1
    quads = [14 if r == Rank.A else r for r in range(1, 14) if counts[r] == 4]
    return max(quads) if quads else None


def count_pairs(cards: Sequence[Card]) -> int:
    """How many pairs a hand holds (K-21): ``sum(n // 2)`` over its ranks.

    A trail counts as one pair plus an odd card; four of a kind would count as two, but
    K-20 settles such a deal first (D-17).
    """
    counts = Counter(c.code % 13 for c in cards)
    return sum(n // 2 for n in counts.values())
