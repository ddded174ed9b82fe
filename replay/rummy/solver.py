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
3. The four frontiers are combined under the joker budget; spare jokers in threes make
   extra (impure) sequences.  The best combination over all set choices wins.

Everything here is exact; ``tests/rummy/test_rummy_solver.py`` checks it against a plain
exhaustive search.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Sequence

from ..cards import JOKER_CODE, RANK_OF, SUIT_OF, Card, card_of
from .groups import HIGH_CARD_POINTS, MalformedHandError, is_joker

__all__ = ["Solution", "solve", "min_points", "clear_caches"]

# (counts15, jcap, high) -> tuple of (k, runs, value, runs_plan)
_NONP: dict = {}
# (counts15, wild, own_wild, jcap, high) -> (frontier, best_pure)
_SUIT: dict = {}
_CACHE_LIMIT = 400_000


def clear_caches() -> None:
    """Forget the memoised suit frontiers (for benchmarks that want a cold start)."""
    _NONP.clear()
    _SUIT.clear()


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

    def to_json(self) -> dict:
        return {"points": self.points, "groups": [[str(c) for c in g] for g in self.groups],
                "loose": [str(c) for c in self.loose]}


def _values(high: int) -> tuple[int, ...]:
    # position 0 unused; 1 and 14 are the Ace
    return (0, high) + tuple(range(2, 10)) + (high,) * 5


def _pareto(best: dict) -> tuple:
    """Drop entries that another entry beats on every count (fewer jokers, more runs...)."""
    items = sorted(best.items(), key=lambda kv: (kv[0][0], -kv[1][0]))
    kept: list = []
    for key, (value, plan) in items:
        k, runs = key[0], key[1:]
        if any(v2 >= value and all(a >= b for a, b in zip(r2, runs)) for (_k2, r2, v2, _p) in kept):
            continue
        kept.append((k, runs, value, plan))
    return tuple(kept)


def _nonpure(c: tuple, jcap: int, vals: tuple) -> tuple:
    """Frontier of the runs of one suit (no designated pure run): ``(k, runs, value, plan)``.

    ``c`` counts naturals at positions 1..14 (index 0 unused; high Aces sit at 14 once
    moved there).  ``plan`` lists runs as ``(lo, hi, natural positions)``.
    """
    key = (c, jcap, vals[1])
    hit = _NONP.get(key)
    if hit is not None:
        return hit
    p = 1
    while p < 15 and not c[p]:
        p += 1
    if p == 15:
        out = ((0, (0,), 0, ()),)
        _NONP[key] = out
        return out
    best: dict = {}

    def add(entries, dk, dr, dv, run):
        for k, (r,), v, plan in entries:
            nk = k + dk
            if nk > jcap:
                break  # entries come sorted by jokers used
            nkey = (nk, min(2, r + dr))
            nv = v + dv
            old = best.get(nkey)
            if old is None or nv > old[0]:
                best[nkey] = (nv, plan + (run,) if run else plan)

    c2 = list(c)
    c2[p] -= 1
    add(_nonpure(tuple(c2), jcap, vals), 0, 0, 0, None)  # p stays loose
    if p == 1:  # an Ace may rather sit high, after the King
        c2[14] += 1
        add(_nonpure(tuple(c2), jcap, vals), 0, 0, 0, None)
    # p is the lowest natural of a run: grow it upward (a King or a high Ace pads down).
    lo = p if p <= 12 else 12
    c2 = list(c)
    taken: list[int] = []
    jk = v = 0
    for hi in range(lo, 15):
        if c2[hi]:
            c2[hi] -= 1
            taken.append(hi)
            v += vals[hi]
        else:
            jk += 1
            if jk > jcap:
                break  # longer spans only need more jokers
        if hi < lo + 2 or (hi > lo + 2 and taken[-1] != hi):
            continue  # too short, or a trailing joker past the minimum length (never helps)
        add(_nonpure(tuple(c2), jcap, vals), jk, 1, v, (lo, hi, tuple(taken)))
    out = tuple((k, runs, v, plan) for k, runs, v, plan in _pareto(best))
    if len(_NONP) > _CACHE_LIMIT:
        _NONP.clear()
    _NONP[key] = out
    return out


def _pure_runs(c: tuple, wild: int | None, own_wild: bool):
    """Every pure run of one suit: ``(lo, hi, natural positions, uses own wild card)``."""
    wpos = set()
    if wild is not None and own_wild:
        wpos = {1, 14} if wild == 1 else {wild}
    for lo in range(1, 13):
        nat = []
        uses_w = False
        for hi in range(lo, min(lo + 12, 14) + 1):
            if hi in wpos:
                if uses_w:
                    break
                uses_w = True
            elif c[1 if hi == 14 else hi]:
                nat.append(hi)
            else:
                break
            if hi - lo >= 2:
                yield lo, hi, tuple(nat), uses_w


