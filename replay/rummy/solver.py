"""The least points a rummy hand can count, and one grouping that reaches it (R-12..R-15, D-22).

A hand is always counted at its best arrangement (R-12).  Its points are the minimum of
three cases (R-15), with ``T`` the points of every card (R-13; at most 130, R-14):

* no pure sequence -- every card counts: ``T``;
* a pure sequence but no second sequence -- only that one run is excused:
  ``T - best pure run``;
* two sequences, one of them pure -- only loose cards count: ``T - best cover``, where the
  cover is any set of disjoint groups (sequences and sets) that includes a pure sequence
  and at least one more sequence.

Jokers count 0 and may stand in anywhere, so only the *naturals* matter for the cover;
jokers are a budget.  The search (see ``docs/rummy13.md`` for the argument):

1. **Sets** link suits at one rank.  For each rank held in two or more suits we enumerate
   the sets it could give (2 naturals + 1 joker, or 3-4 naturals); a lone natural with two
   jokers is never needed as a set because the same three cards make a sequence.
2. **Sequences** live in one suit, so once the sets are chosen the suits are independent.
   Each suit's rank-count vector gets a *frontier*: for every (jokers used, sequences
   made (capped at 2), has a pure one) the most points it can cover.  One sequence of the
   suit may be the designated *pure* run; it is enumerated explicitly (it must use a
   natural at every position, or the suit's own wild-rank card at the wild position).
   For the other sequences only their spans matter: each position covered ``m`` times
   uses ``min(m, naturals there)`` naturals and jokers for the rest, so a run is grown
   from the lowest remaining natural upward taking naturals greedily (an Ace is tried
   low, or moved to the high end).  Frontiers are memoised on the suit's count vector.
   (:mod:`replay.rummy.frontiers`.)
3. The four frontiers are combined under the joker budget; spare jokers in threes make
   extra (impure) sequences.  The best combination over all set choices wins, and
   :mod:`replay.rummy.grouping` turns its plan into cards.

Everything here is exact; ``tests/rummy/test_rummy_solver.py`` checks it against a plain
exhaustive search.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

from ..cards import JOKER_CODE, RANK_OF, SUIT_OF, Card
from .frontiers import (Counts, FlatEntry, SuitFrontier, SuitPlan, clear_caches as clear_suit_caches, has_pure_run,
                        point_values, suit_frontier)
from .grouping import Plan, plan_cards, pure_only_cards, sorted_cards
from .groups import HIGH_CARD_POINTS, MalformedHandError, card_points

__all__ = ["Solution", "solve", "min_points", "best_discard", "clear_caches"]

@dataclass(frozen=True, slots=True)
class Solution:
    """The least points of a hand and one arrangement that reaches them.

    ``case`` is ``"two_sequences"`` (only loose cards count), ``"pure_only"`` (one pure run
    excused) or ``"no_pure"`` (every card counts) -- the three cases of R-15.
    """

    points: int
    groups: tuple[tuple[Card, ...], ...]
    loose: tuple[Card, ...]
    case: str

    @property
    def is_complete(self) -> bool:
        """All cards in groups with two sequences, one pure: a valid declaration."""
        return self.case == "two_sequences" and not self.loose

    def to_json(self) -> dict[str, int | list[list[str]] | list[str]]:
        return {"points": self.points, "groups": [[str(c) for c in g] for g in self.groups],
                "loose": [str(c) for c in self.loose]}


#: sets laid from one rank, each as the suits of its naturals
RankSets = tuple[tuple[int, ...], ...]
#: one way to lay a rank's sets: ``(sets, jokers needed, naturals laid, ((suit, naturals of that suit), ...))``
RankPlan = tuple[RankSets, int, int, tuple[tuple[int, int], ...]]


def _rank_options(avail: dict[int, int]) -> list[RankSets]:
    """Every way to lay sets from one rank's naturals (suit -> copies held)."""
    suits = sorted(avail)
    subsets = [s for n in range(2, min(4, len(suits)) + 1) for s in combinations(suits, n)]
    out: list[RankSets] = []

    def rec(start: int, used: dict[int, int], chosen: RankSets) -> None:
        out.append(chosen)
        for i in range(start, len(subsets)):
            sub = subsets[i]
            if all(used.get(s, 0) < avail[s] for s in sub):
                u = dict(used)
                for s in sub:
                    u[s] = u.get(s, 0) + 1
                rec(i, u, chosen + (sub,))

    rec(0, {}, ())
    return out


#: a rank's naturals in each suit (copies in S, H, D, C) -> its set options (:data:`RankPlan`),
#: for a rank held in two suits or more
_OPTIONS: dict[tuple[int, int, int, int], tuple[RankPlan, ...]] = {}
_OPTIONS_LIMIT = 4096


