/**
 * The cards of the rummy solver's best plan: its groups and loose cards, exactly as
 * replay/rummy/grouping.py.  A plan names sets by rank and suits and sequences by suit and
 * positions (1 .. 14, the Ace low or high); here they become card codes, with jokers lent
 * where a position is not held: wild-rank cards before printed jokers, a suit's own
 * wild-rank card filling its pure run's gap, spare jokers folded into groups where they fit.
 */
import { JOKER_CODE } from "../../cards.mjs";
import { pureRuns } from "./frontiers.mjs";
import { rankOf, suitOf } from "./groups.mjs";

/** Cards in code order (how the solver lists loose cards). */
export function sortedCards(cards) {
  return [...cards].sort((a, b) => a - b);
}

function cardAt(suit, q) {
  return 13 * suit + (q === 14 ? 1 : q) - 1;
}

function runCards(suit, lo, hi, nat, jokers, own = null) {
  const natural = new Set(nat);
  const out = [];
  for (let q = lo; q <= hi; q++) {
    if (natural.has(q)) {
      out.push(cardAt(suit, q));
    } else if (own !== null && rankOf(own) === (q === 14 ? 1 : q)) {
      out.push(own);
      own = null;
    } else {
      if (jokers.length === 0) throw new Error("rummy grouping: no joker left to lend"); // never: the plan counted them
      out.push(jokers.pop());
    }
  }
  return out;
}

/** Groups and loose cards of the winning plan {setChoice, suitPlans, jokerRuns}. */
export function planCards(plan, counts, ownW, printed, wild) {
  const { setChoice, suitPlans, jokerRuns } = plan;
  const poolW = ownW.map((w) => w.slice());
  const groups = [];
  const kinds = [];
  const reserved = new Map();
  for (const [s, [pure]] of suitPlans) {
    if (pure !== null && pure[3]) reserved.set(s, poolW[s].pop());
  }
  const pool = [...printed, ...poolW.flat()];
  pool.sort((a, b) => b - a); // pop() lends wild-rank cards before printed jokers
  for (const [r, sets] of setChoice) {
    for (const sub of sets) {
      const g = sub.map((s) => 13 * s + r - 1);
      while (g.length < 3) g.push(pool.pop());
      groups.push(g);
      kinds.push("set");
    }
  }
  for (const [s, [pure, runs]] of suitPlans) {
    if (pure !== null) {
      const [lo, hi, nat] = pure;
      groups.push(runCards(s, lo, hi, nat, pool, reserved.has(s) ? reserved.get(s) : null));
      kinds.push(kinds.includes("pure") ? "run" : "pure"); // only one must stay pure
    }
    for (const [lo, hi, nat] of runs) {
      groups.push(runCards(s, lo, hi, nat, pool));
      kinds.push("run");
    }
  }
  for (let j = 0; j < jokerRuns; j++) {
    groups.push([pool.pop(), pool.pop(), pool.pop()]);
    kinds.push("run");
  }
  // Fold spare jokers in: into sets of three, then into runs (never the pure one).
  while (pool.length) {
    let placed = false;
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i];
      if ((kinds[i] === "set" && g.length < 4) || (kinds[i] === "run" && g.length < 13)) {
        g.push(pool.pop());
        placed = true;
        break;
      }
    }
    if (placed) continue;
    if (pool.length >= 3) {
      groups.push([pool.pop(), pool.pop(), pool.pop()]);
      kinds.push("run");
    } else {
      break;
    }
  }
  return { groups, loose: [...sortedCards(pool), ...looseNaturals(counts, groups, wild)] };
}

/** The naturals (counted by suit and rank in `counts`) no group holds, in code order. */
function looseNaturals(counts, groups, wild) {
  const remaining = counts.map((c) => c.slice());
  for (const g of groups) {
    for (const code of g) {
      if (code < JOKER_CODE && rankOf(code) !== wild) remaining[suitOf(code)][rankOf(code)] -= 1;
    }
  }
  const out = [];
  for (let s = 0; s < 4; s++) {
    for (let r = 1; r < 14; r++) {
      const n = remaining[s][r];
      if (n < 0) throw new Error("rummy grouping: a group holds a card the hand does not"); // never
      for (let i = 0; i < n; i++) out.push(13 * s + r - 1);
    }
  }
  return out;
}

/** The "pure only" case: the first best pure run found, and every other card loose. */
export function pureOnlyCards(base, hasW, ownW, cards, wild, vals, bestPure) {
  for (let s = 0; s < 4; s++) {
    for (const [lo, hi, nat, usesW] of pureRuns(base[s], wild, hasW[s])) {
      if (nat.reduce((a, q) => a + vals[q], 0) === bestPure) {
        const own = usesW ? ownW[s][0] : null;
        const run = runCards(s, lo, hi, nat, [], own);
        const rest = [...cards];
        for (const c of run) rest.splice(rest.indexOf(c), 1);
        return { groups: [run], loose: sortedCards(rest) };
      }
    }
  }
  throw new Error("rummy grouping: best pure run not found"); // never
}
