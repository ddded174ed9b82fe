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
from functools import lru_cache
from typing import Any, Iterable, Sequence

from ..cards import Card
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


def finish_groups(cards: Sequence[Card], *, tiplu: Card | None, ruleset: Ruleset) -> tuple[tuple[Card, ...], ...] | None:
    """A split of ``cards`` (a multiple of three) into valid combinations, or ``None``."""
    key = tuple(sorted(cards))
    if len(key) % 3:
        return None
    return _partition(key, tiplu, ruleset)


@lru_cache(maxsize=65536)
def _partition(cards: tuple[Card, ...], tiplu: Card | None, ruleset: Ruleset) -> tuple[tuple[Card, ...], ...] | None:
    if not cards:
        return ()
    first, rest = cards[0], cards[1:]
    tried: set[tuple[Card, Card]] = set()
    for i in range(len(rest)):
        for j in range(i + 1, len(rest)):
            pair = (rest[i], rest[j])
            if pair in tried:
                continue
            tried.add(pair)
            if classify((first,) + pair, tiplu=tiplu, ruleset=ruleset) is None:
                continue
            remaining = rest[:i] + rest[i + 1:j] + rest[j + 1:]
            sub = _partition(remaining, tiplu, ruleset)
            if sub is not None:
                return ((first,) + pair,) + sub
    return None


def _maal_after(hand: Counter, discard: Card, table: tuple[Card, ...], tunnelas, tiplu, ruleset) -> int:
    kept = hand.copy()
    kept[discard] -= 1
    return count_maal(hand=list(kept.elements()), table=table, tunnelas_at_deal=tunnelas,
                      tiplu=tiplu, seen=True, ruleset=ruleset).points


def find_finish(hand: Iterable[Card], *, tiplu: Card | None, ruleset: Ruleset, dublee: bool,
                table: Iterable[Card] = (), tunnelas_at_deal: Iterable[Sequence[Card]] = ()) -> Finish | None:
    """How ``hand`` (the cards in hand after the draw) finishes, or ``None`` if it cannot.

    ``dublee``: the player showed seven dublees (then an eighth dublee finishes).
    ``table`` / ``tunnelas_at_deal``: what the player laid, used only to prefer the
    discard that keeps the most maal (D-8).
    """
    hand = tuple(hand)
    table = tuple(table)
    tunnelas = tuple(tuple(t) for t in tunnelas_at_deal)
    counts = Counter(hand)
    if dublee:
        if len(hand) < 3:
            return None
        candidates = []
        for discard in sorted(counts):
            kept = counts.copy()
            kept[discard] -= 1
            pairs = sorted(c for c, n in kept.items() if n >= 2)
            if pairs:
                candidates.append((discard, pairs[0], kept))
        if not candidates:
            return None
        scored = [(-_maal_after(counts, d, table, tunnelas, tiplu, ruleset), d, p, k) for d, p, k in candidates]
        _, discard, pair, kept = min(scored, key=lambda s: (s[0], s[1]))
        kept[pair] -= 2
        return Finish(((pair, pair),), discard, tuple(sorted(kept.elements())))
    if len(hand) % 3 != 1:
        return None
    found = []
    for discard in sorted(counts):
        kept = counts.copy()
        kept[discard] -= 1
        groups = finish_groups(list(kept.elements()), tiplu=tiplu, ruleset=ruleset)
        if groups is not None:
            found.append((discard, groups))
    if not found:
        return None
    if len(found) == 1:
        discard, groups = found[0]
    else:
        _, discard, groups = min(((-_maal_after(counts, d, table, tunnelas, tiplu, ruleset), d, g) for d, g in found),
                                 key=lambda s: (s[0], s[1]))
    return Finish(groups, discard)


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
    used = Counter(c for g in groups for c in g)
    used[discard] += 1
    rest = Counter(hand)
    rest.subtract(used)
    if any(n < 0 for n in rest.values()):
        missing = sorted(c for c, n in rest.items() if n < 0)
        raise IllegalMoveError(f"the finish uses cards not in hand: {' '.join(map(str, missing))}",
                               rule=_dublee_rule(ruleset) if dublee else "D-7")
    if dublee:
        if len(groups) != 1 or len(groups[0]) != 2 or groups[0][0] != groups[0][1]:
            raise IllegalMoveError("a dublee finish lays one eighth dublee: two identical cards "
                                   "(jokers are never wild in dublees)", rule=_dublee_rule(ruleset))
        return
    if any(n for n in rest.values()):
        raise IllegalMoveError("a finish lays every card but the discard in combinations",
                               rule="D-7" if is_nepal(ruleset) else "MC-20")
    expected = (len(hand) - 1) // 3
    if len(hand) % 3 != 1 or len(groups) != expected:
        raise IllegalMoveError(f"a finish lays {expected} three-card combinations and one discard",
                               rule="D-7" if is_nepal(ruleset) else "MC-20")
    for g in groups:
        check_finish_set(g, tiplu=tiplu, ruleset=ruleset)
