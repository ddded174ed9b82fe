/**
 * Per-suit frontiers of the rummy solver, exactly as replay/rummy/frontiers.py (step 2 of
 * the search in solver.mjs; docs/rummy13.md).
 *
 * Sequences live in one suit, so once the sets are chosen the suits are independent.  A
 * suit's counts `c` (naturals at positions 1..14, index 0 unused, 14 an Ace moved high)
 * get a *frontier*: for every (jokers used, sequences made (capped at 2), has a pure one)
 * the most points it can cover, keeping only the entries no other beats on every count.
 * Entries come sorted by jokers used, then by value (highest first), ties in the order
 * found -- the order the Python lists them, so the solver picks the same grouping.
 * Memoised on the count vector (bounded caches; the results never depend on them).
 */
const NONP = new Map();
const SUIT = new Map();
const PURE = new Map();
const PURE_LIMIT = 50_000;
const CACHE_LIMIT = 400_000;

/** Points by position (0 unused; 1 and 14 are the Ace), R-13. */
export function pointValues(high) {
  return [0, high, 2, 3, 4, 5, 6, 7, 8, 9, high, high, high, high, high];
}

/** Stable sort by (jokers used, -value), then drop entries another beats on every count. */
function pareto(best, withPure) {
  const items = [...best.values()];
  items.sort((a, b) => a.k - b.k || b.v - a.v);
  const kept = [];
  for (const e of items) {
    let beaten = false;
    for (const o of kept) {
      if (o.v >= e.v && o.r >= e.r && (!withPure || o.p >= e.p)) {
        beaten = true;
        break;
      }
    }
    if (!beaten) kept.push(e);
  }
  return kept;
}

/**
 * Frontier of the runs of one suit with no designated pure run: [{k, r, v, plan}], plan
 * a list of runs [lo, hi, natural positions].
 */
export function nonpureFrontier(c, jcap, vals) {
  const key = `${c.join(",")}|${jcap}|${vals[1]}`;
  const hit = NONP.get(key);
  if (hit !== undefined) return hit;
  let p = 1;
  while (p < 15 && !c[p]) p++;
  if (p === 15) {
    const out = [{ k: 0, r: 0, v: 0, plan: [] }];
    NONP.set(key, out);
    return out;
  }
  const best = new Map(); // (k, runs) -> {k, r, v, plan}, in insertion order

  const add = (entries, dk, dr, dv, run) => {
    for (const e of entries) {
      const nk = e.k + dk;
      if (nk > jcap) break; // entries come sorted by jokers used
      const r = e.r + dr;
      const nr = r < 2 ? r : 2;
      const nkey = nk * 3 + nr;
      const nv = e.v + dv;
      const old = best.get(nkey);
      if (old === undefined) best.set(nkey, { k: nk, r: nr, v: nv, plan: run ? [...e.plan, run] : e.plan });
      else if (nv > old.v) { old.v = nv; old.plan = run ? [...e.plan, run] : e.plan; }
    }
  };

  let c2 = c.slice();
  c2[p] -= 1;
  add(nonpureFrontier(c2, jcap, vals), 0, 0, 0, null); // p stays loose
  if (p === 1) { // an Ace may rather sit high, after the King
    c2 = c2.slice();
    c2[14] += 1;
    add(nonpureFrontier(c2, jcap, vals), 0, 0, 0, null);
  }
  // p is the lowest natural of a run: grow it upward (a King or a high Ace pads down).
  const lo = p <= 12 ? p : 12;
  c2 = c.slice();
  const taken = [];
  let jk = 0;
  let v = 0;
  for (let hi = lo; hi < 15; hi++) {
    if (c2[hi]) {
      c2[hi] -= 1;
      taken.push(hi);
      v += vals[hi];
    } else {
      jk += 1;
      if (jk > jcap) break; // longer spans only need more jokers
    }
    if (hi < lo + 2 || (hi > lo + 2 && taken[taken.length - 1] !== hi)) continue;
    add(nonpureFrontier(c2.slice(), jcap, vals), jk, 1, v, [lo, hi, taken.slice()]);
  }
  const out = pareto(best, false);
  if (NONP.size > CACHE_LIMIT) NONP.clear();
  NONP.set(key, out);
  return out;
}

