"""Per-suit frontiers of the rummy solver (:mod:`replay.rummy.solver`, step 2 of its search).

Sequences live in one suit, so once the sets are chosen the suits are independent.  Each
suit's rank-count vector gets a *frontier*: for every (jokers used, sequences made (capped
at 2), has a pure one) the most points it can cover, keeping only the entries no other
beats on every count.  Counts are indexed by *position* (:mod:`replay.melds`): 1 .. 13,
and 14 for an Ace moved high; index 0 is unused.  Frontiers are memoised on the count
vector (the caches are bounded and :func:`clear_caches` empties them).
"""
from __future__ import annotations

from typing import Iterator, TypeVar

__all__ = ["clear_caches", "point_values", "nonpure_frontier", "pure_runs", "has_pure_run",
           "suit_frontier"]

#: one suit's naturals held at each position (index 0 unused; 14 an Ace moved high)
Counts = tuple[int, ...]
#: a sequence of one suit: ``(lo, hi, natural positions)`` -- jokers at the other positions
Run = tuple[int, int, tuple[int, ...]]
RunsPlan = tuple[Run, ...]
#: a pure sequence: ``(lo, hi, natural positions, uses the suit's own wild-rank card)``
PureRun = tuple[int, int, tuple[int, ...], bool]
#: what a suit lays: its pure run (or ``None``) and its other runs
SuitPlan = tuple[PureRun | None, RunsPlan]
_Plan = TypeVar("_Plan")
#: a frontier entry: ``(jokers used, counts, value covered, plan)``; the counts are
#: ``(runs,)`` for a frontier of runs, ``(runs, pure)`` for a suit's
Entry = tuple[int, tuple[int, ...], int, _Plan]
#: a suit frontier's entry, flat: ``(jokers used, runs, pure, value, plan)``
FlatEntry = tuple[int, int, int, int, SuitPlan]
#: :func:`suit_frontier`'s answer: the frontier, the best pure run's value (-1: none), the
#: most covered per joker budget, the frontier flat
SuitFrontier = tuple[tuple[Entry[SuitPlan], ...], int, tuple[int, ...], tuple[FlatEntry, ...]]

# (counts15, jcap, high) -> tuple of (k, runs, value, runs_plan)
_NONP: dict[tuple[Counts, int, int], tuple[Entry[RunsPlan], ...]] = {}
# (counts15, wild, own_wild, jcap, high) -> (frontier, best_pure, best value per joker budget, flat frontier)
_SUIT: dict[tuple[Counts, int | None, bool, int, int], SuitFrontier] = {}
# (counts15, wild, own_wild) -> whether the suit holds a pure run at all (a cheap test: a
# smaller table)
_PURE: dict[tuple[Counts, int | None, bool], bool] = {}
_PURE_LIMIT = 50_000
_CACHE_LIMIT = 400_000


def clear_caches() -> None:
    """Forget the memoised suit frontiers (for benchmarks that want a cold start)."""
    _NONP.clear()
    _SUIT.clear()
    _PURE.clear()


def point_values(high: int) -> tuple[int, ...]:
    """Points by position (0 unused; 1 and 14 are the Ace): one tuple per ``high``, kept."""
    vals = _VALS.get(high)
    if vals is None:
        vals = (0, high) + tuple(range(2, 10)) + (high,) * 5
        if len(_VALS) >= 64:
            _VALS.clear()
        _VALS[high] = vals
    return vals


_VALS: dict[int, tuple[int, ...]] = {}


def _by_jokers_then_value(kv: tuple[tuple[int, ...], tuple[int, object]]) -> tuple[int, int]:
    return kv[0][0], -kv[1][0]


def _pareto(best: dict[tuple[int, ...], tuple[int, _Plan]]) -> tuple[Entry[_Plan], ...]:
    """Drop entries that another entry beats on every count (fewer jokers, more runs...).

    ``best`` maps ``(k, runs)`` or ``(k, runs, pure)`` to ``(value, plan)``; the entries kept
    come sorted by jokers used, then by value, highest first (ties in ``best``'s order)."""
    items = sorted(best.items(), key=_by_jokers_then_value)
    kept: list[Entry[_Plan]] = []
    if items and len(items[0][0]) == 2:
        for (k, r), (value, plan) in items:
            for _k2, r2, v2, _p in kept:
                if v2 >= value and r2[0] >= r:
                    break
            else:
                kept.append((k, (r,), value, plan))
        return tuple(kept)
    for (k, r, p), (value, plan) in items:
        for _k2, r2, v2, _p in kept:
            if v2 >= value and r2[0] >= r and r2[1] >= p:
                break
        else:
            kept.append((k, (r, p), value, plan))
    return tuple(kept)


