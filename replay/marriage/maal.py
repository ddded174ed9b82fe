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

What scores under a tiplu (as the player knows it) is read from tables made once per
ruleset and tiplu (:class:`_Scorer`: the codes that may score, and for each number of
copies its best split and the items listed); the plain loop they replace is the oracle
in ``tests/marriage/maal_reference.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from operator import itemgetter
from typing import Any, Iterable, Mapping, Sequence

from ..cards import ALL_CARDS, RANK_OF, SUIT_OF, Card, card_of, card_texts
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


class _Rules:
    """What one ruleset's maal table and shoe say, read once per ruleset (a ruleset is an
    immutable value, equal rulesets hash alike): the copies of each card code the shoe
    holds, and a :class:`_Scorer` per tiplu as a player knows it (at most 55)."""

    __slots__ = ("ruleset", "nepal", "limits", "decks", "jokers", "masters", "table_values",
                 "marriage_values", "scorers")

    def __init__(self, ruleset: Ruleset) -> None:
        shoe = ruleset["shoe"]
        self.ruleset = ruleset
        self.nepal = is_nepal(ruleset)
        self.decks, self.jokers, self.masters = shoe["decks"], shoe["jokers"], shoe["masters"]
        self.limits = (self.decks,) * 52 + (self.jokers, self.masters)
        self.table_values: Mapping[str, Any] = ruleset["maal_table"]
        self.marriage_values = tuple(self.table_values["marriage"])
        self.scorers: dict[int | None, _Scorer] = {}

    def scorer(self, known: Card | None) -> "_Scorer":
        code = None if known is None else known.code
        scorer = self.scorers.get(code)
        if scorer is None:
            scorer = self.scorers[code] = _Scorer(self, code)
        return scorer


_RULES: dict[str, _Rules] = {}


def _rules(ruleset: Ruleset) -> _Rules:
    """The :class:`_Rules` of ``ruleset``, kept under its hash (rulesets are equal exactly
    when their hashes are; at most 64 kept)."""
    rules = _RULES.get(ruleset.hash)
    if rules is None:
        if len(_RULES) >= 64:
            _RULES.clear()
        rules = _RULES[ruleset.hash] = _Rules(ruleset)
    return rules


#: an item's place in the listing (:func:`_sort_key`), and an item beside it
SortKey = tuple[bool, int, str, tuple[int, ...]]
Keyed = tuple[SortKey, "Item"]


def _sort_key(item: Item, roles: Sequence[Role]) -> SortKey:
    """The order items are listed in: tunnelas and marriages first, then by role, name and
    cards (a card's order is its code's)."""
    return (not item.item.startswith(("marriage", "putali tunnela", "tunnela")), _ROLE_ORDER[roles[item.cards[0].code]],
            item.item, tuple(c.code for c in item.cards))


class _Scorer:
    """What scores under one tiplu as a player knows it (``None``: putali and master only),
    as tables made once: the codes that may score, and for each and each number ``n`` of
    its copies the points of the best split (:func:`best_groups`) and the items it lists
    (each with its sort key); the same for ``m`` marriages."""

    __slots__ = ("roles", "codes", "missing", "values", "best", "items", "trio", "marriage_best",
                 "marriage_items")

    def __init__(self, rules: _Rules, known_code: int | None) -> None:
        known = None if known_code is None else ALL_CARDS[known_code]
        ruleset = rules.ruleset
        roles = self.roles = role_table(known, ruleset)
        scoring = joker_table(known, ruleset)   # a card with a role (every joker) may score
        self.codes = tuple(code for code in range(len(ALL_CARDS)) if scoring[code])
        self.missing: dict[int, Role] = {}      # a role the maal table lacks: an error if held
        self.values: dict[int, tuple[int, ...]] = {}
        self.best: dict[int, tuple[int, ...]] = {}
        self.items: dict[int, tuple[tuple[Keyed, ...], ...]] = {}
        for code in self.codes:
            role = roles[code]
            if role.value not in rules.table_values:
                self.missing[code] = role
                continue
            values = self.values[code] = tuple(rules.table_values[role.value])
            splits = [best_groups(values, n) for n in range(rules.limits[code] + 1)]
            self.best[code] = tuple(pts for pts, _ in splits)
            made: list[tuple[Keyed, ...]] = []
            for _, sizes in splits:
                kind = [Item(_item_name(role.value, k), (ALL_CARDS[code],) * k, values[k - 1]) for k in sizes]
                made.append(tuple((_sort_key(i, roles), i) for i in kind if i.points))
            self.items[code] = tuple(made)
        self.trio: tuple[int, ...] = ()   # the marriage's codes (tiplu, poplu, jhiplu), if it has one
        self.marriage_best: tuple[int, ...] = (0,)
        self.marriage_items: tuple[tuple[Keyed, ...], ...] = ((),)
        if known is not None and known.is_standard:
            trio = self.trio = _marriage_codes(known.code)
            values = rules.marriage_values
            splits = [best_groups(values, m) for m in range(min(rules.limits[c] for c in trio) + 1)]
            self.marriage_best = tuple(pts if m else 0 for m, (pts, _) in enumerate(splits))
            cards = tuple(ALL_CARDS[c] for c in trio)
            made = [()]
            for _, sizes in splits[1:]:
                kind = [Item(_item_name("marriage", k), cards * k, values[k - 1]) for k in sizes]
                made.append(tuple((_sort_key(i, roles), i) for i in kind if i.points))
            self.marriage_items = tuple(made)