/** Every pure run of one suit: [lo, hi, natural positions, uses its own wild card]. */
export function pureRuns(c, wild, ownWild) {
  let wpos = [];
  if (wild !== null && ownWild) wpos = wild === 1 ? [1, 14] : [wild];
  const out = [];
  for (let lo = 1; lo < 13; lo++) {
    if (!wpos.includes(lo) && !c[lo]) continue; // a run starts on a card held (or the own wild card)
    const nat = [];
    let usesW = false;
    const top = Math.min(lo + 12, 14);
    for (let hi = lo; hi <= top; hi++) {
      if (wpos.includes(hi)) {
        if (usesW) break;
        usesW = true;
      } else if (c[hi === 14 ? 1 : hi]) {
        nat.push(hi);
      } else {
        break;
      }
      if (hi - lo >= 2) out.push([lo, hi, nat.slice(), usesW]);
    }
  }
  return out;
}

/** Whether three consecutive positions are held naturally (or by the suit's own wild card). */
export function hasPureRun(c, wild, ownWild) {
  if (!ownWild) wild = null;
  const key = `${c.join(",")}|${wild}|${ownWild}`;
  let hit = PURE.get(key);
  if (hit === undefined) {
    hit = false;
    let run = 0;
    for (let q = 1; q < 15; q++) {
      if (c[q === 14 ? 1 : q] || (ownWild && (q === wild || (q === 14 && wild === 1)))) {
        run += 1;
        if (run === 3) {
          hit = true;
          break;
        }
      } else {
        run = 0;
      }
    }
    if (PURE.size > PURE_LIMIT) PURE.clear();
    PURE.set(key, hit);
  }
  return hit;
}

function bestPerBudget(front, jcap) {
  const out = [];
  let best = 0;
  let i = 0;
  for (let cap = 0; cap <= jcap; cap++) {
    while (i < front.length && front[i].k <= cap) {
      if (front[i].v > best) best = front[i].v;
      i++;
    }
    out.push(best);
  }
  return out;
}

/**
 * One suit's frontier with its designated pure run: {front: [{k, r, p, v, plan: [pureRun |
 * null, runs]}], bestPure, perBudget (the most covered within each joker budget 0..jcap)}.
 */
export function suitFrontier(c, wild, ownWild, jcap, vals) {
  if (!ownWild) wild = null; // without the suit's own wild-rank card the wild rank plays no part here
  const key = `${c.join(",")}|${wild}|${ownWild}|${jcap}|${vals[1]}`;
  const hit = SUIT.get(key);
  if (hit !== undefined) return hit;
  const best = new Map(); // (k, runs, pure) -> {k, r, p, v, plan}
  for (const e of nonpureFrontier(c, jcap, vals)) {
    best.set((e.k * 3 + e.r) * 2, { k: e.k, r: e.r, p: 0, v: e.v, plan: [null, e.plan] });
  }
  let bestPure = -1;
  for (const run of pureRuns(c, wild, ownWild)) {
    const nat = run[2];
    const usesW = run[3];
    const c2 = c.slice();
    let vp = 0;
    for (const q of nat) {
      vp += vals[q];
      c2[q === 14 ? 1 : q] -= 1;
    }
    if (vp > bestPure) bestPure = vp;
    const kp = usesW ? 1 : 0;
    if (kp > jcap) continue;
    for (const e of nonpureFrontier(c2, jcap, vals)) {
      const k = e.k + kp;
      if (k > jcap) break;
      const r = e.r < 2 ? e.r + 1 : 2;
      const nkey = (k * 3 + r) * 2 + 1;
      const nv = e.v + vp;
      const old = best.get(nkey);
      if (old === undefined) best.set(nkey, { k, r, p: 1, v: nv, plan: [run, e.plan] });
      else if (nv > old.v) { old.v = nv; old.plan = [run, e.plan]; }
    }
  }
  const front = pareto(best, true);
  const out = { front, bestPure, perBudget: bestPerBudget(front, jcap) };
  if (SUIT.size > CACHE_LIMIT) SUIT.clear();
  SUIT.set(key, out);
  return out;
}