def nonpure_frontier(c: Counts, jcap: int, vals: tuple[int, ...]) -> tuple[Entry[RunsPlan], ...]:
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
        empty: tuple[Entry[RunsPlan], ...] = ((0, (0,), 0, ()),)
        _NONP[key] = empty
        return empty
    best: dict[tuple[int, ...], tuple[int, RunsPlan]] = {}

    def add(entries: tuple[Entry[RunsPlan], ...], dk: int, dr: int, dv: int, run: Run | None) -> None:
        for k, (r,), v, plan in entries:
            nk = k + dk
            if nk > jcap:
                break  # entries come sorted by jokers used
            r += dr
            nkey = (nk, r if r < 2 else 2)
            nv = v + dv
            old = best.get(nkey)
            if old is None or nv > old[0]:
                best[nkey] = (nv, plan + (run,) if run else plan)

    c2 = list(c)
    c2[p] -= 1
    add(nonpure_frontier(tuple(c2), jcap, vals), 0, 0, 0, None)  # p stays loose
    if p == 1:  # an Ace may rather sit high, after the King
        c2[14] += 1
        add(nonpure_frontier(tuple(c2), jcap, vals), 0, 0, 0, None)
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
        add(nonpure_frontier(tuple(c2), jcap, vals), jk, 1, v, (lo, hi, tuple(taken)))
    out = _pareto(best)
    if len(_NONP) > _CACHE_LIMIT:
        _NONP.clear()
    _NONP[key] = out
    return out


def pure_runs(c: Counts, wild: int | None, own_wild: bool) -> Iterator[PureRun]:
    """Every pure run of one suit: ``(lo, hi, natural positions, uses own wild card)``."""
    wpos: tuple[int, ...] = ()
    if wild is not None and own_wild:
        wpos = (1, 14) if wild == 1 else (wild,)
    for lo in range(1, 13):
        if lo not in wpos and not c[lo]:
            continue  # a run starts on a card held (or the own wild card)
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


def has_pure_run(c: Counts, wild: int | None, own_wild: bool) -> bool:
    """Quick test: three consecutive positions held naturally (or by the own wild card)."""
    if not own_wild:
        wild = None  # as in suit_frontier
    key = (c, wild, own_wild)
    hit = _PURE.get(key)
    if hit is None:
        hit = False
        run = 0
        for q in range(1, 15):
            if c[1 if q == 14 else q] or (own_wild and (q == wild or (q == 14 and wild == 1))):
                run += 1
                if run == 3:
                    hit = True
                    break
            else:
                run = 0
        if len(_PURE) > _PURE_LIMIT:
            _PURE.clear()
        _PURE[key] = hit
    return hit


def _best_per_budget(front: tuple[Entry[SuitPlan], ...], jcap: int) -> tuple[int, ...]:
    """For each joker budget 0 .. ``jcap``, the most a frontier (sorted by jokers used) covers."""
    out = []
    best = i = 0
    for cap in range(jcap + 1):
        while i < len(front) and front[i][0] <= cap:
            if front[i][2] > best:
                best = front[i][2]
            i += 1
        out.append(best)
    return tuple(out)


def suit_frontier(c: Counts, wild: int | None, own_wild: bool, jcap: int, vals: tuple[int, ...]) -> SuitFrontier:
    """``((k, (runs, pure), value, (pure_run, runs_plan)), ...)``, the best pure run value,
    for each joker budget 0 .. ``jcap`` the most the frontier covers within it, and the
    frontier again as flat ``(k, runs, pure, value, plan)`` entries (the solver's loop)."""
    if not own_wild:
        wild = None  # without the suit's own wild-rank card the wild rank plays no part here
    key = (c, wild, own_wild, jcap, vals[1])
    hit = _SUIT.get(key)
    if hit is not None:
        return hit
    best: dict[tuple[int, ...], tuple[int, SuitPlan]] = {}
    for k, (r,), v, plan in nonpure_frontier(c, jcap, vals):
        best[(k, r, 0)] = (v, (None, plan))
    best_pure = -1
    for run in pure_runs(c, wild, own_wild):
        nat, uses_w = run[2], run[3]
        c2 = list(c)
        vp = 0
        for q in nat:
            vp += vals[q]
            c2[1 if q == 14 else q] -= 1
        if vp > best_pure:
            best_pure = vp
        kp = 1 if uses_w else 0
        if kp > jcap:
            continue
        for k, (r,), v, plan in nonpure_frontier(tuple(c2), jcap, vals):
            k += kp
            if k > jcap:
                break
            nkey = (k, r + 1 if r < 2 else 2, 1)
            nv = v + vp
            old = best.get(nkey)
            if old is None or nv > old[0]:
                best[nkey] = (nv, (run, plan))
    front = _pareto(best)
    out = (front, best_pure, _best_per_budget(front, jcap),
           tuple((k, r, p, v, plan) for k, (r, p), v, plan in front))
    if len(_SUIT) > _CACHE_LIMIT:
        _SUIT.clear()
    _SUIT[key] = out
    return out
