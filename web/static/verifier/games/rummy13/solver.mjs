/**
 * The least points a rummy hand can count, and one grouping that reaches them (R-12..R-15,
 * D-22), exactly as replay/rummy/solver.py: the same search in the same order, so the same
 * points AND the same groups and loose cards (an outcome's breakdown shows them).
 *
 * The minimum of three cases, T the points of every card: no pure sequence
 * -- T; a pure sequence but no second sequence -- T minus the best pure run; two sequences,
 * one pure -- T minus the best cover by disjoint groups.  Sets are enumerated rank by rank,
 * then each suit's frontier (frontiers.mjs) is combined under the joker budget.
 */
import { JOKER_CODE } from "../../cards.mjs";
import { ReplayError } from "../errors.mjs";
import { hasPureRun, pointValues, suitFrontier } from "./frontiers.mjs";
import { planCards, pureOnlyCards, sortedCards } from "./grouping.mjs";
import { HIGH_CARD_POINTS } from "./groups.mjs";

export const TWO_SEQUENCES = "two_sequences";
export const PURE_ONLY = "pure_only";
export const NO_PURE = "no_pure";

function combinations(items, n) {
  const out = [];
  const rec = (start, chosen) => {
    if (chosen.length === n) {
      out.push(chosen.slice());
      return;
    }
    for (let i = start; i < items.length; i++) {
      chosen.push(items[i]);
      rec(i + 1, chosen);
      chosen.pop();
    }
  };
  rec(0, []);
  return out;
}

/** Every way to lay sets from one rank's naturals (suit -> copies held), in the Python's order. */
function rankOptions(avail) {
  const suits = [...avail.keys()].sort((a, b) => a - b);
  const subsets = [];
  for (let n = 2; n <= Math.min(4, suits.length); n++) subsets.push(...combinations(suits, n));
  const out = [];
  const rec = (start, used, chosen) => {
    out.push(chosen);
    for (let i = start; i < subsets.length; i++) {
      const sub = subsets[i];
      if (sub.every((s) => (used.get(s) ?? 0) < avail.get(s))) {
        const u = new Map(used);
        for (const s of sub) u.set(s, (u.get(s) ?? 0) + 1);
        rec(i, u, [...chosen, sub]);
      }
    }
  };
  rec(0, new Map(), []);
  return out;
}

const OPTIONS = new Map();

/** A rank's set options: [{sets, need (jokers), laid (naturals), perSuit: [[suit, n] ...]}], null if no set. */
function rankPlans(copies) {
  const key = copies.join(",");
  if (OPTIONS.has(key)) return OPTIONS.get(key);
  const avail = new Map();
  copies.forEach((n, s) => { if (n) avail.set(s, n); });
  let hit = null;
  if (avail.size >= 2) {
    hit = rankOptions(avail).map((sets) => {
      const perSuit = new Map();
      for (const sub of sets) for (const s of sub) perSuit.set(s, (perSuit.get(s) ?? 0) + 1);
      return {
        sets,
        need: sets.reduce((a, sub) => a + (sub.length < 3 ? 3 - sub.length : 0), 0),
        laid: sets.reduce((a, sub) => a + sub.length, 0),
        perSuit: [...perSuit.entries()].sort((a, b) => a[0] - b[0]),
      };
    });
  }
  if (OPTIONS.size >= 4096) OPTIONS.clear();
  OPTIONS.set(key, hit);
  return hit;
}

/**
 * {points, groups: code[][], loose: code[], case} for `cards` (codes) with wild rank
 * `wild` (null: printed jokers only).
 */
