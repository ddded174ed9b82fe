"""Ranking a three-card set (K-9 ... K-16, D-16, K-22).

Terms (the rule file's words):

* **set** -- three cards a player places for one round.
* **class** -- trail (three of a rank, K-9) > pure sequence (three in order, one suit,
  K-10) > sequence (three in order, K-11) > colour (one suit, not in order, K-12) > pair
  (K-13) > high card (K-14).  Any set of a higher class beats any set of a lower class.
* **strength** -- a list ``[class_value, k1, k2, k3]`` of small ints; comparing two
  strength lists as Python lists orders the two sets exactly as the rules do, and equal
  lists are a tie (suits never enter it, K-16).  The same four numbers packed as one
  int (:func:`pack`: ``class << 12 | k1 << 8 | k2 << 4 | k3``) is the **key** the hot
  paths compare.

The numbers (Ace counts 14 everywhere except inside a sequence's index):

==============  ===========  =================================================
class           class_value  k1, k2, k3
==============  ===========  =================================================
high card       1            the three ranks, highest first (D-16)
pair            2            the pair's rank twice, then the odd card (D-16)
colour          3            the three ranks, highest first
sequence        4            the sequence's index (below), 0, 0
pure sequence   5            the sequence's index, 0, 0
trail           6            the rank three times (A-A-A = 14 strongest, K-9)
2-3-5 (K-22)    7            0, 0, 0 -- only when ``two_three_five`` is on; its class
                             name stays ``high_card``
==============  ===========  =================================================

Sequence index (K-15, setting ``sequence_order``): 4-3-2 is 1, 5-4-3 is 2 ... K-Q-J is
10; under ``akq-high`` A-2-3 is 11 and A-K-Q is 12; under ``a23-high`` A-K-Q is 11 and
A-2-3 is 12.  K-A-2 (a wrap through the Ace) is never a sequence.

Speed: :class:`SetRanker` precomputes the key of every ordered triple of card codes in a
flat list (``52**3`` entries), so ranking a set is one index computation and one list
lookup.  The list is put together from rows of 13 keys (the third card's ranks, for the
first two cards' ranks, with and without a flush), about 10,000 list extensions instead of
a classification per triple: a few milliseconds at start-up.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from itertools import permutations
from typing import Sequence

from ..cards import RANK_OF, SUIT_OF, Card
from ..errors import MalformedError
from ..rulesets import Ruleset

SEQUENCE_ORDERS = ("akq-high", "a23-high")


class SetClass(IntEnum):
    """The six classes of a three-card set, weakest first (K-9 ... K-14)."""

    HIGH_CARD = 1
    PAIR = 2
    COLOUR = 3
    SEQUENCE = 4
    PURE_SEQUENCE = 5
    TRAIL = 6

    @property
    def label(self) -> str:
        """The JSON name: ``trail``, ``pure_sequence``, ``sequence``, ``colour``, ``pair``, ``high_card``."""
        return self.name.lower()


_LABELS = {c: c.label for c in SetClass}

SPECIAL_235 = 7  # class_value of an enabled 2-3-5 (K-22); its class stays HIGH_CARD


def pack(strength: Sequence[int]) -> int:
    """The strength list as one comparable int."""
    c, a, b, d = strength
    return c << 12 | a << 8 | b << 4 | d


def unpack(key: int) -> tuple[int, int, int, int]:
    """The four numbers of a packed key's strength."""
    return key >> 12, key >> 8 & 15, key >> 4 & 15, key & 15


