/**
 * Replay a hand record move by move in the browser, as replay/replayer.py, and compare the
 * operator's claims with it, as audit/verify.py's compare_outcome:
 *
 *   replayRecord(record, {strict, require, visit}) -> Promise of {checked, game, why, faults,
 *        outcome, settlement, moves_applied}
 *   compareOutcome(claimed, result) -> [fault]  (outcome_mismatch, payout_mismatch, commission_mismatch)
 *   settlementJson(settlement)      -> {gross, nets, commission, pot_delta} as decimal strings
 *
 * `record` is ./record.mjs's parsed record.  The shoe comes from the record's seeds
 * (./fairness.mjs HandRandomness), the engine is the ruleset's game (./games/index.mjs);
 * `table.carry` may hold only the keys the game carries (Kitti's pot) and is passed to the
 * engine's start; each move, without its envelope field `time`, is parsed and applied in
 * order.  A refused move is a fault at its index (malformed, illegal_move, deck_mismatch);
 * report mode (the default) skips it and goes on, strict mode stops.  Moves that end before
 * the hand is over: `incomplete` (move index = the number of moves).  Then the outcome and
 * the settlement in exact decimals (./decimal.mjs).  A game with no module here: `checked`
 * false and `why` says so (with `require`, a NoReplayError is thrown instead) -- never a pass.
 * `visit(index, move, state)` sees every state (index -1: the deal).
 */
import { VerifyError } from "./errors.mjs";
import { HandRandomness } from "./fairness.mjs";
import { fault } from "./faults.mjs";
import { formatAmount, sameAmount, settle } from "./decimal.mjs";
import { gameFor, ReplayError } from "./games/index.mjs";
import { jsonEquals } from "./statements.mjs";

export class NoReplayError extends Error {
  constructor(game) {
    super(`this verifier cannot replay ${game} hands yet`);
    this.name = "NoReplayError";
    this.game = game;
  }
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

function moveFault(e, index) {
  if (e instanceof ReplayError && e.kind !== "malformed") return fault(e.kind, e.reason, { move_index: index, rule: e.rule });
  return fault("malformed", `move does not parse: ${e.message}`, { move_index: index });
}

const known = (e) => e instanceof ReplayError || e instanceof VerifyError;

export async function replayRecord(record, { strict = false, require = false, visit = null } = {}) {
  const name = record.ruleset.game;
  const result = { checked: true, game: name, why: null, faults: [], outcome: null, settlement: null, moves_applied: 0 };
  const f = record.fairness;
  if (f.server_seed === null) return { ...result, faults: [fault("not_revealed", "the server seed is not revealed yet")] };
  const game = gameFor(name);
  if (game === null) {
    if (require) throw new NoReplayError(name);
    return { ...result, checked: false, why: `this verifier cannot replay ${name} hands yet: the moves, outcome and payouts were NOT checked` };
  }
  let engine;
  let state;
  try {
    engine = game.engine(record.ruleset);
    const carried = Object.keys(game.carry ?? {});
    const unknown = Object.keys(record.table.carry).filter((k) => !carried.includes(k)).sort();
    if (unknown.length) {
      throw new VerifyError("malformed", carried.length ? `${name} carries only [${carried.sort().join(", ")}] between hands, got [${unknown.join(", ")}]`
        : `${name} takes no table options, got [${unknown.join(", ")}]`);
    }
    const randomness = await HandRandomness.create(f.server_seed, record.hand_id, record.ruleset, f.player_seeds);
    state = await engine.start(randomness, { dealer: record.table.dealer, ...record.table.carry });
  } catch (e) {
    if (!known(e)) throw e;
    return { ...result, faults: [fault("malformed", `cannot start the hand: ${e.message}`)] };
  }
  if (visit) visit(-1, null, state);
  for (const [i, raw] of record.moves.entries()) {
    try {
      const { time, ...json } = raw; // the envelope field `time` is not the engine's
      const move = engine.parseMove(json);
      if (engine.isOver(state)) throw new ReplayError("illegal_move", "a move after the hand is over");
      state = await engine.apply(state, move);
      result.moves_applied += 1;
      if (visit) visit(i, move, state);
    } catch (e) {
      if (!known(e)) throw e;
      result.faults.push(moveFault(e, i));
      if (strict) return result;
    }
  }
  if (!engine.isOver(state)) {
    result.faults.push(fault("incomplete", "the moves end before the hand is over", { move_index: record.moves.length }));
    return result;
  }
  try {
    const outcome = engine.outcome(state);
    result.settlement = settle(outcome.net_points, { pointValue: record.table.point_value,
      commissionPct: record.table.commission_pct, potDeltaPoints: outcome.pot_delta_points });
    result.outcome = outcome;
  } catch (e) {
    if (!known(e)) throw e;
    result.faults.push(fault("malformed", `cannot settle the hand: ${e.message}`));
  }
  return result;
}

export function settlementJson(s) {
  return { gross: s.gross.map(formatAmount), nets: s.nets.map(formatAmount), commission: formatAmount(s.commission), pot_delta: formatAmount(s.pot_delta) };
}

/** Faults where the record's claimed outcome and payouts differ from the replay's (audit/verify.py compare_outcome). */
export function compareOutcome(claimed, result) {
  if (!result.checked || result.outcome === null || result.settlement === null) return [];
  if (!isObject(claimed)) return [fault("outcome_mismatch", "the record claims no outcome")];
  const faults = [];
  const mine = result.outcome;
  const differing = Object.keys(mine).filter((k) => !(Object.hasOwn(claimed, k) && jsonEquals(claimed[k], mine[k])) && !(mine[k] === null && !Object.hasOwn(claimed, k)));
  if (differing.length) faults.push(fault("outcome_mismatch", `claimed ${differing.join(", ")} differ from the replay`));
  const pay = claimed.payouts;
  if (!isObject(pay)) return [...faults, fault("payout_mismatch", "the record claims no payouts")];
  const s = result.settlement;
  if (!sameAmount(pay.commission, s.commission)) {
    faults.push(fault("commission_mismatch", `claimed commission ${JSON.stringify(pay.commission ?? null)}, recomputed ${formatAmount(s.commission)}`));
  }
  const nets = pay.nets;
  const bad = s.nets.map((b, i) => i).filter((i) => !Array.isArray(nets) || i >= nets.length || !sameAmount(nets[i], s.nets[i]));
  if (!Array.isArray(nets) || nets.length !== s.nets.length || bad.length) {
    faults.push(fault("payout_mismatch", `claimed HT nets differ from the recomputed settlement at seats [${bad.join(", ")}]`));
  }
  const gross = pay.gross;
  if (!Array.isArray(gross) || gross.length !== s.gross.length || gross.some((a, i) => !sameAmount(a, s.gross[i]))) {
    faults.push(fault("payout_mismatch", "claimed gross HT amounts differ from the recomputed settlement"));
  }
  if (!sameAmount(pay.pot_delta, s.pot_delta)) faults.push(fault("payout_mismatch", "claimed pot change differs from the recomputed one"));
  if (Object.keys(pay).some((k) => !["gross", "nets", "commission", "pot_delta"].includes(k))) {
    faults.push(fault("payout_mismatch", "the payouts claim fields the settlement does not have"));
  }
  return faults;
}
