/**
 * Checking a claimed finish (D-7, MC-20, MC-21): the port of check_finish in
 * replay/marriage/finish.py (finding a finish is for bots, not for a replay).
 *
 *   three-set shower   the `(hand - 1) / 3` combinations (checkFinishSet) and the discard
 *                      use exactly the cards in hand: 13 = 4 x 3 + 1 (MC-20)
 *   dublee shower      one eighth dublee, two identical cards (jokers never wild, MC-18);
 *                      the other cards but the discard are loose (MC-21)
 */
import { cardText } from "../../cards.mjs";
import { ReplayError } from "../errors.mjs";
import { checkFinishSet } from "./combos.mjs";
import { isNepal } from "./jokers.mjs";

const illegal = (reason, rule) => new ReplayError("illegal_move", reason, rule);

/** Throws ReplayError("illegal_move") naming the rule unless `groups` and `discard` finish `hand`. */
export function checkFinish(groups, discard, hand, { tiplu, ruleset, dublee }) {
  const nepal = isNepal(ruleset);
  const dubleeRule = nepal ? "D-7" : "MC-21";
  const rest = new Array(54).fill(0); // by card code: what the hand holds less what the finish uses
  for (const c of hand) rest[c] += 1;
  for (const g of groups) for (const c of g) rest[c] -= 1;
  rest[discard] -= 1;
  if (Math.min(...rest) < 0) {
    const missing = [];
    rest.forEach((n, code) => { if (n < 0) missing.push(cardText(code)); });
    throw illegal(`the finish uses cards not in hand: ${missing.join(" ")}`, dublee ? dubleeRule : "D-7");
  }
  if (dublee) {
    if (groups.length !== 1 || groups[0].length !== 2 || groups[0][0] !== groups[0][1]) {
      throw illegal("a dublee finish lays one eighth dublee: two identical cards (jokers are never wild in dublees)",
        dubleeRule);
    }
    return;
  }
  const rule = nepal ? "D-7" : "MC-20";
  if (rest.some((n) => n !== 0)) throw illegal("a finish lays every card but the discard in combinations", rule);
  const expected = Math.floor((hand.length - 1) / 3);
  if (hand.length % 3 !== 1 || groups.length !== expected) {
    throw illegal(`a finish lays ${expected} three-card combinations and one discard`, rule);
  }
  for (const g of groups) checkFinishSet(g, tiplu, ruleset);
}