def _has_pure_run(c: tuple, wild: int | None, own_wild: bool) -> bool:
    """Quick test: three consecutive positions held naturally (or by the own wild card)."""
    run = 0
    for q in range(1, 15):
        if c[1 if q == 14 else q] or (own_wild and (q == wild or (q == 14 and wild == 1))):
            run += 1
            if run == 3:
                return True
        else:
            run = 0
    return False


def _suit_frontier(c: tuple, wild: int | None, own_wild: bool, jcap: int, vals: tuple):
    """``((k, (runs, pure), value, (pure_run, runs_plan)), ...)`` and the best pure run value."""
    key = (c, wild, own_wild, jcap, vals[1])
    hit = _SUIT.get(key)
    if hit is not None:
        return hit
    best: dict = {}
    for k, (r,), v, plan in _nonpure(c, jcap, vals):
        best[(k, r, 0)] = (v, (None, plan))
    best_pure = -1
    for lo, hi, nat, uses_w in _pure_runs(c, wild, own_wild):
        vp = sum(vals[q] for q in nat)
        best_pure = max(best_pure, vp)
        kp = 1 if uses_w else 0
        if kp > jcap:
            continue
        c2 = list(c)
        for q in nat:
            c2[1 if q == 14 else q] -= 1
        for k, (r,), v, plan in _nonpure(tuple(c2), jcap, vals):
            if k + kp > jcap:
                break
            nkey = (k + kp, min(2, r + 1), 1)
            nv = v + vp
            old = best.get(nkey)
            if old is None or nv > old[0]:
                best[nkey] = (nv, ((lo, hi, nat, uses_w), plan))
    out = (_pareto(best), best_pure)
    if len(_SUIT) > _CACHE_LIMIT:
        _SUIT.clear()
    _SUIT[key] = out
    return out


def _rank_options(avail: dict[int, int]) -> list[tuple[tuple[int, ...], ...]]:
    """Every way to lay sets from one rank's naturals (suit -> copies held)."""
    suits = sorted(avail)
    subsets = [s for n in range(2, min(4, len(suits)) + 1) for s in combinations(suits, n)]
    out: list = []

    def rec(start: int, used: dict, chosen: tuple) -> None:
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


def solve(cards: Sequence[Card], wild: int | None, *, high: int = HIGH_CARD_POINTS) -> Solution:
    """The least points ``cards`` can count with wild rank ``wild`` (``None``: printed
    jokers only), and one grouping that reaches them.  Works for any number of cards."""
    vals = _values(high)
    counts = [[0] * 15 for _ in range(4)]
    own_w = [[] for _ in range(4)]
    printed: list[Card] = []
    total = 0
    for card in cards:
        code = card.code
        if code == JOKER_CODE:
            printed.append(card)
            continue
        if code > JOKER_CODE:
            raise MalformedHandError(f"{card} is not a rummy card")
        rank, suit = RANK_OF[code], SUIT_OF[code]
        if rank == wild:
            own_w[suit].append(card)
        else:
            counts[suit][rank] += 1
            total += vals[rank]
    n_jokers = len(printed) + sum(map(len, own_w))
    base = [tuple(c) for c in counts]
    has_w = [bool(w) for w in own_w]

    # R-15, middle case: the best single pure run.  No pure run at all: every card counts.
    best_pure = -1
    for s in range(4):
        if _has_pure_run(base[s], wild, has_w[s]):
            best_pure = max(best_pure, _suit_frontier(base[s], wild, has_w[s], n_jokers, vals)[1])
    if best_pure < 0:
        return Solution(total, (), _sorted(cards), "no_pure")

    # Set options per rank (ranks held in two or more suits).
    rank_opts = []
    for r in range(1, 14):
        avail = {s: counts[s][r] for s in range(4) if counts[s][r]}
        if len(avail) >= 2:
            rank_opts.append((r, _rank_options(avail)))

    best_cover = -1
    best_plan = None
    choice: list = []

    def evaluate_sets() -> None:
        nonlocal best_cover, best_plan
        js = 0
        sv = 0
        cs = [list(b) for b in base]
        for r, sets in choice:
            for sub in sets:
                if len(sub) < 3:
                    js += 3 - len(sub)
                sv += vals[r] * len(sub)
                for s in sub:
                    cs[s][r] -= 1
        cap = n_jokers - js
        if cap < 0:
            return
        fronts = [_suit_frontier(tuple(cs[s]), wild, has_w[s], n_jokers, vals)[0] for s in range(4)]
        # Bound: even the best of every suit together cannot beat what we have.
        if sv + sum(max(e[2] for e in f if e[0] <= cap) for f in fronts) <= best_cover:
            return
        states = {(0, 0, 0): (0, ())}
        for s in range(4):
            front = fronts[s]
            if len(front) == 1 and not front[0][0] and not front[0][1][0]:
                continue  # nothing to lay in this suit
            new: dict = {}
            for (k, r, p), (v, plans) in states.items():
                for k2, (r2, p2), v2, plan in front:
                    nk = k + k2
                    if nk > cap:
                        break  # frontier entries come sorted by jokers used
                    key = (nk, min(2, r + r2), p | p2)
                    nv = v + v2
                    old = new.get(key)
                    if old is None or nv > old[0]:
                        new[key] = (nv, plans + ((s, plan),))
            states = new
        for (k, r, p), (v, plans) in states.items():
            extra = (cap - k) // 3
            if p and r + extra >= 2 and sv + v > best_cover:
                best_cover = sv + v
                best_plan = (tuple(choice), plans, max(0, 2 - r), js + k)

    def rec(i: int, jokers_left: int) -> None:
        if best_cover == total:
            return  # nothing left to gain
        if i == len(rank_opts):
            evaluate_sets()
            return
        r, opts = rank_opts[i]
        for sets in opts:
            need = sum(3 - len(s) for s in sets if len(s) < 3)
            if need <= jokers_left:
                choice.append((r, sets))
                rec(i + 1, jokers_left - need)
                choice.pop()

    rec(0, n_jokers)

    cases = [(total, 2, "no_pure")]
    if best_pure >= 0:
        cases.append((total - best_pure, 1, "pure_only"))
    if best_cover >= 0:
        cases.append((total - best_cover, 0, "two_sequences"))
    points, _, case = min(cases)
    if case == "two_sequences":
        groups, loose = _build(best_plan, counts, own_w, printed, wild)
    elif case == "pure_only":
        groups, loose = _build_pure_only(base, has_w, own_w, cards, wild, vals, best_pure)
    else:
        groups, loose = (), _sorted(cards)
    return Solution(points, groups, loose, case)


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_CODE))


