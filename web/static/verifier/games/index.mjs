/**
 * The games the browser verifier replays move by move, by the rulesets' `game` name
 * (the JavaScript twin of replay/registry.py; docs/browser-verifier.md).
 *
 * Each games/<name>.mjs exports GAME = {name, engine(ruleset) -> engine, carry}:
 *   carry                         what a table's first hand carries (Python Game.carry)
 *   async start(randomness, {dealer, ...carry}) -> state
 *                                 randomness: fairness.mjs HandRandomness (shoe, tiplu,
 *                                 reshuffle:k, redeal:k sub-streams)
 *   parseMove(json) -> move       the record move without its envelope field `time`;
 *                                 throws ReplayError("malformed", ...) if it does not parse
 *   async apply(state, move) -> state
 *                                 throws ReplayError("illegal_move" | "deck_mismatch",
 *                                 reason, rule) as Python's IllegalMoveError / DeckMismatchError
 *   isOver(state) -> boolean
 *   outcome(state) -> {points, net_points, winner, breakdown, pot_delta_points, detail}
 *                                 equal as JSON to Python's Outcome.to_json() for the hand
 * tests/js/ checks each engine against the Python one on simulated hands.
 */
export { ReplayError } from "./errors.mjs";
import { GAME as KITTI } from "./kitti.mjs";
import { GAME as MARRIAGE } from "./marriage.mjs";
import { GAME as RUMMY13 } from "./rummy13.mjs";

/** game name -> GAME; filled by one import line per game module. */
export const GAMES = Object.freeze({
  kitti: KITTI,
  marriage: MARRIAGE,
  rummy13: RUMMY13,
});

export function gameFor(name) {
  const game = GAMES[name];
  if (game === undefined) return null;
  return game;
}
