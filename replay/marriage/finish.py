"""Finishing a round (D-7, MC-20, MC-21).

Two ways, the same in both presets (D-7):

* a player who showed three sets, after drawing, holds four more valid three-card
  combinations (:func:`replay.marriage.combos.check_finish_set`) and one card to discard:
  13 cards = 4 x 3 + 1 (MC-20);
* a player who showed seven dublees, after drawing, holds an eighth dublee: their
  21 - 14 + 1 = 8 cards are one pair of identical cards, five loose cards (any cards at
  all) and the discard (MC-21). Jokers are never wild in dublees (MC-18).

More generally a hand of ``3k + 1`` cards finishes with ``k`` combinations (the table's
``hand_size`` decides ``k``; 4 by default).

When several finishes exist, :func:`find_finish` takes the one whose discard keeps the
most maal for the holder (hand plus ``table``, counted as a player who has seen), then
the lowest card code as discard, so the answer never depends on the order of the hand.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..cards import ALL_CARDS, Card
from ..errors import IllegalMoveError
from ..rulesets import Ruleset
from .combos import check_finish_set, classify
from .jokers import is_nepal
from .maal import count_maal

__all__ = ["Finish", "find_finish", "check_finish", "finish_groups"]


@dataclass(frozen=True, slots=True)
class Finish:
    """A finish: the combinations laid (or the eighth dublee), the loose cards, the discard."""

    groups: tuple[tuple[Card, ...], ...]
    discard: Card
    loose: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"groups": [[str(c) for c in g] for g in self.groups],
                "loose": [str(c) for c in self.loose], "discard": str(self.discard)}


def _dublee_rule(ruleset: Ruleset) -> str:
    return "MC-21" if not is_nepal(ruleset) else "D-7"


_COMBO_MEMO: dict[tuple[int | None, str], dict[int, bool]] = {}


def _combination_memo(tiplu: Card | None, ruleset: Ruleset) -> dict[int, bool]:
    """Per tiplu and ruleset: sorted card-code triple -> is it a valid combination."""
    key = (None if tiplu is None else tiplu.code, ruleset.hash)
    memo = _COMBO_MEMO.get(key)
    if memo is None:
        if len(_COMBO_MEMO) >= 64:
            _COMBO_MEMO.clear()
        memo = _COMBO_MEMO[key] = {}
    return memo


class _Cover:
    """Exact covers of a sorted hand by valid three-card combinations.

    Positions of the hand are bits of a mask; ``solve(mask)`` finds combinations covering
    exactly the cards of ``mask`` (always taking the lowest position first), memoised per
    mask, so every discard of one hand shares one search: at most 2**13 states.
    """

    def __init__(self, cards: tuple[Card, ...], tiplu: Card | None, ruleset: Ruleset) -> None:
        self.cards = cards
        n = len(cards)
        codes = [c.code for c in cards]
        memo = _combination_memo(tiplu, ruleset)
        self.by_low: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            ki = codes[i] * 2916
            for j in range(i + 1, n):
                kij = ki + codes[j] * 54
                for k in range(j + 1, n):
                    key = kij + codes[k]
                    valid = memo.get(key)
                    if valid is None:
                        valid = memo[key] = classify((cards[i], cards[j], cards[k]), tiplu=tiplu,
                                                     ruleset=ruleset) is not None
                    if valid:
                        self.by_low[i].append((1 << i) | (1 << j) | (1 << k))
        self.memo: dict[int, tuple[int, ...] | None] = {0: ()}

    def solve(self, mask: int) -> tuple[int, ...] | None:
        memo = self.memo
        if mask in memo:
            return memo[mask]
        low = (mask & -mask).bit_length() - 1
        result = None
        for t in self.by_low[low]:
            if t & mask == t:
                sub = self.solve(mask ^ t)
                if sub is not None:
                    result = (t,) + sub
                    break
        memo[mask] = result
        return result

    def groups(self, masks: tuple[int, ...]) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(c for i, c in enumerate(self.cards) if m >> i & 1) for m in masks)


def finish_groups(cards: Sequence[Card], *, tiplu: Card | None, ruleset: Ruleset) -> tuple[tuple[Card, ...], ...] | None:
    """A split of ``cards`` (a multiple of three) into valid combinations, or ``None``."""
    key = tuple(sorted(cards))
    if len(key) % 3:
        return None
    cover = _Cover(key, tiplu, ruleset)
    found = cover.solve((1 << len(key)) - 1)
    return None if found is None else cover.groups(found)


def _maal_after(hand: Counter[Card], discard: Card, table: tuple[Card, ...], tunnelas: Iterable[Sequence[Card]],
                tiplu: Card | None, ruleset: Ruleset) -> int:
    kept = hand.copy()
    kept[discard] -= 1
    return count_maal(hand=list(kept.elements()), table=table, tunnelas_at_deal=tunnelas,
                      tiplu=tiplu, seen=True, ruleset=ruleset).points


def find_finish(hand: Iterable[Card], *, tiplu: Card | None, ruleset: Ruleset, dublee: bool,
                table: Iterable[Card] = (), tunnelas_at_deal: Iterable[Sequence[Card]] = (),
                never_discard: Card | None = None) -> Finish | None:
    """How ``hand`` (the cards in hand after the draw) finishes, or ``None`` if it cannot.

    ``dublee``: the player showed seven dublees (then an eighth dublee finishes).
    ``table`` / ``tunnelas_at_deal``: what the player laid, used only to prefer the
    discard that keeps the most maal (D-8). ``never_discard``: a card that may not be the
    discard (the card just taken from the discards, MC-14).
    """
    hand = tuple(sorted(hand))
    table = tuple(table)
    tunnelas = tuple(tuple(t) for t in tunnelas_at_deal)
    counts = Counter(hand)
    discards = [c for c in sorted(counts) if c != never_discard]
    found: list[tuple[Card, tuple[tuple[Card, ...], ...], tuple[Card, ...]]] = []
    if dublee:
        if len(hand) < 3:
            return None
        for discard in discards:
            kept = counts.copy()
            kept[discard] -= 1
            pairs = sorted(c for c, n in kept.items() if n >= 2)
            if pairs:
                kept[pairs[0]] -= 2
                found.append((discard, ((pairs[0], pairs[0]),), tuple(sorted(kept.elements()))))
    else:
        if len(hand) % 3 != 1:
            return None
        cover = _Cover(hand, tiplu, ruleset)
        full = (1 << len(hand)) - 1
        for discard in discards:
            masks = cover.solve(full ^ (1 << hand.index(discard)))
            if masks is not None:
                found.append((discard, cover.groups(masks), ()))
    if not found:
        return None
    if len(found) > 1:
        found.sort(key=lambda f: (-_maal_after(counts, f[0], table, tunnelas, tiplu, ruleset), f[0]))
    discard, groups, loose = found[0]
    return Finish(groups, discard, loose)


def check_finish(groups: Sequence[Sequence[Card]], discard: Card, hand: Iterable[Card], *,
                 tiplu: Card | None, ruleset: Ruleset, dublee: bool) -> None:
    """Verify a claimed finish of ``hand`` (the cards after the draw); raises
    :class:`IllegalMoveError` naming the rule broken (D-7, MC-20, MC-21, MC-10, MN-12 ...).

    Three-set shower: ``groups`` are the ``(len(hand) - 1) / 3`` combinations, which with
    ``discard`` use exactly the cards of ``hand``. Dublee shower: ``groups`` is the one
    eighth dublee (two identical cards); the other cards but ``discard`` are loose.
    """
    hand = tuple(hand)
    groups = tuple(tuple(g) for g in groups)
    rest = [0] * len(ALL_CARDS)    # by card code: what the hand holds less what the finish uses
    for c in hand:
        rest[c.code] += 1
    for g in groups:
        for c in g:
            rest[c.code] -= 1
    rest[discard.code] -= 1
    if min(rest) < 0:
        missing = [ALL_CARDS[code] for code, n in enumerate(rest) if n < 0]
        raise IllegalMoveError(f"the finish uses cards not in hand: {' '.join(map(str, missing))}",
                               rule=_dublee_rule(ruleset) if dublee else "D-7")
    if dublee:
        if len(groups) != 1 or len(groups[0]) != 2 or groups[0][0] != groups[0][1]:
            raise IllegalMoveError("a dublee finish lays one eighth dublee: two identical cards "
                                   "(jokers are never wild in dublees)", rule=_dublee_rule(ruleset))
        return
    if any(rest):
        raise IllegalMoveError("a finish lays every card but the discard in combinations",
                               rule="D-7" if is_nepal(ruleset) else "MC-20")
    expected = (len(hand) - 1) // 3
    if len(hand) % 3 != 1 or len(groups) != expected:
        raise IllegalMoveError(f"a finish lays {expected} three-card combinations and one discard",
                               rule="D-7" if is_nepal(ruleset) else "MC-20")
    for g in groups:
        check_finish_set(g, tiplu=tiplu, ruleset=ruleset)
