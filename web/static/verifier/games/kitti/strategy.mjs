/**
 * The default arrangement, what a seat that times out plays (an `auto` arrangement,
 * docs/kitti.md), exactly as replay/kitti/strategy.py.
 *
 * The **share** of a set: out of the 22,100 sets of a 52-card pack, twice the number it
 * beats plus the number it ties.  A split's **score** is the sum of its three sets'
 * shares.  The default arrangement is the split with the highest score; among equal
 * scores the one whose keys (strongest first) are greatest; among those the first in
 * split order (arrangement.mjs SPLIT_POSITIONS over the hand sorted by code).
 */
import { SPLIT_POSITIONS, SPLIT_TRIPLES, TRIPLES } from "./arrangement.mjs";

const SHARES = new WeakMap();

/** key -> share over every set of the pack, for one ranker. */
export function shareTable(ranker) {
  let shares = SHARES.get(ranker);
  if (shares === undefined) {
    const counts = new Map();
    for (let a = 0; a < 52; a++) {
      for (let b = a + 1; b < 52; b++) {
        for (let c = b + 1; c < 52; c++) {
          const k = ranker.key(a, b, c);
          counts.set(k, (counts.get(k) || 0) + 1);
        }
      }
    }
    shares = new Map();
    let below = 0;
    for (const k of [...counts.keys()].sort((x, y) => x - y)) {
      shares.set(k, 2 * below + counts.get(k));
      below += counts.get(k);
    }
    SHARES.set(ranker, shares);
  }
  return shares;
}

function keysGreater(x, y) {
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
}

/** The default arrangement of a hand (card codes) as three sets of codes, in no particular order. */
export function defaultSplit(hand, ranker) {
  const shares = shareTable(ranker);
  const codes = [...hand].sort((x, y) => x - y);
  const keys = TRIPLES.map(([a, b, c]) => ranker.key(codes[a], codes[b], codes[c]));
  const score = keys.map((k) => shares.get(k));
  let top = -1;
  for (const [i, j, k] of SPLIT_TRIPLES) top = Math.max(top, score[i] + score[j] + score[k]);
  let best = null;
  let bestAt = 0;
  SPLIT_TRIPLES.forEach(([i, j, k], at) => {
    if (score[i] + score[j] + score[k] !== top) return;
    const ordered = [keys[i], keys[j], keys[k]].sort((x, y) => y - x);
    if (best === null || keysGreater(ordered, best)) {
      best = ordered;
      bestAt = at;
    }
  });
  const pos = SPLIT_POSITIONS[bestAt];
  return [pos.slice(0, 3), pos.slice(3, 6), pos.slice(6, 9)].map((s) => s.map((p) => codes[p]));
}