def _rank_plans(copies: tuple[int, int, int, int]) -> tuple[RankPlan, ...]:
    """The ways to lay sets from a rank held in two suits or more (``copies`` per suit)."""
    try:
        return _OPTIONS[copies]
    except KeyError:
        pass
    avail = {s: n for s, n in enumerate(copies) if n}
    plans: list[RankPlan] = []
    for sets in _rank_options(avail):
        per_suit = Counter(s for sub in sets for s in sub)
        plans.append((sets, sum(3 - len(sub) for sub in sets if len(sub) < 3),
                      sum(map(len, sets)), tuple(sorted(per_suit.items()))))
    hit = tuple(plans)
    if len(_OPTIONS) >= _OPTIONS_LIMIT:
        _OPTIONS.clear()
    _OPTIONS[copies] = hit
    return hit


def solve(cards: Sequence[Card], wild: int | None, *, high: int = HIGH_CARD_POINTS) -> Solution:
    """The least points ``cards`` can count with wild rank ``wild`` (``None``: printed
    jokers only), and one grouping that reaches them.  Works for any number of cards."""
    found = _search(cards, wild, high, groups=True)
    assert isinstance(found, Solution)
    return found


def _search(cards: Sequence[Card], wild: int | None, high: int, *, groups: bool) -> Solution | int:
    """:func:`solve`'s search; with ``groups=False`` just the least points (no grouping built)."""
    vals = point_values(high)
    counts = [[0] * 15, [0] * 15, [0] * 15, [0] * 15]
    own_w: list[list[Card]] = [[], [], [], []]
    printed: list[Card] = []
    total = 0
    suits_at = [0] * 14  # per rank, a bit for each suit holding it naturally
    rank_of, suit_of = RANK_OF, SUIT_OF
    for card in cards:
        code = card.code
        if code >= JOKER_CODE:
            if code == JOKER_CODE:
                printed.append(card)
                continue
            raise MalformedHandError(f"{card} is not a rummy card")
        rank, suit = rank_of[code], suit_of[code]
        if rank == wild:
            own_w[suit].append(card)
        else:
            counts[suit][rank] += 1
            total += vals[rank]
            suits_at[rank] |= 1 << suit
    n_jokers = len(printed) + sum(map(len, own_w))
    base: tuple[Counts, ...] = tuple(map(tuple, counts))
    has_w = list(map(bool, own_w))

    # R-15, middle case: the best single pure run.  No pure run at all: every card counts.
    best_pure = -1
    for s in range(4):
        if has_pure_run(base[s], wild, has_w[s]):
            best_pure = max(best_pure, suit_frontier(base[s], wild, has_w[s], n_jokers, vals)[1])
    if best_pure < 0:
        return Solution(total, (), sorted_cards(cards), "no_pure") if groups else total

    # Set options per rank (ranks held in two or more suits).
    c0, c1, c2, c3 = counts
    rank_opts = []
    for r in range(1, 14):
        bits = suits_at[r]
        if bits & (bits - 1):  # two suits or more
            rank_opts.append((r, _rank_plans((c0[r], c1[r], c2[r], c3[r]))))
    n_ranks = len(rank_opts)
    # later[i]: the most points the sets of ranks i, i+1 ... could lay (for the bound in rec)
    later = [0] * (n_ranks + 1)
    for i in range(n_ranks - 1, -1, -1):
        r, plans = rank_opts[i]
        later[i] = later[i + 1] + vals[r] * max(p[2] for p in plans)

    best_cover = -1
    best_plan: Plan | None = None   # set with best_cover, the plan that covers it
    choice: list[tuple[int, RankSets]] = []

    def evaluate_sets(cap: int, sv: int, fronts: Sequence[SuitFrontier]) -> None:
        """The best cover with these sets laid (``sv`` their points, ``cap`` jokers left,
        ``fronts`` the frontiers of each suit's naturals left)."""
        nonlocal best_cover, best_plan
        # Bound: even the best of every suit together cannot beat what we have.
        if sv + fronts[0][2][cap] + fronts[1][2][cap] + fronts[2][2][cap] + fronts[3][2][cap] <= best_cover:
            return
        states: dict[tuple[int, int, int], tuple[int, tuple[tuple[int, SuitPlan], ...]]] = {(0, 0, 0): (0, ())}
        for s in range(4):
            front: tuple[FlatEntry, ...] = fronts[s][3]
            if len(front) == 1 and not front[0][0] and not front[0][1]:
                continue  # nothing to lay in this suit
            new: dict[tuple[int, int, int], tuple[int, tuple[tuple[int, SuitPlan], ...]]] = {}
            for (k, r, p), (v, plans) in states.items():
                for k2, r2, p2, v2, plan in front:
                    nk = k + k2
                    if nk > cap:
                        break  # frontier entries come sorted by jokers used
                    r2 += r
                    key = (nk, r2 if r2 < 2 else 2, p | p2)
                    nv = v + v2
                    old = new.get(key)
                    if old is None or nv > old[0]:
                        new[key] = (nv, plans + ((s, plan),))
            states = new
        for (k, r, p), (v, plans) in states.items():
            if p and sv + v > best_cover and r + (cap - k) // 3 >= 2:  # spare jokers in threes: runs
                best_cover = sv + v
                best_plan = (tuple(choice), plans, max(0, 2 - r), n_jokers - cap + k)

    def rec(i: int, jokers_left: int, sv: int, cs: Sequence[Counts], fronts: Sequence[SuitFrontier]) -> None:
        if best_cover == total:
            return  # nothing left to gain
        if i == n_ranks:
            evaluate_sets(jokers_left, sv, fronts)
            return
        # Bound: the sets still to choose lay at most later[i] points, and take naturals from
        # the suits, whose frontiers then cover no more (fewer naturals, no more jokers) --
        # so no leaf below can pass evaluate_sets' own bound.
        if (sv + later[i] + fronts[0][2][jokers_left] + fronts[1][2][jokers_left] + fronts[2][2][jokers_left]
                + fronts[3][2][jokers_left]) <= best_cover:
            return
        r, opts = rank_opts[i]
        for sets, need, laid, per_suit in opts:
            if need <= jokers_left:
                choice.append((r, sets))
                if laid:  # only the suits the sets take from change
                    left, lf = list(cs), list(fronts)
                    for s, n in per_suit:
                        c = left[s]
                        c = left[s] = c[:r] + (c[r] - n,) + c[r + 1:]
                        lf[s] = suit_frontier(c, wild, has_w[s], n_jokers, vals)
                    rec(i + 1, jokers_left - need, sv + vals[r] * laid, left, lf)
                else:
                    rec(i + 1, jokers_left, sv, cs, fronts)
                choice.pop()

    rec(0, n_jokers, 0, base, [suit_frontier(base[s], wild, has_w[s], n_jokers, vals) for s in range(4)])

    cases = [(total, 2, "no_pure")]
    if best_pure >= 0:
        cases.append((total - best_pure, 1, "pure_only"))
    if best_cover >= 0:
        cases.append((total - best_cover, 0, "two_sequences"))
    points, _, case = min(cases)
    if not groups:
        return points
    if case == "two_sequences":
        assert best_plan is not None   # the case exists only with a cover, and its plan
        grouped, loose = plan_cards(best_plan, counts, own_w, printed, wild)
    elif case == "pure_only":
        grouped, loose = pure_only_cards(base, has_w, own_w, cards, wild, vals, best_pure)
    else:
        grouped, loose = (), sorted_cards(cards)
    return Solution(points, grouped, loose, case)


