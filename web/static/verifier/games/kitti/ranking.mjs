/**
 * Ranking a three-card Kitti set (K-9 ... K-16, D-16, K-22), exactly as
 * replay/kitti/ranking.py.
 *
 * A set's **key** is its strength list [class, k1, k2, k3] packed into one integer
 * (class << 12 | k1 << 8 | k2 << 4 | k3); a greater key is a stronger set, equal keys tie
 * (suits never enter it, K-16).  Ace counts 14 everywhere except in a sequence's index.
 *
 *   class            value  k1, k2, k3
 *   high card        1      the three ranks, highest first (D-16)
 *   pair             2      the pair's rank twice, then the odd card (D-16)
 *   colour           3      the three ranks, highest first
 *   sequence         4      the sequence's index, 0, 0
 *   pure sequence    5      the sequence's index, 0, 0
 *   trail            6      the rank three times (A-A-A = 14 strongest, K-9)
 *   2-3-5 (K-22)     7      0, 0, 0 -- only with `two_three_five`; its class name stays
 *                           high_card
 *
 * Sequence index (K-15, setting `sequence_order`): 4-3-2 is 1 ... K-Q-J is 10; under
 * "akq-high" A-2-3 is 11 and A-K-Q 12, under "a23-high" A-K-Q is 11 and A-2-3 12.
 * K-A-2 is never a sequence.
 *
 * Cards are codes (cards.mjs): rank = code % 13 + 1 (Ace 1), suit = floor(code / 13).
 * A ranker keeps the key of every ordered triple of codes in a flat table (52**3
 * entries, made on first use), as the Python SetRanker does.
 */
export const SEQUENCE_ORDERS = Object.freeze(["akq-high", "a23-high"]);
export const SPECIAL_235 = 7;
const LABELS = Object.freeze([null, "high_card", "pair", "colour", "sequence", "pure_sequence", "trail", "high_card"]);

export function pack(c, a, b, d) {
  return (c << 12) | (a << 8) | (b << 4) | d;
}

export function unpack(key) {
  return [key >> 12, (key >> 8) & 15, (key >> 4) & 15, key & 15];
}

/** K-15: the sequence index of three distinct ranks, highest first (Ace 14), or null. */
function sequenceIndex(a, b, c, order) {
  if (a === 14 && b === 3 && c === 2) return order === "a23-high" ? 12 : 11;
  if (a - b === 1 && b - c === 1) {
    if (a === 14) return order === "a23-high" ? 11 : 12;
    return a - 3; // 4-3-2 (a = 4) -> 1 ... K-Q-J (a = 13) -> 10
  }
  return null;
}

/** The key of a set from its ranks (1..13, Ace 1) and whether it is one suit (K-9 ... K-14). */
export function classify(r1, r2, r3, flush, sequenceOrder = "akq-high") {
  const hi = [r1, r2, r3].map((r) => (r === 1 ? 14 : r)).sort((x, y) => y - x);
  const [a, b, c] = hi;
  if (a === b && b === c) return pack(6, a, a, a); // K-9 trail
  if (a === b || b === c) {
    const [pair, odd] = a === b ? [a, c] : [b, a];
    return pack(2, pair, pair, odd); // K-13 pair, D-16
  }
  const seq = sequenceIndex(a, b, c, sequenceOrder);
  if (seq !== null) return pack(flush ? 5 : 4, seq, 0, 0); // K-10 / K-11
  if (flush) return pack(3, a, b, c); // K-12 colour
  return pack(1, a, b, c); // K-14 high card
}

/** Ranks sets under one `sequence_order` and `two_three_five` setting. */
export class SetRanker {
  constructor(sequenceOrder = "akq-high", twoThreeFive = false) {
    if (!SEQUENCE_ORDERS.includes(sequenceOrder)) throw new TypeError(`unknown sequence_order ${sequenceOrder}`);
    this.sequenceOrder = sequenceOrder;
    this.twoThreeFive = Boolean(twoThreeFive);
    this._table = null;
  }

  /**
   * Every ordered triple's key (0 where a card repeats), made once: each rank triple is
   * classified once, with and without a flush (2 x 13**3), and the 52**3 entries read those.
   */
  get table() {
    if (this._table === null) {
      const plain = new Uint16Array(2197);
      const flush = new Uint16Array(2197);
      for (let ra = 0; ra < 13; ra++) {
        for (let rb = 0; rb < 13; rb++) {
          for (let rc = 0; rc < 13; rc++) {
            const i = ra * 169 + rb * 13 + rc;
            plain[i] = classify(ra + 1, rb + 1, rc + 1, false, this.sequenceOrder);
            flush[i] = classify(ra + 1, rb + 1, rc + 1, true, this.sequenceOrder);
          }
        }
      }
      const special = pack(SPECIAL_235, 0, 0, 0);
      const t = new Uint16Array(52 * 52 * 52);
      for (let a = 0; a < 52; a++) {
        const ra = a % 13, sa = (a - ra) / 13;
        for (let b = 0; b < 52; b++) {
          if (a === b) continue;
          const rb = b % 13, sb = (b - rb) / 13;
          const base = a * 2704 + b * 52;
          const row = ra * 169 + rb * 13;
          for (let c = 0; c < 52; c++) {
            if (c === a || c === b) continue;
            const rc = c % 13, sc = (c - rc) / 13;
            t[base + c] = sa === sb && sb === sc ? flush[row + rc] : plain[row + rc];
          }
        }
      }
      if (this.twoThreeFive) { // K-22: 2-3-5 in three different suits
        for (const [x, y, z] of [[1, 2, 4], [1, 4, 2], [2, 1, 4], [2, 4, 1], [4, 1, 2], [4, 2, 1]]) {
          for (let s1 = 0; s1 < 4; s1++) {
            for (let s2 = 0; s2 < 4; s2++) {
              for (let s3 = 0; s3 < 4; s3++) {
                if (s1 === s2 || s2 === s3 || s1 === s3) continue;
                t[(13 * s1 + x) * 2704 + (13 * s2 + y) * 52 + (13 * s3 + z)] = special;
              }
            }
          }
        }
      }
      this._table = t;
    }
    return this._table;
  }

  /** The key of the set of card codes a, b, c (distinct, 0..51). */
  key(a, b, c) {
    return this.table[a * 2704 + b * 52 + c];
  }

  /** The class name of a key: trail, pure_sequence, sequence, colour, pair, high_card. */
  labelOfKey(key) {
    return LABELS[key >> 12];
  }
}

const RANKERS = new Map();

/** The shared ranker of a resolved Kitti ruleset. */
export function rankerFor(ruleset) {
  const order = ruleset.get("sequence_order");
  const t235 = Boolean(ruleset.get("two_three_five"));
  const name = `${order}/${t235}`;
  if (!RANKERS.has(name)) RANKERS.set(name, new SetRanker(order, t235));
  return RANKERS.get(name);
}