def _pool(hand: Iterable[Card], table: Sequence[Card], tunnelas: Sequence[Sequence[Card]],
          rules: _Rules) -> tuple[list[int], tuple[int, ...]]:
    """Counts by card code of the counted cards and the codes of the tunnelas at the deal.

    A tunnela at the deal uses all three copies of its card; if ``table`` already holds
    them it is part of ``table``, if it holds none they are added.
    """
    pool = [0] * len(ALL_CARDS)
    for c in hand:
        pool[c.code] += 1
    for c in table:
        pool[c.code] += 1
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
    if max(pool[:52]) > rules.decks or pool[52] > rules.jokers or pool[53] > rules.masters:
        limits = rules.limits
        code = next(code for code, n in enumerate(pool) if n > limits[code])   # the first, in code order
        raise MalformedError(f"{pool[code]} copies of {ALL_CARDS[code]}, but the shoe holds {limits[code]}")
    return pool, tuple(sorted(tunnela_codes))


@lru_cache(maxsize=None)
def _marriage_codes(tiplu_code: int) -> tuple[int, int, int]:
    """The codes of the tiplu, the poplu and the jhiplu of a standard tiplu (MN-27, MC-25)."""
    rank, suit = RANK_OF[tiplu_code], SUIT_OF[tiplu_code]
    return tiplu_code, card_of(poplu_rank(rank), suit).code, card_of(jhiplu_rank(rank), suit).code


_FIRST = itemgetter(0)


def count_maal(*, hand: Iterable[Card], table: Iterable[Card] = (),
               tunnelas_at_deal: Iterable[Sequence[Card]] = (), tiplu: Card | None, seen: bool,
               ruleset: Ruleset) -> Maal:
    """A player's maal over hand plus table (MN-29), best assignment for the holder (D-8).

    ``table``: every card the player laid (shows included); ``tunnelas_at_deal``: the
    tunnelas laid before the first draw (part of ``table``; added if ``table`` lacks them);
    ``tiplu``: the tiplu of the round, ``None`` if nobody showed; ``seen``: whether this
    player saw it.
    """
    rules = _rules(ruleset)
    pool, tunnela_codes = _pool(hand, tuple(table), tuple(tuple(t) for t in tunnelas_at_deal)
                                if tunnelas_at_deal else (), rules)
    nepal = rules.nepal
    if not seen and not nepal:
        return _NOTHING  # classic: only a player who has seen scores (MC-25, MC-27)
    known = tiplu if seen else None  # unseen nepal: putali and master only (MN-34, MN-28)
    if tiplu is not None:
        copies = rules.limits[tiplu.code]
        if pool[tiplu.code] > copies - 1:  # the tiplu itself is out of play (D-5)
            raise MalformedError(f"at most {copies - 1} copies of the tiplu {tiplu} can be held")
    scorer = rules.scorer(known)
    held = [code for code in scorer.codes if pool[code]]
    if not held and not tunnela_codes:
        return _NOTHING  # nothing that scores: no item, whatever the table
    if scorer.missing:
        for code in held:
            if code in scorer.missing:
                raise MalformedError(f"{ruleset.preset} has no {scorer.missing[code].value} in its maal table")
    best = scorer.best
    trio = scorer.trio
    max_marriages = min(pool[c] for c in trio) if trio else 0
    if not tunnela_codes or known is None:   # no tunnela item competes for cards: the usual case
        m_best, total_best = 0, None
        for m in range(max_marriages + 1):
            total = scorer.marriage_best[m]
            for code in held:
                total += best[code][pool[code] - m if m and code in trio else pool[code]]
            if total_best is None or total > total_best:
                total_best, m_best = total, m
        return _maal(scorer, held, (), m_best, pool, total_best)
    roles, table_values, values = scorer.roles, rules.table_values, scorer.values
    # Candidate items that compete for cards: tunnelas at the deal, marriages.
    tunnela_items: list[tuple[int, int, str]] = []
    for code in tunnela_codes:   # seen (MN-22, MC-27), whatever card the tiplu is
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
    best_points: int | None = None
    best_plan: tuple[Sequence[tuple[int, int, str]], int, list[int]] = ((), 0, pool)   # the first plan replaces it
    for chosen in product((False, True), repeat=len(tunnela_items)):
        counts = list(pool)
        base = 0
        taken: list[tuple[int, int, str]] = []
        for take, item in zip(chosen, tunnela_items):
            if take:
                counts[item[0]] -= 3
                base += item[1]
                taken.append(item)
        for m in range(max_marriages + 1):
            if m and any(counts[c] < m for c in trio):
                break
            total = base + scorer.marriage_best[m]
            for code in held:
                n = counts[code] - (m if m and code in trio else 0)
                if n > 0:
                    total += best[code][n]
            if best_points is None or total > best_points:
                best_points, best_plan = total, (tuple(taken), m, counts)
    plan_taken, m, counts = best_plan
    return _maal(scorer, held, plan_taken, m, counts, best_points)


_NOTHING = Maal(0)


def _maal(scorer: _Scorer, held: list[int], taken: Sequence[tuple[int, int, str]], m: int, counts: list[int],
          points: int | None) -> Maal:
    """The :class:`Maal` of one plan: the tunnela items taken, ``m`` marriages, and the best
    split of what is left of each held code, items in their listing order."""
    keyed = [(_sort_key(i, scorer.roles), i) for i in (Item(name, (ALL_CARDS[code],) * 3, value)
                                                     for code, value, name in taken) if i.points]
    if m:
        keyed += scorer.marriage_items[m]
    trio, items = scorer.trio, scorer.items
    for code in held:
        n = counts[code] - (m if m and code in trio else 0)
        if n > 0:
            keyed += items[code][n]
    if not keyed:
        return Maal(points or 0)
    if len(keyed) > 1:
        keyed.sort(key=_FIRST)
    return Maal(points or 0, tuple(i for _, i in keyed))
