/**
 * The shapes of three Marriage cards, as replay/melds.py answers them for Marriage:
 * sequences of one suit and sets (trials) of one rank, by card code.
 *
 * Words as replay/melds.py's glossary: a *sequence* is cards of one suit at consecutive
 * positions, the Ace low (A-2-3) or high (Q-K-A) but never both and never in the middle:
 * K-A-2 is not one (MN-12, MC-9); a *set* (the trial, MN-11, MC-7) is cards of one rank,
 * each of a different suit.  Cards are codes (cards.mjs): rank = code % 13 + 1, suit =
 * floor(code / 13) for the standard 52; the joker (52) and the master card (53) have neither.
 */
export const ACE_HIGH = 14;
export const MAX_RUN = 13;

export const isStandard = (code) => code < 52;
export const rankOf = (code) => (code < 52 ? (code % 13) + 1 : 0);
export const suitOf = (code) => (code < 52 ? Math.floor(code / 13) : -1);
export const cardOf = (rank, suit) => 13 * suit + rank - 1;

/** Whether `ranks`, all different, lie within `length` consecutive positions, the Ace low
 *  or high but never both (MN-12, MC-9): melds.fits_run. */
export function fitsRun(ranks, length) {
  const held = [...ranks];
  if (length > MAX_RUN || new Set(held).size !== held.length) return false;
  if (held.length === 0) return true;
  const lo = Math.min(...held);
  const hi = Math.max(...held);
  if (hi - lo < length) return true;
  if (lo !== 1) return false;
  return ACE_HIGH - Math.min(...held.filter((r) => r !== 1)) < length;
}

/** Whether the ranks lie on `length` consecutive ranks only by going round the corner
 *  K-A-2 (each rank once): never a sequence (MN-12, MC-9): melds.wraps. */
export function wraps(ranks, length) {
  const held = [...new Set(ranks)];
  if (fitsRun(held, length) || length > MAX_RUN) return false;
  for (let start = 1; start <= 13; start++) {
    const window = new Set();
    for (let i = 0; i < length; i++) window.add(((start + i - 1) % 13) + 1);
    if (held.every((r) => window.has(r))) return true;
  }
  return false;
}

/** A set of codes as one key: the codes sorted, joined. */
const keyOf = (codes) => [...new Set(codes)].sort((a, b) => a - b).join(",");

const PURE_SEQUENCES_OF_THREE = new Set();
const SETS_OF_THREE = new Set();
const SETS_OF_TWO = new Set();
const SEQUENCES_OF_THREE_LESS_ONE = new Set();
{
  const windows = [];
  for (let r = 1; r <= 11; r++) windows.push([r, r + 1, r + 2]);
  windows.push([12, 13, 1]);
  for (let s = 0; s < 4; s++) {
    for (const w of windows) PURE_SEQUENCES_OF_THREE.add(keyOf(w.map((r) => cardOf(r, s))));
    for (let r1 = 1; r1 <= 13; r1++) {
      for (let r2 = r1 + 1; r2 <= 13; r2++) {
        if (fitsRun([r1, r2], 3)) SEQUENCES_OF_THREE_LESS_ONE.add(keyOf([cardOf(r1, s), cardOf(r2, s)]));
      }
    }
  }
  for (let r = 1; r <= 13; r++) {
    for (let a = 0; a < 4; a++) {
      for (let b = a + 1; b < 4; b++) {
        SETS_OF_TWO.add(keyOf([cardOf(r, a), cardOf(r, b)]));
        for (let c = b + 1; c < 4; c++) SETS_OF_THREE.add(keyOf([cardOf(r, a), cardOf(r, b), cardOf(r, c)]));
      }
    }
  }
}

/** Three standard cards, each as itself, of one suit at consecutive positions (MN-8, MC-5);
 *  a card held twice makes a smaller set of codes, never one of these. */
export function isPureSequence3(a, b, c) {
  return PURE_SEQUENCES_OF_THREE.has(keyOf([a, b, c]));
}

/** Two cards of one suit that one joker standing in makes a sequence of three (MN-10, MC-6). */
export function canFillSequence2(x, y) {
  return SEQUENCES_OF_THREE_LESS_ONE.has(keyOf([x, y]));
}

/** Cards (two or three) of one rank, each of a different suit (MN-11, MC-7). */
export function isSet(codes) {
  if (codes.length === 3) return SETS_OF_THREE.has(keyOf(codes));
  if (codes.length === 2) return SETS_OF_TWO.has(keyOf(codes));
  return false;
}