def classify(ranks: Sequence[int], flush: bool, *,
             sequence_order: str = "akq-high") -> tuple[SetClass, list[int]]:
    """Class and strength list of a set given its ranks (1..13, Ace = 1) and a flush flag.

    ``flush`` means all three cards share a suit.  The 2-3-5 of K-22 depends on the suits
    being all different, which a rank list cannot say: :meth:`SetRanker._build` applies it.
    """
    a, b, c = sorted((14 if r == 1 else r for r in ranks), reverse=True)
    hi = (a, b, c)
    if a == b == c:
        return SetClass.TRAIL, [SetClass.TRAIL, a, a, a]
    if a == b or b == c:
        pair, odd = (a, c) if a == b else (b, a)
        return SetClass.PAIR, [SetClass.PAIR, pair, pair, odd]
    seq = _seq_index(hi, sequence_order)
    if seq is not None:
        cls = SetClass.PURE_SEQUENCE if flush else SetClass.SEQUENCE
        return cls, [cls, seq, 0, 0]
    if flush:
        return SetClass.COLOUR, [SetClass.COLOUR, a, b, c]
    return SetClass.HIGH_CARD, [SetClass.HIGH_CARD, a, b, c]


def _seq_index(hi: tuple[int, int, int], order: str) -> int | None:
    """Sequence index per the module table: 4-3-2 = 1 ... K-Q-J = 10, then A-2-3 / A-K-Q."""
    a, b, c = hi
    if (a, b, c) == (14, 3, 2):
        return 12 if order == "a23-high" else 11
    if a - b == 1 and b - c == 1:
        if a == 14:
            return 11 if order == "a23-high" else 12
        return a - 3  # 4-3-2 (a = 4) -> 1 ... K-Q-J (a = 13) -> 10
    return None


@dataclass(frozen=True, slots=True)
class SetRank:
    """The rank of one set: its class and its strength list (see the module docstring)."""

    cls: SetClass
    strength: tuple[int, int, int, int]
    special: str | None = None  # "2-3-5" when K-22 applies

    @property
    def key(self) -> int:
        return pack(self.strength)

    def to_json(self) -> dict[str, str | list[int]]:
        out: dict[str, str | list[int]] = {"class": _LABELS[self.cls], "strength": list(self.strength)}
        if self.special:
            out["special"] = self.special
        return out


def _ascending(a: int, b: int, c: int) -> tuple[int, int, int]:
    """Three ranks, lowest first."""
    x, y, z = sorted((a, b, c))
    return x, y, z


