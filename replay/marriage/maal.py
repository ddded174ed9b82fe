"""Counting maal: the points a player's cards are worth at the end of a round.

What is counted (MN-29): the player's hand plus every card they laid on the table (the
show sets, the tunnelas laid at the deal, the finishing combinations).

Score items (values are data: ``ruleset["maal_table"]``, see decisions.md):

* **multiples** -- ``k`` identical cards of one role score ``table[role][k-1]``: one tiplu
  3, two tiplu 7, ... (MN-23..MN-26, MN-30, MC-25). Each identical kind is counted on its
  own (the two man suits are two kinds).
* **marriage** -- a tiplu, a poplu and a jhiplu held together, anywhere in hand or on
  the table, score ``table["marriage"][0]`` (10) instead of 3+2+2; two marriages score
  ``table["marriage"][1]`` (30) (MN-27, MC-25, MC-26).
* **tunnela at the deal** -- only for a tunnela laid before the first draw, and only once
  its owner has seen the tiplu (MN-19, MN-22, MN-31, MC-13, MC-27). ``nepal``: the three
  cards' own value plus ``tunnela_at_deal_bonus`` (5); three putali: ``putali_tunnela_at_deal``
  (45). ``classic``: ``table["tunnela_at_deal"][role]`` (ordinary 5, ordinary joker 10,
  poplu/jhiplu 20).

Who scores what:

* ``nepal``: a player who has seen scores every item; one who has not scores only the
  putali and the master card (MN-28, MN-34). With no tiplu drawn (``tiplu=None``) only the
  putali and master score, for everyone, even in a void round (MN-28).
* ``classic``: only a player who has seen scores (MC-25, MC-27).

Each card counts for one item only, and the assignment taken is the one worth the most
to the holder (MC-26, D-8). It is computed exactly: every choice of tunnela items and
number of marriages is tried, and each remaining kind is split into the best groups.
The result depends only on the multiset of cards, never on their order.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any, Iterable, Mapping, Sequence

from ..cards import ALL_CARDS, Card, card_of, card_texts
from ..errors import MalformedError
from ..rulesets import Ruleset
from .jokers import Role, is_nepal, jhiplu_rank, joker_table, poplu_rank, role_table

__all__ = ["Item", "Maal", "count_maal", "best_groups"]

_ROLE_ORDER = {r: i for i, r in enumerate(
    (Role.TIPLU, Role.POPLU, Role.JHIPLU, Role.ALTER, Role.MAN, Role.ORDINARY_JOKER,
     Role.PUTALI, Role.MASTER, Role.NONE))}


@dataclass(frozen=True, slots=True)
class Item:
    """One score item: its name, the cards it uses and what it is worth."""

    item: str
    cards: tuple[Card, ...]
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"item": self.item, "cards": card_texts(self.cards), "points": self.points}


@dataclass(frozen=True, slots=True)
class Maal:
    """A player's maal: the total and the items it is made of."""

    points: int
    items: tuple[Item, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"maal": self.points, "items": [i.to_json() for i in self.items]}


@lru_cache(maxsize=4096)
def best_groups(values: tuple[int, ...], count: int) -> tuple[int, tuple[int, ...]]:
    """Best split of ``count`` identical cards into groups scored ``values[k-1]`` for ``k``.

    Returns ``(points, group sizes)``; a card may also stay out of every item (worth 0),
    so the result is exact whatever the table holds.
    """
    best: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for c in range(1, count + 1):
        options = [best[c - 1]]  # the c-th card in no item
        for k in range(1, min(c, len(values)) + 1):
            pts, sizes = best[c - k]
            options.append((pts + values[k - 1], tuple(sorted(sizes + (k,), reverse=True))))
        best.append(max(options, key=lambda o: o))  # ties: the larger groups (two tiplu, not 3 + 3)
    return best[count]


def _item_name(base: str, k: int) -> str:
    return base if k == 1 else f"{base} x{k}"


