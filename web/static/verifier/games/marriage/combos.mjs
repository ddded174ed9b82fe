/**
 * Marriage combinations and the checks for showing and finishing: the port of
 * replay/marriage/combos.py (its docstring is the glossary: tunnela MN-7/MC-4, pure sequence
 * MN-8/MC-5, dirty sequence MN-10/MC-6, trial MN-11/MC-7, dirty trial MC-8, joker set,
 * dublee MN-9/MC-18, show MN-14/MC-15, dublee show MN-16/MC-18, finishing combination
 * D-7/MC-20).
 *
 * classify() reads three cards as the natural kinds first (tunnela, pure sequence, trial:
 * every card as itself, MN-13), then a dirty sequence or dirty trial with one joker standing
 * in, then a joker set (two or more jokers).  Two identical cards plus a joker are never a
 * combination (MC-10).  Cards are codes; a failed check throws
 * ReplayError("illegal_move", reason, rule).
 */
import { MASTER_CODE, cardText } from "../../cards.mjs";
import { ReplayError } from "../errors.mjs";
import { isNepal, jokerTable } from "./jokers.mjs";
import { canFillSequence2, isPureSequence3, isSet, isStandard, rankOf, suitOf, wraps } from "./melds.mjs";

export const SHOW_SETS = 3;      // MN-14, MC-15
export const SHOW_DUBLEES = 7;   // MN-16, MC-18

const illegal = (reason, rule) => new ReplayError("illegal_move", reason, rule);
const texts = (cards) => cards.map(cardText).join(" ");

/** The rule ID of the preset's own text. */
export function ruleOf(ruleset, nepal, classic) {
  return isNepal(ruleset) ? nepal : classic;
}

/** Tunnela, pure sequence or trial with every card as itself (MN-13), or null. */
function naturalKind(a, b, c) {
  if (a === b && b === c && a !== MASTER_CODE) return "tunnela";
  if (isPureSequence3(a, b, c)) return "pure_sequence";
  if (isSet([a, b, c])) return "trial";
  return null;
}

/** What two natural cards make with one joker standing in. */
function oneJokerKind(x, y) {
  if (x === y) return null; // two identical cards + a joker is never valid (MC-10)
  if (canFillSequence2(x, y)) return "dirty_sequence";
  if (isSet([x, y])) return "dirty_trial";
  return null;
}

/**
 * The kind of a three-card combination (or of a two-card dublee), or null.  `tiplu` is the
 * tiplu as the holder knows it (null before they have seen): it decides the jokers.
 */
export function classify(cards, tiplu, ruleset) {
  if (cards.length === 2) return cards[0] === cards[1] ? "dublee" : null;
  if (cards.length !== 3) return null;
  const [a, b, c] = cards;
  const natural = naturalKind(a, b, c);
  if (natural !== null) return natural;
  const jokers = jokerTable(tiplu, ruleset);
  const wild = cards.map((x) => jokers[x]);
  let found = null;
  for (let i = 0; i < 3; i++) {
    if (!wild[i]) continue;
    const [x, y] = cards.filter((_, j) => j !== i);
    const kind = oneJokerKind(x, y);
    if (kind === "dirty_sequence") return kind;
    found = found || kind;
  }
  if (found !== null) return found;
  if (wild.filter(Boolean).length >= 2) return "joker_set";
  return null;
}

/**
 * One shown set: a tunnela or a pure sequence of exactly three cards, every card as itself
 * (MN-14, MC-15, MN-13).  Trials never show (MN-11); a joker never stands in a shown set
 * (MN-10), except the master card filling a sequence's gap at tables that set master_in_pure.
 */