class SetRanker:
    """Ranks sets under one ``sequence_order`` and ``two_three_five`` setting.

    ``key(a, b, c)`` takes three card codes (0..51) and returns the packed strength; it
    allocates nothing.  Build one with :func:`ranker_for` (cached per setting pair).
    """

    __slots__ = ("sequence_order", "two_three_five", "table", "_classes", "_ranks")

    def __init__(self, sequence_order: str = "akq-high", two_three_five: bool = False) -> None:
        if sequence_order not in SEQUENCE_ORDERS:
            raise MalformedError(f"sequence_order must be one of {SEQUENCE_ORDERS}, got {sequence_order!r}")
        self.sequence_order = sequence_order
        self.two_three_five = bool(two_three_five)
        self._classes: dict[int, SetClass] = {}
        self.table: list[int] = self._build()
        self._ranks: dict[int, SetRank] = {}     # packed key -> its (frozen) SetRank, made once

    def _build(self) -> list[int]:
        # The key of every sorted rank triple (0..12) with a flush flag: 455 + 286 classifications.
        by_ranks: dict[tuple[int, int, int, bool], int] = {}
        for r1 in range(13):
            for r2 in range(r1, 13):
                for r3 in range(r2, 13):
                    for flush in (False, True):
                        if flush and (r1 == r2 or r2 == r3):
                            continue
                        cls, strength = classify((r1 + 1, r2 + 1, r3 + 1), flush,
                                                 sequence_order=self.sequence_order)
                        key = pack(strength)
                        self._classes[key] = cls
                        by_ranks[(r1, r2, r3, flush)] = key
        special = pack([SPECIAL_235, 0, 0, 0])
        self._classes[special] = SetClass.HIGH_CARD
        # Rows: for the first two cards' ranks (ra, rb), the keys over the third card's 13 ranks,
        # without and with a flush (0 where a flush would repeat a rank: the same card twice).
        plain, flushed = [], []
        for ra in range(13):
            for rb in range(13):
                plain.append([by_ranks[(*_ascending(ra, rb, rc), False)] for rc in range(13)])
                flushed.append([by_ranks.get((*_ascending(ra, rb, rc), True), 0) for rc in range(13)])
        # The flat table, a row of 52 third cards (four suits of 13) per ordered pair of codes
        # (a, b): the flush row in the suit of a and b when they share it, else the plain one.
        table: list[int] = []
        extend = table.extend
        nothing = [0] * 52
        for a in range(52):
            ra, sa = RANK_OF[a] - 1, SUIT_OF[a]
            for b in range(52):
                if a == b:
                    extend(nothing)
                    continue
                rb, sb = RANK_OF[b] - 1, SUIT_OF[b]
                row = plain[ra * 13 + rb]
                if sa != sb:
                    extend(row)
                    extend(row)
                    extend(row)
                    extend(row)
                else:
                    for sc in range(4):
                        extend(flushed[ra * 13 + rb] if sc == sa else row)
                base = a * 2704 + b * 52
                table[base + a] = 0  # a triple that repeats a card has no key
                table[base + b] = 0
        if self.two_three_five:  # K-22: 2-3-5 in three different suits
            for ranks in permutations((1, 2, 4)):
                for suits in permutations(range(4), 3):
                    a, b, c = (13 * s + r for r, s in zip(ranks, suits))
                    table[a * 2704 + b * 52 + c] = special
        return table

    def key(self, a: int, b: int, c: int) -> int:
        """The packed strength of the set of card codes ``a, b, c`` (distinct, 0..51)."""
        return self.table[a * 2704 + b * 52 + c]

    def key_of(self, cards: Sequence[Card]) -> int:
        """The packed strength of three :class:`Card` values (checked)."""
        a, b, c = check_set(cards)
        return self.table[a * 2704 + b * 52 + c]

    def rank(self, cards: Sequence[Card]) -> SetRank:
        """Class and strength of a set of three distinct standard cards."""
        a, b, c = check_set(cards)
        return self.rank_of_key(self.table[a * 2704 + b * 52 + c])

    def label_of_key(self, key: int) -> str:
        """The class name (:attr:`SetClass.label`) of a key of this ranker's table."""
        return _LABELS[self._classes[key]]

    def rank_of_key(self, key: int) -> SetRank:
        """The :class:`SetRank` of a key of this ranker's table (made once per key: frozen)."""
        made = self._ranks.get(key)
        if made is None:
            strength = unpack(key)
            special = "2-3-5" if strength[0] == SPECIAL_235 else None
            made = self._ranks[key] = SetRank(self._classes[key], strength, special)
        return made


def check_set(cards: Sequence[Card]) -> tuple[int, int, int]:
    """The codes of a set; :class:`MalformedError` unless three distinct standard cards."""
    if len(cards) != 3:
        raise MalformedError(f"a set has three cards, not {len(cards)}")
    a, b, c = cards[0].code, cards[1].code, cards[2].code
    if a >= 52 or b >= 52 or c >= 52:
        raise MalformedError("Kitti is played with one 52-card deck: no jokers (D-12)")
    if a == b or b == c or a == c:
        raise MalformedError("a set cannot hold the same card twice (one deck, D-12)")
    return a, b, c


@cache
def ranker(sequence_order: str = "akq-high", two_three_five: bool = False) -> SetRanker:
    """The shared :class:`SetRanker` of one setting pair."""
    return SetRanker(sequence_order, two_three_five)


def ranker_for(ruleset: Ruleset) -> SetRanker:
    """The ranker of a resolved Kitti ruleset."""
    return ranker(ruleset["sequence_order"], bool(ruleset["two_three_five"]))