def _CODE(card: Card) -> int:
    return card.code


def min_points(cards: Sequence[Card], wild: int | None, *, high: int = HIGH_CARD_POINTS) -> int:
    """Just the least points (R-12, D-22)."""
    return solve(cards, wild, high=high).points


def _run_cards(suit: int, lo: int, hi: int, nat: Iterable[int], jokers: list[Card],
               own: Card | None = None) -> list[Card]:
    nat = set(nat)
    out = []
    for q in range(lo, hi + 1):
        if q in nat:
            out.append(card_of(1 if q == 14 else q, suit))
        elif own is not None and RANK_OF[own.code] == (1 if q == 14 else q):
            out.append(own)
            own = None
        else:
            out.append(jokers.pop())
    return out


def _build(plan, counts, own_w, printed, wild):
    """Cards of the winning plan; spare jokers are folded into groups where they fit."""
    set_choice, suit_plans, joker_runs, _k = plan
    pool_w = [list(w) for w in own_w]
    groups: list[list[Card]] = []
    kinds: list[str] = []
    pure_runs = []
    for _s, (pure, _runs) in suit_plans:
        if pure is not None and pure[3]:
            pure_runs.append(_s)
    reserved = {s: pool_w[s].pop() for s in pure_runs}
    pool = list(printed) + [c for w in pool_w for c in w]
    pool.sort(key=lambda c: c.code, reverse=True)  # pop() lends wild-rank cards before printed jokers
    for r, sets in set_choice:
        for sub in sets:
            g = [card_of(r, s) for s in sub]
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
    return groups_t, _sorted(pool) + _loose_naturals(counts, groups_t, wild)


def _loose_naturals(counts, groups, wild) -> tuple[Card, ...]:
    remaining = [list(c) for c in counts]
    for g in groups:
        for card in g:
            if card.code < JOKER_CODE and not is_joker(card, wild):
                remaining[SUIT_OF[card.code]][RANK_OF[card.code]] -= 1
    out = []
    for s in range(4):
        for r in range(1, 14):
            out.extend([card_of(r, s)] * remaining[s][r])
    assert all(x >= 0 for row in remaining for x in row[1:14])
    return _sorted(out)


def _build_pure_only(base, has_w, own_w, cards, wild, vals, best_pure):
    for s in range(4):
        for lo, hi, nat, uses_w in _pure_runs(base[s], wild, has_w[s]):
            if sum(vals[q] for q in nat) == best_pure:
                own = own_w[s][0] if uses_w else None
                run = tuple(_run_cards(s, lo, hi, nat, [], own))
                rest = list(cards)
                for c in run:
                    rest.remove(c)
                return (run,), _sorted(rest)
    raise AssertionError("best pure run not found")  # pragma: no cover
