/**
 * Why a record fails, and which fault leads the verdict: the JavaScript twin of
 * replay/faults.py (the root-cause ranking of docs/records.md, "Which fault leads the verdict").
 *
 *   fault(reason, message, {move_index, statement, rule, after}) -> a fault object
 *   groupFaults(faults) -> the faults with the root causes first (in the order given), then
 *                          each consequence with `caused_by` = its root cause's position
 *   verdictOf(faults)   -> {ok, reason, first_bad_move, faults (grouped)}
 *
 * A fault: {reason, message, move_index (or null), statement (1-based, or null), rule,
 * after (reasons it follows from when one of them is present), caused_by}.
 */

export const REASONS = Object.freeze([
  "malformed", "not_revealed", "server_seed_mismatch", "seat_seed_mismatch", "ruleset_mismatch", "signature",
  "statement_mismatch", "event_order", "illegal_move", "deck_mismatch", "incomplete", "outcome_mismatch",
  "payout_mismatch", "commission_mismatch", "carry_mismatch", "not_log_bound", "not_in_log", "log_order",
  "bad_checkpoint", "log_duplicate", "log_inconsistent", "internal_error", "unpublished", "stalled",
  "witness_quorum", "future_time", "time_order", "seed_reuse",
]);

/** The deal's inputs: if one is wrong, other cards are dealt and every game fault follows. */
const DEAL_INPUTS = new Set(["server_seed_mismatch", "seat_seed_mismatch", "ruleset_mismatch"]);
const MOVE_FAULTS = new Set(["illegal_move", "deck_mismatch"]);
const CLAIM_FAULTS = new Set(["outcome_mismatch", "payout_mismatch", "commission_mismatch"]);

/** The layer of each reason (replay/faults.py LAYER and _LOG_LAYER); any other reason is 3. */
const LAYER = Object.freeze({
  malformed: 0, not_revealed: 0, internal_error: 0, unpublished: 0, stalled: 0,
  server_seed_mismatch: 1, seat_seed_mismatch: 1, ruleset_mismatch: 1, seed_reuse: 1,
  not_log_bound: 2, bad_checkpoint: 2, witness_quorum: 2, log_inconsistent: 2,
  signature: 3, statement_mismatch: 3, event_order: 3, future_time: 3, time_order: 3,
  illegal_move: 4, deck_mismatch: 4, incomplete: 4,
  outcome_mismatch: 5, payout_mismatch: 5, commission_mismatch: 5,
  carry_mismatch: 6,
});

const layerOfReason = (r) => LAYER[r] ?? 3;

export function fault(reason, message, { move_index = null, statement = null, rule = null, after = [] } = {}) {
  if (!REASONS.includes(reason)) throw new TypeError(`unknown reason ${reason}`);
  return { reason, message, move_index, statement, rule, after, caused_by: null };
}

/** [layer, move index within layer 4 (else -1)]: the order faults are judged in. */
function layerKey(f) {
  let layer = layerOfReason(f.reason);
  if (f.reason === "malformed" && f.move_index !== null) layer = 4;
  if (f.after.length) layer = Math.max(layer, ...f.after.map(layerOfReason));
  return [layer, layer === 4 && f.move_index !== null ? f.move_index : -1];
}

const isGame = (f) => MOVE_FAULTS.has(f.reason) || CLAIM_FAULTS.has(f.reason) || f.reason === "incomplete"
  || (f.reason === "malformed" && f.move_index !== null);
const isMove = (f) => f.move_index !== null && (MOVE_FAULTS.has(f.reason) || f.reason === "malformed");

/** Whether `f` is a consequence of the earlier root cause `root` (replay/faults.py follows). */
export function follows(f, root) {
  if (f.after.includes(root.reason)) return true;
  if (DEAL_INPUTS.has(root.reason) && isGame(f)) return true;
  if (isMove(root) && (f.reason === "incomplete" || CLAIM_FAULTS.has(f.reason) || (isMove(f) && f.move_index > root.move_index))) return true;
  if (CLAIM_FAULTS.has(root.reason) && CLAIM_FAULTS.has(f.reason)) return true;
  if (root.statement !== null && f.statement === root.statement) return true;
  return root.reason === "bad_checkpoint" && f.reason === "not_in_log";
}

/** The faults grouped: root causes first in the order given, then each consequence (module doc). */
export function groupFaults(faults) {
  const keys = faults.map(layerKey);
  // a stable sort by (layer, move index), as Python's sorted()
  const ordered = faults.map((_, k) => k).sort((a, b) => keys[a][0] - keys[b][0] || keys[a][1] - keys[b][1] || a - b);
  const roots = [];
  const cause = new Map();
  for (const k of ordered) {
    const r = roots.find((root) => follows(faults[k], faults[root]));
    if (r === undefined) roots.push(k);
    else cause.set(k, r);
  }
  roots.sort((a, b) => a - b);
  const position = new Map(roots.map((r, i) => [r, i]));
  const out = roots.map((r) => ({ ...faults[r], caused_by: null }));
  for (const k of ordered) if (cause.has(k)) out.push({ ...faults[k], caused_by: position.get(cause.get(k)) });
  return out;
}

/** The verdict fields of a list of faults: grouped, the first root's reason, the first bad move. */
export function verdictOf(faults) {
  const grouped = groupFaults(faults);
  const moves = grouped.filter((f) => f.caused_by === null && f.move_index !== null).map((f) => f.move_index);
  return {
    ok: grouped.length === 0,
    reason: grouped.length ? grouped[0].reason : null,
    first_bad_move: moves.length ? Math.min(...moves) : null,
    faults: grouped,
  };
}
