/**
 * What a hand record says beyond its deal, checked in the browser for the pages (the hand
 * page's "Check it in your browser" panel, /verify and the offline file), in the check shape
 * of ./tlogproof.mjs ({name, title, ok, detail, reason?}; ok null = NOT checked, never a pass):
 *
 *   recordChecks(recordJson) -> Promise of {checks, replayed (boolean), game, moves (count)}
 *
 *   statements:fields  the signed statements say what the record says (./statements.mjs:
 *                      statement_mismatch; their keys, order and times are the log checks')
 *   replay:moves       every move replays under the game's rules (./replay.mjs): illegal_move,
 *                      deck_mismatch, incomplete, malformed; ok null when this verifier has no
 *                      module for the game (then nothing below is checked either)
 *   replay:outcome     the claimed outcome is the replay's (outcome_mismatch)
 *   replay:payouts     the claimed payouts and commission are the recomputed settlement, to
 *                      the cent (payout_mismatch, commission_mismatch)
 *
 * A record whose server seed is not revealed has no deal to replay: no replay checks.
 */
import { formatAmount } from "./decimal.mjs";
import { parseRecord } from "./record.mjs";
import { RECORD_SCHEMA } from "./recordschema.mjs";
import { shapeFault } from "./shape.mjs";
import { compareOutcome, replayRecord } from "./replay.mjs";
import { checkStatements } from "./statements.mjs";

function check(name, title, ok, detail, reason = null) {
  const c = { name, title, ok, detail };
  if (ok === false && reason) c.reason = reason;
  return c;
}

const signed = (a) => (a > 0n ? `+${formatAmount(a)}` : formatAmount(a));

export async function recordChecks(json) {
  // a record is held to its schema and its reading, as the audit holds it: a value the schema
  // refuses (a point value of 0, say) is malformed; a record with every field the schema
  // requires that does not read is malformed; one missing fields is partial (a deal to check)
  const malformed = (detail) => ({ checks: [check("record:shape", "The record does NOT read as a hand record", false, detail, "malformed")],
    replayed: false, game: null, moves: 0 });
  const wrong = shapeFault(json, RECORD_SCHEMA, "$", { required: false });
  if (wrong) return malformed(`${wrong.location}: ${wrong.message}`);
  const whole = shapeFault(json) === null;
  let record;
  try {
    record = await parseRecord(json);
  } catch (e) {
    if (whole) return malformed(e.message);
    // a partial record (a deal to check, say) is not judged here: its moves are just not replayed
    return { checks: [check("replay:moves", "Moves NOT replayed", null, `the pasted JSON is not a whole hand record (${e.message}), so its statements and moves were not checked`)], replayed: false, game: null, moves: 0 };
  }
  const checks = [];
  const fields = (await checkStatements(record, { checkSignatures: false })).filter((f) => f.reason === "statement_mismatch");
  checks.push(fields.length
    ? check("statements:fields", "The signed statements do NOT say what the record says", false, fields.slice(0, 4).map((f) => f.message).join("; ") + (fields.length > 4 ? ` (and ${fields.length - 4} more)` : ""), "statement_mismatch")
    : check("statements:fields", "The signed statements say what the record says", true,
      `table, seats, stakes, commitments, seeds, the record's hash${record.bindsMoves ? ", the move chain's head over its moves" : ""}: field by field`));
  const game = record.ruleset.game;
  const n = record.moves.length;
  if (record.fairness.server_seed === null) return { checks, replayed: false, game, moves: 0 };
  const r = await replayRecord(record);
  if (!r.checked) {
    checks.push(check("replay:moves", "Moves NOT replayed", null, r.why));
    return { checks, replayed: false, game, moves: 0 };
  }
  if (r.faults.length) {
    const first = r.faults[0];
    const where = (f) => (f.move_index === null ? f.message : f.reason === "incomplete" ? `after all ${n} moves: ${f.message}` : `move ${f.move_index}: ${f.message}${f.rule ? ` (rule ${f.rule})` : ""}`);
    checks.push(check("replay:moves", `The moves do NOT replay under the ${game} rules`, false,
      `${r.moves_applied} of ${n} moves accepted; ${r.faults.slice(0, 3).map(where).join("; ")}${r.faults.length > 3 ? ` (and ${r.faults.length - 3} more)` : ""}`, first.reason));
    checks.push(check("replay:outcome", "Outcome and payouts NOT recomputed", null, "the moves do not replay, so there is no outcome to compare the record's claims with"));
    return { checks, replayed: true, game, moves: r.moves_applied };
  }
  checks.push(check("replay:moves", `Every move replays under the ${game} rules`, true, `${n} of ${n} moves replayed one by one from the deal; the hand is over where the record ends`));
  const claims = compareOutcome(record.outcome, r);
  const outcomeFaults = claims.filter((f) => f.reason === "outcome_mismatch");
  const money = claims.filter((f) => f.reason !== "outcome_mismatch");
  checks.push(check("replay:outcome", "The claimed outcome matches the replay", outcomeFaults.length === 0,
    outcomeFaults.length ? outcomeFaults.map((f) => f.message).join("; ") : `points ${JSON.stringify(r.outcome.points)}, winner ${r.outcome.winner === null ? "none" : `seat ${r.outcome.winner}`}`, "outcome_mismatch"));
  const s = r.settlement;
  const recomputed = `recomputed in exact decimals: ${record.table.players.map((p, i) => `${p} ${signed(s.nets[i])}`).join(", ")}; commission ${formatAmount(s.commission)}${s.pot_delta !== 0n ? `; pot ${signed(s.pot_delta)}` : ""} HT`;
  checks.push(check("replay:payouts", "The claimed payouts and commission match the recomputed settlement", money.length === 0,
    money.length ? `${money.map((f) => f.message).join("; ")} (${recomputed})` : recomputed, money[0]?.reason ?? null));
  return { checks, replayed: true, game, moves: n };
}