@lru_cache(maxsize=64)
def _limits(ruleset: Ruleset) -> tuple[int, ...]:
    """How many copies of each card code the ruleset's shoe holds (a ruleset is an
    immutable value, equal rulesets hash alike)."""
    shoe = ruleset["shoe"]
    return (shoe["decks"],) * 52 + (shoe["jokers"], shoe["masters"])


def _pool(hand: Sequence[Card], table: Sequence[Card], tunnelas: Sequence[Sequence[Card]],
          ruleset: Ruleset) -> tuple[list[int], tuple[int, ...], list[int]]:
    """Counts by card code of the counted cards, the codes of the tunnelas at the deal, and
    the codes counted at least once (in code order).

    A tunnela at the deal uses all three copies of its card; if ``table`` already holds
    them it is part of ``table``, if it holds none they are added.
    """
    held = Counter([c.code for c in hand])
    held.update([c.code for c in table])
    pool = [0] * len(ALL_CARDS)
    for code, n in held.items():
        pool[code] = n
    tunnela_codes: list[int] = []
    if tunnelas:
        on_table = [0] * len(ALL_CARDS)
        for c in table:
            on_table[c.code] += 1
        for t in tunnelas:
            if len(t) != 3 or not (t[0] == t[1] == t[2]) or t[0].is_master:
                raise MalformedError(f"a tunnela laid at the deal is three identical cards, not {' '.join(map(str, t))}")
            code = t[0].code
            if code in tunnela_codes:
                raise MalformedError(f"tunnela {t[0]} listed twice")
            tunnela_codes.append(code)
            if pool[code] == 0:
                pool[code] = 3
            elif on_table[code] < 3:
                raise MalformedError(f"tunnela {t[0]} laid at the deal but not all three on the table")
    present = sorted(held.keys() | set(tunnela_codes)) if tunnela_codes else sorted(held)
    limits = _limits(ruleset)
    for code in present:
        if pool[code] > limits[code]:
            raise MalformedError(f"{pool[code]} copies of {ALL_CARDS[code]}, but the shoe holds {limits[code]}")
    return pool, tuple(sorted(tunnela_codes)), present


@lru_cache(maxsize=None)
def _marriage_codes(tiplu_code: int) -> tuple[int, int, int]:
    """The codes of the tiplu, the poplu and the jhiplu of a standard tiplu (MN-27, MC-25)."""
    tiplu = ALL_CARDS[tiplu_code]
    return (tiplu_code, card_of(poplu_rank(tiplu.rank), tiplu.suit).code,
            card_of(jhiplu_rank(tiplu.rank), tiplu.suit).code)


@lru_cache(maxsize=256)
def _role_values(ruleset: Ruleset, role: Role) -> tuple[int, ...]:
    """The maal table's values of ``k`` identical cards of ``role``."""
    table_values = ruleset["maal_table"]
    if role.value not in table_values:
        raise MalformedError(f"{ruleset.preset} has no {role.value} in its maal table")
    return tuple(table_values[role.value])


_ROLE_NAME = {role: role.value for role in Role}