export function solve(cards, wild, high = HIGH_CARD_POINTS) {
  const vals = pointValues(high);
  const counts = [0, 1, 2, 3].map(() => new Array(15).fill(0));
  const ownW = [[], [], [], []];
  const printed = [];
  let total = 0;
  const suitsAt = new Array(14).fill(0); // per rank, a bit for each suit holding it naturally
  for (const code of cards) {
    if (code >= JOKER_CODE) {
      if (code === JOKER_CODE) {
        printed.push(code);
        continue;
      }
      throw new ReplayError("malformed", "the master card is not a rummy card"); // MalformedHandError
    }
    const rank = (code % 13) + 1;
    const suit = Math.floor(code / 13);
    if (rank === wild) {
      ownW[suit].push(code);
    } else {
      counts[suit][rank] += 1;
      total += vals[rank];
      suitsAt[rank] |= 1 << suit;
    }
  }
  const nJokers = printed.length + ownW.reduce((a, w) => a + w.length, 0);
  const base = counts.map((c) => c.slice());
  const hasW = ownW.map((w) => w.length > 0);

  // R-15, middle case: the best single pure run.  No pure run at all: every card counts.
  let bestPure = -1;
  for (let s = 0; s < 4; s++) {
    if (hasPureRun(base[s], wild, hasW[s])) {
      bestPure = Math.max(bestPure, suitFrontier(base[s], wild, hasW[s], nJokers, vals).bestPure);
    }
  }
  if (bestPure < 0) return { points: total, groups: [], loose: sortedCards(cards), case: NO_PURE };

  const rankOpts = [];
  for (let r = 1; r < 14; r++) {
    const bits = suitsAt[r];
    if (bits & (bits - 1)) rankOpts.push([r, rankPlans([counts[0][r], counts[1][r], counts[2][r], counts[3][r]])]);
  }
  const nRanks = rankOpts.length;
  const later = new Array(nRanks + 1).fill(0);
  for (let i = nRanks - 1; i >= 0; i--) {
    const [r, plans] = rankOpts[i];
    later[i] = later[i + 1] + vals[r] * Math.max(...plans.map((p) => p.laid));
  }

  let bestCover = -1;
  let bestPlan = null;
  const choice = [];

  const evaluateSets = (cap, sv, fronts) => {
    if (sv + fronts[0].perBudget[cap] + fronts[1].perBudget[cap] + fronts[2].perBudget[cap]
        + fronts[3].perBudget[cap] <= bestCover) return;
    let states = new Map([[0, { k: 0, r: 0, p: 0, v: 0, plans: [] }]]);
    for (let s = 0; s < 4; s++) {
      const front = fronts[s].front;
      if (front.length === 1 && !front[0].k && !front[0].r) continue; // nothing to lay in this suit
      const next = new Map();
      for (const st of states.values()) {
        for (const e of front) {
          const nk = st.k + e.k;
          if (nk > cap) break; // frontier entries come sorted by jokers used
          const r2 = e.r + st.r;
          const nr = r2 < 2 ? r2 : 2;
          const np = st.p | e.p;
          const key = (nk * 3 + nr) * 2 + np;
          const nv = st.v + e.v;
          const old = next.get(key);
          if (old === undefined) next.set(key, { k: nk, r: nr, p: np, v: nv, plans: [...st.plans, [s, e.plan]] });
          else if (nv > old.v) { old.v = nv; old.plans = [...st.plans, [s, e.plan]]; }
        }
      }
      states = next;
    }
    for (const st of states.values()) {
      if (st.p && sv + st.v > bestCover && st.r + Math.floor((cap - st.k) / 3) >= 2) { // spare jokers in threes: runs
        bestCover = sv + st.v;
        bestPlan = { setChoice: choice.slice(), suitPlans: st.plans, jokerRuns: Math.max(0, 2 - st.r) };
      }
    }
  };

  const rec = (i, jokersLeft, sv, cs, fronts) => {
    if (bestCover === total) return; // nothing left to gain
    if (i === nRanks) {
      evaluateSets(jokersLeft, sv, fronts);
      return;
    }
    if (sv + later[i] + fronts[0].perBudget[jokersLeft] + fronts[1].perBudget[jokersLeft]
        + fronts[2].perBudget[jokersLeft] + fronts[3].perBudget[jokersLeft] <= bestCover) return;
    const [r, opts] = rankOpts[i];
    for (const { sets, need, laid, perSuit } of opts) {
      if (need <= jokersLeft) {
        choice.push([r, sets]);
        if (laid) { // only the suits the sets take from change
          const left = cs.slice();
          const lf = fronts.slice();
          for (const [s, n] of perSuit) {
            const c = left[s].slice();
            c[r] -= n;
            left[s] = c;
            lf[s] = suitFrontier(c, wild, hasW[s], nJokers, vals);
          }
          rec(i + 1, jokersLeft - need, sv + vals[r] * laid, left, lf);
        } else {
          rec(i + 1, jokersLeft, sv, cs, fronts);
        }
        choice.pop();
      }
    }
  };

  rec(0, nJokers, 0, base, [0, 1, 2, 3].map((s) => suitFrontier(base[s], wild, hasW[s], nJokers, vals)));

  // min over (points, case order): two sequences, then pure only, then no pure
  let points = total;
  let kase = NO_PURE;
  if (total - bestPure <= points) { points = total - bestPure; kase = PURE_ONLY; }
  if (bestCover >= 0 && total - bestCover <= points) { points = total - bestCover; kase = TWO_SEQUENCES; }
  if (kase === TWO_SEQUENCES) {
    const { groups, loose } = planCards(bestPlan, counts, ownW, printed, wild);
    return { points, groups, loose, case: kase };
  }
  if (kase === PURE_ONLY) {
    const { groups, loose } = pureOnlyCards(base, hasW, ownW, cards, wild, vals, bestPure);
    return { points, groups, loose, case: kase };
  }
  return { points, groups: [], loose: sortedCards(cards), case: kase };
}

/** Whether a solution is a valid declaration: every card grouped, two sequences, one pure. */
export function isComplete(solution) {
  return solution.case === TWO_SEQUENCES && solution.loose.length === 0;
}