#: (sorted card codes, wild, high) -> least points: the collusion signals and the bots ask
#: for the same hands again and again within a turn (a pick's use, the discard after it, the
#: feed's reference discard), so the points are memoised (bounded, emptied when full)
_POINTS: dict[tuple[tuple[int, ...], int | None, int], int] = {}
_POINTS_LIMIT = 200_000


def min_points(cards: Sequence[Card], wild: int | None, *, high: int = HIGH_CARD_POINTS) -> int:
    """Just the least points (R-12, D-22): :func:`solve`'s number without its grouping,
    memoised on the cards as a multiset (two equal cards of a two-deck shoe are alike)."""
    key = (tuple(sorted(c.code for c in cards)), wild, high)
    try:
        return _POINTS[key]
    except KeyError:
        pass
    points = _search(cards, wild, high, groups=False)
    assert isinstance(points, int)
    if len(_POINTS) >= _POINTS_LIMIT:
        _POINTS.clear()
    _POINTS[key] = points
    return points


def best_discard(cards: Sequence[Card], wild: int | None, *, high: int = HIGH_CARD_POINTS) -> tuple[int, Card]:
    """The least points ``cards`` leave after one discard, and that discard: among equals the
    card worth the most points, then the lowest code (a function of ``cards`` alone).

    Exact, with fewer searches than trying every card: laying the discard ``x`` back as a
    loose card turns any arrangement of ``cards - x`` into one of ``cards``, so
    ``min_points(cards) <= min_points(cards - x) + points(x)``.  Trying the cards from the
    most points down, a card whose bound ``min_points(cards) - points(x)`` is no better
    than the best found cannot beat it, nor can any card after it (a tie loses to the card
    found first, which is worth at least as much or has the lower code)."""
    whole = min_points(cards, wild, high=high)
    order = sorted({c.code: (i, c) for i, c in enumerate(cards)}.values(),
                   key=lambda ic: (-card_points(ic[1], wild, high=high), ic[1].code))
    best: tuple[int, Card] | None = None
    for i, card in order:
        if best is not None and whole - card_points(card, wild, high=high) >= best[0]:
            break
        pts = min_points(tuple(cards[:i]) + tuple(cards[i + 1:]), wild, high=high)
        if best is None or pts < best[0]:
            best = (pts, card)
    if best is None:
        raise ValueError("no card to discard")
    return best


def clear_caches() -> None:
    """Forget the memoised points and suit frontiers (for benchmarks that want a cold start)."""
    _POINTS.clear()
    clear_suit_caches()
