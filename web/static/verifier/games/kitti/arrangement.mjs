/**
 * Kitti arrangements: nine cards split into three ordered sets (K-2, K-6, K-7, D-16),
 * and the hand properties of K-20 and K-21; exactly as replay/kitti/arrangement.py.
 *
 * hand         a player's nine cards (K-1), as card codes
 * split        a partition of the hand into three sets of three; there are 280 (K-7)
 * arrangement  a split with its sets in round order, legal only strongest first (K-6)
 */
import { JOKER_CODE, cardText } from "../../cards.mjs";
import { ReplayError } from "../errors.mjs";

function combinations(items, k) {
  const out = [];
  const pick = (start, chosen) => {
    if (chosen.length === k) {
      out.push(chosen.slice());
      return;
    }
    for (let i = start; i < items.length; i++) {
      chosen.push(items[i]);
      pick(i + 1, chosen);
      chosen.pop();
    }
  };
  pick(0, []);
  return out;
}

/** The 280 splits of positions 0..8, in replay/kitti/arrangement.py's _split_positions order. */
export const SPLIT_POSITIONS = (() => {
  const out = [];
  const rest0 = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  for (const pair1 of combinations(rest0.slice(1), 2)) {
    const first = [0, ...pair1];
    const rest1 = rest0.filter((p) => !first.includes(p));
    for (const pair2 of combinations(rest1.slice(1), 2)) {
      const second = [rest1[0], ...pair2];
      const third = rest1.filter((p) => !second.includes(p));
      out.push(Object.freeze([...first, ...second, ...third]));
    }
  }
  return Object.freeze(out);
})();

/** The 84 three-position subsets of 0..8 (lexicographic), and each split as three indices into them. */
export const TRIPLES = Object.freeze(combinations([0, 1, 2, 3, 4, 5, 6, 7, 8], 3));
export const SPLIT_TRIPLES = (() => {
  const index = new Map(TRIPLES.map((t, i) => [t.join(","), i]));
  return Object.freeze(SPLIT_POSITIONS.map((p) => Object.freeze([
    index.get(p.slice(0, 3).join(",")), index.get(p.slice(3, 6).join(",")), index.get(p.slice(6, 9).join(","))])));
})();

/**
 * Check an arrangement (three lists of card codes) against the seat's hand; throw
 * ReplayError("illegal_move") naming the rule, as check_arrangement does:
 * not three sets of three, a joker, a card used twice or not held -> K-2;
 * sets not strongest first -> K-6 (D-16).
 */
export function checkArrangement(sets, ranker, hand) {
  if (!Array.isArray(sets) || sets.length !== 3) {
    throw new ReplayError("illegal_move", "an arrangement is exactly three sets", "K-2");
  }
  sets.forEach((s, i) => {
    if (!Array.isArray(s) || s.length !== 3) {
      throw new ReplayError("illegal_move", `set ${i + 1} must hold exactly three cards`, "K-2");
    }
  });
  const flat = sets.flat();
  if (flat.some((c) => c >= JOKER_CODE)) {
    throw new ReplayError("illegal_move", "only the 52 standard cards are in play (D-12)", "K-2");
  }
  const seen = new Set();
  for (const c of flat) {
    if (seen.has(c)) throw new ReplayError("illegal_move", `card ${cardText(c)} is used twice`, "K-2");
    seen.add(c);
  }
  const held = new Set(hand);
  for (const c of flat) {
    if (!held.has(c)) throw new ReplayError("illegal_move", `card ${cardText(c)} is not in the player's hand`, "K-2");
  }
  const keys = sets.map((s) => ranker.key(s[0], s[1], s[2]));
  if (!(keys[0] >= keys[1] && keys[1] >= keys[2])) {
    throw new ReplayError("illegal_move", "sets must be placed strongest first", "K-6");
  }
}

/** K-20: the highest rank held four times (Ace = 14), or null. */
export function fourOfAKind(cards) {
  const counts = new Array(14).fill(0);
  for (const code of cards) if (code < JOKER_CODE) counts[(code % 13) + 1] += 1;
  let best = null;
  for (let r = 1; r <= 13; r++) {
    if (counts[r] === 4) {
      const v = r === 1 ? 14 : r;
      if (best === null || v > best) best = v;
    }
  }
  return best;
}

/** K-21: how many pairs a hand holds, the sum over its ranks of floor(n / 2). */
export function countPairs(cards) {
  const counts = new Map();
  for (const code of cards) counts.set(code % 13, (counts.get(code % 13) || 0) + 1);
  let pairs = 0;
  for (const n of counts.values()) pairs += Math.floor(n / 2);
  return pairs;
}