export function checkShowSet(cards, ruleset) {
  if (cards.length !== 3) {
    throw illegal(`a shown set has exactly three cards, not ${cards.length}`, ruleOf(ruleset, "MN-14", "MC-15"));
  }
  const natural = naturalKind(...cards);
  if (natural === "tunnela" || natural === "pure_sequence") return natural;
  if (natural === "trial") throw illegal("a trial never counts as a show set", ruleOf(ruleset, "MN-11", "MC-15"));
  const others = cards.filter((c) => c !== MASTER_CODE);
  if (others.length === 2 && ruleset.get("master_in_pure")) {
    if (oneJokerKind(others[0], others[1]) === "dirty_sequence") return "pure_sequence";
  }
  if (cards.some((c) => !isStandard(c))) {
    throw illegal("a joker never stands in a shown set", ruleOf(ruleset, "MN-10", "MC-15"));
  }
  const ranks = new Set(cards.map(rankOf));
  if (new Set(cards.map(suitOf)).size === 1 && ranks.size === 3 && wraps(ranks, 3)) {
    throw illegal("K-A-2 is not a sequence", ruleOf(ruleset, "MN-12", "MC-9"));
  }
  throw illegal("a shown set must be a tunnela or a pure sequence", ruleOf(ruleset, "MN-14", "MC-15"));
}

/** A three-set show: `3 - tunnelasAtDeal` sets laid now (MN-19, MN-21), each pure. */
export function checkShow(sets, ruleset, tunnelasAtDeal = 0) {
  const needed = SHOW_SETS - tunnelasAtDeal;
  if (sets.length !== needed) {
    throw illegal(`a show lays exactly ${needed} set(s) here (${tunnelasAtDeal} tunnela(s) laid at the deal), `
      + `not ${sets.length}`, ruleOf(ruleset, tunnelasAtDeal ? "MN-19" : "MN-14", "MC-15"));
  }
  return sets.map((s) => checkShowSet(s, ruleset));
}

/** A tunnela laid before the first draw: exactly three identical cards (MN-19, MC-13). */
export function checkTunnelaAtDeal(cards, ruleset) {
  if (cards.length !== 3 || naturalKind(...cards) !== "tunnela") {
    throw illegal("only a tunnela (three identical cards) may be laid at the deal", ruleOf(ruleset, "MN-19", "MC-13"));
  }
  return "tunnela";
}

/** A seven-dublee show: seven pairs of identical cards, no joker wild (MN-16, MC-18). */
export function checkDubleeShow(pairs, ruleset) {
  const rule = ruleOf(ruleset, "MN-16", "MC-18");
  if (!ruleset.get("seven_dublees")) throw illegal("this table does not allow a dublee show", rule);
  if (pairs.length !== SHOW_DUBLEES) throw illegal(`a dublee show lays exactly seven dublees, not ${pairs.length}`, rule);
  for (const pair of pairs) {
    if (pair.length !== 2 || pair[0] !== pair[1]) {
      throw illegal(`a dublee is two identical cards (jokers are never wild in dublees): ${texts(pair)}`, rule);
    }
  }
}

/**
 * One finishing combination (D-7, MC-20): any valid three-card combination; never two
 * identical cards plus a joker (MC-10), never K-A-2 (MN-12, MC-9).
 */
export function checkFinishSet(cards, tiplu, ruleset) {
  const kind = cards.length === 3 ? classify(cards, tiplu, ruleset) : null;
  if (kind !== null) return kind;
  if (cards.length !== 3) {
    throw illegal(`a finishing combination has exactly three cards, not ${cards.length}`, ruleOf(ruleset, "D-7", "MC-20"));
  }
  const jokers = jokerTable(tiplu, ruleset);
  const naturals = cards.filter((c) => !jokers[c]);
  if (naturals.length === 2 && naturals[0] === naturals[1]) {
    throw illegal("two identical cards plus a joker is not a combination", ruleOf(ruleset, "D-7", "MC-10"));
  }
  if (naturals.every(isStandard) && new Set(naturals.map(suitOf)).size === 1 && wraps(naturals.map(rankOf), 3)) {
    throw illegal("K-A-2 is not a sequence (the Ace sits at one end only)", ruleOf(ruleset, "MN-12", "MC-9"));
  }
  throw illegal(`not a valid combination: ${texts(cards)}`, "D-7");
}
