"""The maal count as it was written before its tables (issue 18, session 5): the plain
loop over every choice of tunnela items and marriages, each kind split by
:func:`replay.marriage.maal.best_groups`, every table read at each call.  Kept here as
an oracle: :mod:`replay.marriage.maal` must give the same :class:`Maal` -- points, items
and their order -- for every holding (tests/marriage/test_marriage_maal_tables.py)."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import product
from typing import Any, Iterable, Mapping, Sequence

from replay.cards import ALL_CARDS, Card, card_of
from replay.errors import MalformedError
from replay.rulesets import Ruleset
from replay.marriage.jokers import Role, is_nepal, jhiplu_rank, joker_table, poplu_rank, role_table
from replay.marriage.maal import Item, Maal, best_groups

_ROLE_ORDER = {r: i for i, r in enumerate(
    (Role.TIPLU, Role.POPLU, Role.JHIPLU, Role.ALTER, Role.MAN, Role.ORDINARY_JOKER,
     Role.PUTALI, Role.MASTER, Role.NONE))}


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


def reference_count_maal(*, hand: Iterable[Card], table: Iterable[Card] = (),
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
