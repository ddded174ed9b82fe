/**
 * Rummy groups: the wild rules, card points and group validity, exactly as
 * replay/rummy/groups.py, replay/rummy/declare.py and the parts of replay/melds.py they use.
 *
 * Words (replay/rummy/groups.py's glossary): the *indicator* sets the *wild rank* (R-5;
 * null when it is a printed joker); a *joker* is a printed joker or a card of the wild
 * rank; a *natural* is a card standing as itself; a *position* is 1 (Ace low) .. 13 and
 * 14 (Ace high); a *sequence* is three or more cards of one suit at consecutive positions
 * (pure: every card natural); a *set* is three or four cards of one rank in distinct suits.
 *
 * Cards are codes (cards.mjs): rank = code % 13 + 1, suit = floor(code / 13) for 0..51.
 */
import { JOKER_CODE } from "../../cards.mjs";
import { ReplayError } from "../errors.mjs";

export const HIGH_CARD_POINTS = 10;
export const MAX_RUN = 13;
const ACE_HIGH = 14;

/** Rank 1..13 of a standard card, 0 for the printed joker and the master card (RANK_OF). */
export function rankOf(code) {
  return code < JOKER_CODE ? (code % 13) + 1 : 0;
}

/** Suit 0..3 of a standard card, -1 otherwise (SUIT_OF). */
export function suitOf(code) {
  return code < JOKER_CODE ? Math.floor(code / 13) : -1;
}

/** the wild rank the indicator gives; null when it is a printed joker. */
export function wildRankOf(indicator) {
  if (indicator === JOKER_CODE) return null;
  if (!(indicator >= 0 && indicator < JOKER_CODE)) {
    throw new ReplayError("malformed", "the master card cannot be a rummy indicator");
  }
  return rankOf(indicator);
}

/** printed jokers and every card of the wild rank. */
export function isJoker(code, wild) {
  return code === JOKER_CODE || rankOf(code) === wild;
}

/** jokers 0, A/K/Q/J/10 `high`, 2..9 their face value. */
export function cardPoints(code, wild, high = HIGH_CARD_POINTS) {
  if (isJoker(code, wild)) return 0;
  const rank = rankOf(code);
  return rank === 1 || rank >= 10 ? high : rank;
}

// ---------------------------------------------------------------- melds (replay/melds.py)

/** Whether distinct `ranks` fit in `length` consecutive positions, the Ace low or high. */
function fitsRun(ranks, length) {
  if (length > MAX_RUN || new Set(ranks).size !== ranks.length) return false;
  if (ranks.length === 0) return true;
  const lo = Math.min(...ranks);
  const hi = Math.max(...ranks);
  if (hi - lo < length) return true;
  if (lo !== 1) return false;
  return ACE_HIGH - Math.min(...ranks.filter((r) => r !== 1)) < length; // the Ace moved high
}

function isRun(ranks) {
  if (ranks.length === 3) { // melds.RUNS_OF_THREE: A-2-3 .. J-Q-K, Q-K-A (as a set of ranks)
    const s = [...new Set(ranks)].sort((a, b) => a - b);
    if (s.length !== 3) return false;
    return (s[1] === s[0] + 1 && s[2] === s[1] + 1) || (s[0] === 1 && s[1] === 12 && s[2] === 13);
  }
  return ranks.length > 3 && fitsRun(ranks, ranks.length);
}

function wraps(ranks, length) {
  const held = [...new Set(ranks)];
  if (fitsRun(held, length) || length > MAX_RUN) return false;
  for (let start = 1; start <= 13; start++) {
    const span = new Set();
    for (let i = 0; i < length; i++) span.add(((start + i - 1) % 13) + 1);
    if (held.every((r) => span.has(r))) return true;
  }
  return false;
}

/** Standard cards, each itself, of one suit at consecutive positions (D-21). */
export function isPureSequence(codes) {
  if (codes.length === 3 && new Set(codes).size !== 3) return false; // a card held twice
  if (codes.length === 0 || Math.max(...codes) >= 52 || new Set(codes.map(suitOf)).size !== 1) return false;
  return isRun(codes.map(rankOf));
}

/** Whether naturals of one suit, all different, with jokers for the rest make a sequence of `length`. */
function canFillSequence(naturals, length) {
  if (naturals.length === 0) return length <= MAX_RUN;
  if (Math.max(...naturals) >= 52 || new Set(naturals.map(suitOf)).size !== 1) return false;
  return fitsRun(naturals.map(rankOf), length);
}

/** Standard cards of one rank, each of a different suit (R-11, D-21). */
function isSet(codes) {
  if (codes.length === 0 || Math.max(...codes) >= 52 || new Set(codes.map(rankOf)).size !== 1) return false;
  return new Set(codes.map(suitOf)).size === codes.length;
}

// ---------------------------------------------------------------- groups and declarations

export const PURE_SEQUENCE = "pure_sequence";
export const IMPURE_SEQUENCE = "impure_sequence";
export const SET = "set";

/** The kind of a shown group, or {invalid: rule, reason} (groups.classify_group). */
export function classifyGroup(codes, wild) {
  const n = codes.length;
  if (n < 3) return { rule: "D-21", reason: `a group needs at least 3 cards, got ${n}` };
  if (codes.some((c) => c > JOKER_CODE)) {
    throw new ReplayError("malformed", "the master card is not a rummy card"); // MalformedHandError
  }
  if (isPureSequence(codes)) return PURE_SEQUENCE; // wild-rank cards as themselves
  const naturals = codes.filter((c) => !isJoker(c, wild));
  if (naturals.length === 0) return IMPURE_SEQUENCE; // jokers alone: any three consecutive cards
  if (canFillSequence(naturals, n)) return IMPURE_SEQUENCE;
  if (isSet(naturals) && n <= 4) return SET;
  const suits = new Set(naturals.map(suitOf));
  const ranks = naturals.map(rankOf);
  const rankSet = new Set(ranks);
  if (new Set(naturals).size < naturals.length && (suits.size === 1 || rankSet.size === 1)) {
    return { rule: "R-11", reason: "the same card sits twice in one group" };
  }
  if (suits.size === 1 && rankSet.size === ranks.length && wraps(ranks, n)) {
    return { rule: "R-10", reason: "a sequence cannot wrap from King to Ace to 2" };
  }
  if (rankSet.size === 1 && n > 4) return { rule: "D-21", reason: `a set has 3 or 4 cards, got ${n}` };
  return { rule: "D-21", reason: "neither a sequence of one suit nor a set of one rank" };
}

/**
 * D-21 (declare.check_declaration): {valid, rule, reason}.  Valid when all
 * `handSize` cards are shown in valid groups with two sequences, one of them pure.
 */
export function checkDeclaration(groups, wild, handSize = 13) {
  const n = groups.reduce((a, g) => a + g.length, 0);
  if (n !== handSize) {
    return { valid: false, rule: "R-7", reason: `a declaration shows all ${handSize} cards in groups, got ${n}` };
  }
  const kinds = [];
  for (let i = 0; i < groups.length; i++) {
    const kind = classifyGroup(groups[i], wild);
    if (typeof kind !== "string") return { valid: false, rule: kind.rule, reason: `group ${i + 1}: ${kind.reason}` };
    kinds.push(kind);
  }
  if (!kinds.includes(PURE_SEQUENCE)) return { valid: false, rule: "R-9", reason: "no pure sequence" };
  if (kinds.filter((k) => k !== SET).length < 2) {
    return { valid: false, rule: "R-9", reason: "only one sequence; two are needed" };
  }
  return { valid: true, rule: null, reason: null };
}