def count_maal(*, hand: Iterable[Card], table: Iterable[Card] = (),
               tunnelas_at_deal: Iterable[Sequence[Card]] = (), tiplu: Card | None, seen: bool,
               ruleset: Ruleset) -> Maal:
    """A player's maal over hand plus table (MN-29), best assignment for the holder (D-8).

    ``table``: every card the player laid (shows included); ``tunnelas_at_deal``: the
    tunnelas laid before the first draw (part of ``table``; added if ``table`` lacks them);
    ``tiplu``: the tiplu of the round, ``None`` if nobody showed; ``seen``: whether this
    player saw it.
    """
    pool, tunnela_codes, present = _pool(tuple(hand), tuple(table), tuple(tuple(t) for t in tunnelas_at_deal),
                                         ruleset)
    nepal = is_nepal(ruleset)
    if not seen and not nepal:
        return Maal(0)  # classic: only a player who has seen scores (MC-25, MC-27)
    known = tiplu if seen else None  # unseen nepal: putali and master only (MN-34, MN-28)
    if tiplu is not None:
        shoe = ruleset["shoe"]
        copies = shoe["decks"] if tiplu.is_standard else shoe["jokers"] if tiplu.is_joker else shoe["masters"]
        if pool[tiplu.code] > copies - 1:  # the tiplu itself is out of play (D-5)
            raise MalformedError(f"at most {copies - 1} copies of the tiplu {tiplu} can be held")
    roles = role_table(known, ruleset)
    scoring = joker_table(known, ruleset)   # a card with a role (every joker) may score
    held = [code for code in present if scoring[code]]
    if not held and not tunnela_codes:
        return Maal(0)  # nothing that scores: no item, whatever the table
    table_values: Mapping[str, Any] = ruleset["maal_table"]
    values = {code: _role_values(ruleset, roles[code]) for code in held}
    # Candidate items that compete for cards: tunnelas at the deal, marriages.
    tunnela_items: list[tuple[int, int, str]] = []
    if known is not None:  # seen (MN-22, MC-27), whatever card the tiplu is
        for code in tunnela_codes:
            role = roles[code]
            if nepal:
                if role is Role.PUTALI:
                    tunnela_items.append((code, table_values["putali_tunnela_at_deal"], "putali tunnela at deal"))
                else:
                    own = best_groups(values[code], 3)[0] if role is not Role.NONE else 0
                    tunnela_items.append((code, own + table_values["tunnela_at_deal_bonus"], "tunnela at deal"))
            else:
                key = "ordinary" if role is Role.NONE else role.value
                if key in table_values["tunnela_at_deal"]:
                    tunnela_items.append((code, table_values["tunnela_at_deal"][key], "tunnela at deal"))
    trio: tuple[int, int, int] | None = None
    max_marriages = 0
    if known is not None and known.is_standard:
        trio = _marriage_codes(known.code)
        max_marriages = min(pool[c] for c in trio)
    marriage_values = tuple(table_values["marriage"])

    best_points: int | None = None
    best_plan: tuple = ()
    for chosen in product((False, True), repeat=len(tunnela_items)):
        counts = list(pool)
        base = 0
        taken = []
        for take, item in zip(chosen, tunnela_items):
            if take:
                counts[item[0]] -= 3
                base += item[1]
                taken.append(item)
        for m in range(max_marriages + 1):
            if m and any(counts[c] < m for c in trio):
                break
            total = base + (best_groups(marriage_values, m)[0] if m else 0)
            for code in held:
                n = counts[code] - (m if m and code in trio else 0)
                if n > 0:
                    total += best_groups(values[code], n)[0]
            if best_points is None or total > best_points:
                best_points, best_plan = total, (tuple(taken), m, tuple(counts))
    taken, m, counts = best_plan
    items = [Item(name, (ALL_CARDS[code],) * 3, value) for code, value, name in taken]
    if m:
        cards = tuple(ALL_CARDS[c] for c in trio)
        items += [Item(_item_name("marriage", k), cards * k, marriage_values[k - 1])
                  for k in best_groups(marriage_values, m)[1]]
    for code in held:
        n = counts[code] - (m if m and code in trio else 0)
        if n > 0:
            name = _ROLE_NAME[roles[code]]
            items += [Item(_item_name(name, k), (ALL_CARDS[code],) * k, values[code][k - 1])
                      for k in best_groups(values[code], n)[1]]
    items = sorted((i for i in items if i.points),
                   key=lambda i: (not i.item.startswith(("marriage", "putali tunnela", "tunnela")),
                                  _ROLE_ORDER[roles[i.cards[0].code]], i.item, i.cards))
    return Maal(best_points or 0, tuple(items))
