"""The cards of the rummy solver's best plan (:mod:`replay.rummy.solver`): its groups and
loose cards.

A plan names sets by rank and suits and sequences by suit and positions (:mod:`replay.melds`:
1 .. 14, the Ace low or high); here they become cards, with jokers lent where a position
is not held.  Wild-rank cards are lent before printed jokers, a suit's own wild-rank card
fills its pure run's gap, and spare jokers are folded into groups where they fit.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from ..cards import JOKER_CODE, RANK_OF, STANDARD, SUIT_OF, Card
from .frontiers import Counts, SuitPlan, pure_runs

__all__ = ["Plan", "plan_cards", "pure_only_cards", "sorted_cards"]

#: groups of cards, and the loose cards besides them
Groups = tuple[tuple[Card, ...], ...]
#: the solver's plan: the sets chosen, as ``(rank, (suits of one set, ...))`` per rank; each
#: suit's runs, as ``(suit, its plan)``; the sequences made of jokers alone; the jokers used
Plan = tuple[tuple[tuple[int, tuple[tuple[int, ...], ...]], ...], tuple[tuple[int, SuitPlan], ...], int, int]


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in code order (how the solver lists loose cards)."""
    return tuple(sorted(cards, key=_CODE))


def _CODE(card: Card) -> int:
    return card.code


def _run_cards(suit: int, lo: int, hi: int, nat: Iterable[int], jokers: list[Card],
               own: Card | None = None) -> list[Card]:
    nat = set(nat)
    out = []
    row = 13 * suit - 1  # STANDARD[row + rank]: the suit's card of that rank (card_of)
    for q in range(lo, hi + 1):
        if q in nat:
            out.append(STANDARD[row + (1 if q == 14 else q)])
        elif own is not None and RANK_OF[own.code] == (1 if q == 14 else q):
            out.append(own)
            own = None
        else:
            out.append(jokers.pop())
    return out


def plan_cards(plan: Plan, counts: Sequence[Sequence[int]], own_w: Sequence[Sequence[Card]],
               printed: Sequence[Card], wild: int | None) -> tuple[Groups, tuple[Card, ...]]:
    """Cards of the winning plan; spare jokers are folded into groups where they fit."""
    set_choice, suit_plans, joker_runs, _k = plan
    pool_w = [list(w) for w in own_w]
    groups: list[list[Card]] = []
    kinds: list[str] = []
    own_pure = []   # the suits whose pure run takes their own wild-rank card
    for _s, (pure, _runs) in suit_plans:
        if pure is not None and pure[3]:
            own_pure.append(_s)
    reserved = {s: pool_w[s].pop() for s in own_pure}
    pool = list(printed) + [c for w in pool_w for c in w]
    pool.sort(key=_CODE, reverse=True)  # pop() lends wild-rank cards before printed jokers
    for r, sets in set_choice:
        for sub in sets:
            g = [STANDARD[13 * s + r - 1] for s in sub]  # card_of(r, s)
            while len(g) < 3:
                g.append(pool.pop())
            groups.append(g)
            kinds.append("set")
    for s, (pure, runs) in suit_plans:
        if pure is not None:
            lo, hi, nat, _uses_w = pure
            groups.append(_run_cards(s, lo, hi, nat, pool, reserved.get(s)))
            kinds.append("run" if "pure" in kinds else "pure")  # only one must stay pure
        for lo, hi, nat in runs:
            groups.append(_run_cards(s, lo, hi, nat, pool))
            kinds.append("run")
    for _ in range(joker_runs):
        groups.append([pool.pop() for _ in range(3)])
        kinds.append("run")
    # Fold spare jokers in: into sets of three, then into runs (never the pure one).
    while pool:
        for i, g in enumerate(groups):
            if (kinds[i] == "set" and len(g) < 4) or (kinds[i] == "run" and len(g) < 13):
                g.append(pool.pop())
                break
        else:
            if len(pool) >= 3:
                groups.append([pool.pop() for _ in range(3)])
                kinds.append("run")
            else:
                break
    groups_t = tuple(tuple(g) for g in groups)
    return groups_t, sorted_cards(pool) + _loose_naturals(counts, groups_t, wild)


def _loose_naturals(counts: Sequence[Sequence[int]], groups: Groups, wild: int | None) -> tuple[Card, ...]:
    """The naturals (counted by suit and rank in ``counts``) no group holds, in code order."""
    remaining = [list(c) for c in counts]
    for g in groups:
        for card in g:
            code = card.code
            if code < JOKER_CODE and RANK_OF[code] != wild:
                remaining[SUIT_OF[code]][RANK_OF[code]] -= 1
    out: list[Card] = []
    for s in range(4):
        row = remaining[s]
        if not any(row):
            continue  # every natural of this suit is in a group
        for r in range(1, 14):
            n = row[r]
            if n:
                if n < 0:
                    raise AssertionError("a group holds a card the hand does not")  # pragma: no cover
                out.extend([STANDARD[13 * s + r - 1]] * n)  # suit by suit, rank by rank: code order
    return tuple(out)


def pure_only_cards(base: Sequence[Counts], has_w: Sequence[bool], own_w: Sequence[Sequence[Card]],
                    cards: Sequence[Card], wild: int | None, vals: tuple[int, ...],
                    best_pure: int) -> tuple[Groups, tuple[Card, ...]]:
    """The cards of the best pure run worth ``best_pure`` (the first found, suit by suit) and
    the rest, loose (R-15's middle case)."""
    for s in range(4):
        for lo, hi, nat, uses_w in pure_runs(base[s], wild, has_w[s]):
            if sum(vals[q] for q in nat) == best_pure:
                own = own_w[s][0] if uses_w else None
                run = tuple(_run_cards(s, lo, hi, nat, [], own))
                rest = list(cards)
                for c in run:
                    rest.remove(c)
                return (run,), sorted_cards(rest)
    raise AssertionError("best pure run not found")  # pragma: no cover
