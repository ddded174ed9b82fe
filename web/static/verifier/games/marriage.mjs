/**
 * Marriage (presets marriage/nepal and marriage/classic) for the browser verifier: the
 * JavaScript twin of replay/marriage/ (docs/marriage.md; rules MN- and MC-, decisions D-).
 * Everything that differs between the presets is a ruleset setting (D-1).
 *
 * Modules under marriage/, lowest first: melds (three-card shapes), jokers (roles under a
 * tiplu), combos (show and finish checks), finish (a claimed finish), maal (counting),
 * payments (nets, MC-28..MC-31, D-10), moves (parsing), state, turns (applying a move),
 * outcome, worked (the settlement's point terms).  This module is the engine of games/index.mjs's contract.
 */
import { ReplayError } from "./errors.mjs";
import { leftOf } from "../deal.mjs";
import { parseMove } from "./marriage/moves.mjs";
import { roundOutcome } from "./marriage/outcome.mjs";
import { OVER, dealtRound } from "./marriage/state.mjs";
import { TurnRules, applyMove } from "./marriage/turns.mjs";
import { workPoints } from "./marriage/worked.mjs";

class MarriageEngine {
  constructor(ruleset) {
    if (ruleset.game !== "marriage") throw new ReplayError("malformed", `the Marriage engine cannot play ${ruleset.game}`);
    this.ruleset = ruleset;
    this.rules = new TurnRules(ruleset);
  }

  /** The round right after the deal (MN-2..MN-4, MC-13); the dealer's left starts (MN-6, MC-14, D-4). */
  async start(randomness, { dealer, ...table } = {}) {
    const extra = Object.keys(table);
    if (extra.length) throw new ReplayError("malformed", `marriage takes no table options, got ${extra.sort().join(", ")}`);
    const dealt = await randomness.deal(dealer);
    const nSeats = randomness.nSeats;
    return dealtRound({
      nSeats, dealer, hands: dealt.hands, stock: dealt.stock, turnedUp: dealt.turnedUp,
      turnSeat: leftOf(dealer, nSeats, this.rules.direction), randomness,
    });
  }

  parseMove(json) {
    return parseMove(json);
  }

  async apply(state, move) {
    return applyMove(this.rules, state, move);
  }

  isOver(state) {
    return state.phase === OVER;
  }

  toMove(state) {
    return state.phase === OVER ? null : state.turnSeat;
  }

  outcome(state) {
    if (state.phase !== OVER) throw new ReplayError("illegal_move", "the round is not over yet");
    return roundOutcome(state, this.ruleset);
  }

  /** The terms of an outcome's net points (T + w - n*S, MC-31; D-10), as Python's work_points. */
  workPoints(outcome) {
    return workPoints(outcome, this.ruleset);
  }
}

export const GAME = Object.freeze({
  name: "marriage",
  engine: (ruleset) => new MarriageEngine(ruleset),
  carry: Object.freeze({}),
});
