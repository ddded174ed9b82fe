/**
 * The audit of hand records in the browser, rule for rule as the Python audit
 * (audit/verify.py audit_record, audit/runner.py, audit/archive_scan.py; docs/records.md):
 *
 *   auditRecord(data, options)   -> Promise of {hand_id, record, faults, ok, reason, first_bad_move,
 *                                   timing, replay}
 *   auditRecords(texts, options) -> Promise of {verdicts: [...], log_failures: [reason...]}
 *
 * options: trust {public_key, origin} (the key the auditor pinned; without one the record's
 * own key, NOT a trust anchor), policy (a parsed ./policy.mjs policy: its witness quorum must
 * have cosigned the checkpoint), now (the auditor's clock, ms; default the run's start),
 * oneLog (the records are one log: two roots for one size is log_inconsistent), checkSignatures
 * (default true), replay (true: replay the moves where the game has a module; "require": a
 * record whose game has none throws NoReplayError).
 *
 * The checks, in the audit's order (their faults in that order, then ./faults.mjs's ranking):
 * the record parses (malformed: nothing else is checked); the server seed is revealed
 * (not_revealed) and matches its commitment, each seat seed its commitment, the ruleset its
 * hash; the statements (./statements.mjs); the replay and the claims (./replay.mjs); the log
 * evidence (not_log_bound, not_in_log, bad_checkpoint, log_order); the pinned policy's witness
 * quorum (witness_quorum) and statements dated after a counted witness's cosignature
 * (future_time); then what the request's records show together: a statement dated after the
 * auditor's clock plus 5 minutes (future_time), one server commitment or seed in two hands
 * (seed_reuse), for one log two roots at one size (a log failure, log_inconsistent), and a
 * table's hands whose carried pot does not follow (a log failure, carry_mismatch: carryFaults).
 */
import { verifyPlayerSeed, verifyServerSeed } from "./fairness.mjs";
import { fault, groupFaults, verdictOf } from "./faults.mjs";
import { acceptsLegacyTime, verifyCheckpoint, verifyInclusion } from "./merkle.mjs";
import { evaluatePolicy, NONE, UNPROVEN_MESSAGE } from "./policy.mjs";
import { isStatementTime, parseRecord, readRecordText } from "./record.mjs";
import { checkShape } from "./shape.mjs";
import { compareOutcome, replayRecord } from "./replay.mjs";
import { checkStatements, jsonEquals, PHASES, statementLabel } from "./statements.mjs";
import { gameFor } from "./games/index.mjs";
import { checkpointChecks, parseTlogProof, statementLeafHash } from "./tlogproof.mjs";

export { NoReplayError } from "./replay.mjs";

/** How far a statement may be dated past what bounds it (audit.timecheck.DEFAULT_SKEW). */
export const SKEW_MS = 5 * 60 * 1000;
const NO_CHECKPOINT = ["not_log_bound", "bad_checkpoint", "malformed"];
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** A statement's time, written exactly YYYY-MM-DDTHH:MM:SS.mmmZ, in ms, or null (audit.timecheck.parse_time). */
export function parseTime(text) {
  if (!isStatementTime(text)) return null;
  const t = Date.parse(text);
  return Number.isNaN(t) ? null : t;
}

const stamp = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

function futureFaults(statements, bound, by) {
  const out = [];
  for (const [i, signed] of (Array.isArray(statements) ? statements : []).entries()) {
    const st = isObject(signed) ? signed.statement : null;
    if (!isObject(st)) continue;
    const t = parseTime(st.time);
    if (t !== null && t > bound + SKEW_MS) {
      const kind = typeof st.kind === "string" ? st.kind : null;
      out.push(fault("future_time", `${statementLabel(i + 1, kind)} is dated ${st.time}, later than ${by} (${stamp(bound)}) plus the 5m clock skew: a statement may not be dated in the future`, { statement: i + 1 }));
    }
  }
  return out;
}

/** The faults of a record's log evidence under the trusted key (audit/logcheck.py check_log_evidence). */
export async function logEvidenceFaults(record, publicKey, origin) {
  const f = record.fairness;
  const otherKey = String(record.table.public_key).toLowerCase() !== String(publicKey).toLowerCase();
  if (f.log_proofs === null) return [fault("not_log_bound", "a tiplu.hand/1 record carries no log evidence: nothing shows its statements were logged, or when")];
  if (!f.statements.length) return [];
  const label = (k) => statementLabel(k + 1, isObject(f.statements[k]?.statement) && typeof f.statements[k].statement.kind === "string" ? f.statements[k].statement.kind : null);
  const faults = [];
  const proofs = f.log_proofs.map((text, k) => {
    try {
      return parseTlogProof(text, { legacy: true });
    } catch (e) {
      faults.push(fault("not_in_log", `${label(k)} has no readable log proof: ${e.message}`, { statement: k + 1 }));
      return null;
    }
  });
  const texts = [...new Set(proofs.filter(Boolean).map((p) => p.checkpointText))];
  if (texts.length > 1) return [...faults, fault("bad_checkpoint", `the record's log proofs carry ${texts.length} different checkpoints, not one`)];
  if (!texts.length) return faults;
  const cpRes = await checkpointChecks(texts[0], { publicKey: String(publicKey).toLowerCase(), basis: "pinned", origin }, { legacy: acceptsLegacyTime(record.format) });
  const bad = cpRes.checks.find((c) => c.ok !== true);
  if (bad) {
    if (bad.ok === null) throw Object.assign(new Error(bad.detail), { name: "UnsupportedError" });
    return [...faults, fault("bad_checkpoint", `the record's checkpoint does not verify under the trusted key: ${bad.detail}`, { after: otherKey ? ["signature"] : [] })];
  }
  const cp = cpRes.checkpoint;
  const indices = [];
  for (const [k, signed] of f.statements.entries()) {
    const p = proofs[k];
    if (p === null) { indices.push(null); continue; }
    try {
      await verifyInclusion(await statementLeafHash(signed), p.index, cp.size, p.path, cp.rootHex);
      indices.push(p.index);
    } catch (e) {
      faults.push(fault("not_in_log", `${label(k)} is not leaf ${p.index} of the log at the checkpoint (size ${cp.size}): ${e.message}`, { statement: k + 1 }));
      indices.push(null);
    }
  }
  const placed = f.statements.map((s, k) => [indices[k], s?.statement]).filter(([i]) => i !== null);
  if (placed.some(([b], j) => j > 0 && !(b > placed[j - 1][0]))) {
    faults.push(fault("log_order", "the statements are not listed in the order of their log leaves (or two share a leaf)"));
  }
  let last = -1;
  let lastKind = null;
  for (const [i, st] of [...placed].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const kind = isObject(st) && typeof st.kind === "string" ? st.kind : null;
    if (!Object.hasOwn(PHASES, kind ?? "")) continue;
    if (PHASES[kind] < last) {
      faults.push(fault("log_order", `the ${kind} statement (leaf ${i}) was logged after the ${lastKind} statement: the protocol's order is broken`));
      break;
    }
    last = PHASES[kind];
    lastKind = kind;
  }
  return faults;
}

function checkpointTextOf(record) {
  const p = record.fairness.log_proofs;
  if (!Array.isArray(p) || !p.length || typeof p[0] !== "string") return null;
  const cut = p[0].indexOf("\n\n");
  return cut < 0 ? null : p[0].slice(cut + 2);
}

/** The verdict's timing and the witness_quorum fault (audit/timing.py judge_timing, a record judged alone). */
async function judgeTiming(record, faults, policy) {
  const label = policy ? policy.label ?? policy.name : null;
  let counted = [];
  let witnessed = false;
  const extra = [];
  if (policy && policy.quorum !== NONE) {
    const text = checkpointTextOf(record);
    let result = null;
    let problem = null;
    if (text === null) problem = "the record carries no log checkpoint, so no witness cosigned it";
    else {
      try {
        result = await evaluatePolicy(policy, text);
      } catch (e) {
        if (e?.name === "UnsupportedError") throw e;
        problem = `the record's log checkpoint cannot be read for cosignatures: ${e.message}`;
      }
    }
    if (problem === null && !result.quorumMet) {
      problem = `the record's log checkpoint lacks the witness quorum of ${label}; cosigned: ${result.counted.map((w) => w.name).join(", ") || "none"}`;
    }
    if (problem !== null) extra.push(fault("witness_quorum", problem, { after: NO_CHECKPOINT }));
    else {
      counted = result.counted;
      witnessed = !faults.some((x) => NO_CHECKPOINT.includes(x.reason));
    }
  }
  const timing = witnessed
    ? { status: "witnessed", policy: label, witnesses: counted, message: `Witnessed: ${counted.length} witness${counted.length === 1 ? "" : "es"} you pinned in ${label} (${counted.map((w) => w.name).join(", ")}) cosigned this record's log checkpoint.` }
    : { status: "unproven", policy: label, witnesses: counted, message: UNPROVEN_MESSAGE };
  return { timing, extra };
}

/** Audit one record (module doc).  `data`: its JSON text or the parsed value. */
export async function auditRecord(data, { trust = null, policy = null, checkSignatures = true, replay = true } = {}) {
  let raw = data;
  let record;
  try {
    if (typeof data === "string") raw = readRecordText(data);
    checkShape(raw); // the record's schema first, then its meaning: as audit_record
    record = await parseRecord(raw);
  } catch (e) {
    if (typeof raw === "string") { try { raw = JSON.parse(raw); } catch { /* not JSON: no hand id */ } }
    const handId = isObject(raw) && typeof raw.hand_id === "string" ? raw.hand_id : null;
    return { hand_id: handId, record: null, timing: null, replay: null, ...verdictOf([fault("malformed", e.message)]) };
  }
  const faults = [];
  const f = record.fairness;
  if (f.server_seed === null) faults.push(fault("not_revealed", "the server seed is not revealed yet"));
  else {
    try { await verifyServerSeed(f.server_seed, f.server_commitment); } catch (e) { faults.push(fault("server_seed_mismatch", e.message)); }
  }
  for (const [seat, seed] of f.player_seeds.entries()) {
    try { await verifyPlayerSeed(record.hand_id, seat, seed, f.seat_commitments[seat]); } catch (e) { faults.push(fault("seat_seed_mismatch", e.message)); }
  }
  if (record.ruleset.hash !== f.ruleset_hash) faults.push(fault("ruleset_mismatch", "the resolved ruleset does not hash to the committed ruleset hash"));
  const pinned = trust && trust.public_key ? trust : null;
  const key = pinned ? pinned.public_key : record.table.public_key;
  faults.push(...await checkStatements(record, { publicKey: pinned ? key : null, checkSignatures }));
  let replayed = null;
  if (f.server_seed !== null && replay) {
    replayed = await replayRecord(record, { require: replay === "require" });
    if (replayed.checked) {
      faults.push(...replayed.faults);
      faults.push(...compareOutcome(record.outcome, replayed));
    }
  }
  faults.push(...await logEvidenceFaults(record, key, pinned ? pinned.origin ?? null : null));
  const { timing, extra } = await judgeTiming(record, faults, policy);
  faults.push(...extra);
  const stamps = timing.witnesses.map((w) => w.timestamp).filter(Number.isInteger);
  if (stamps.length) {
    const first = Math.min(...stamps);
    const who = timing.witnesses.find((w) => w.timestamp === first).name;
    faults.push(...futureFaults(f.statements, first * 1000, `witness ${who}'s cosignature of the checkpoint that holds it`));
  }
  return { hand_id: record.hand_id, record, timing, replay: replayed, ...verdictOf(faults) };
}

/** What the records show together (audit/archive_scan.py): hand id -> [future_time..., seed_reuse...]. */
function scanRecords(values, now) {
  const found = new Map();
  const seeds = new Map(); // "commitment:<hex>" | "seed:<hex>" -> Set of hand ids
  const hex = (v) => (typeof v === "string" && v ? v.toLowerCase() : null);
  for (const data of values) {
    if (!isObject(data) || !isObject(data.fairness)) continue;
    const handId = data.hand_id;
    if (typeof handId === "string") {
      for (const [what, v] of [["commitment", hex(data.fairness.server_commitment)], ["seed", hex(data.fairness.server_seed)]]) {
        if (v === null) continue;
        const k = `${what}:${v}`;
        if (!seeds.has(k)) seeds.set(k, new Set());
        seeds.get(k).add(handId);
      }
    }
    const future = futureFaults(data.fairness.statements, now, "the auditor's clock");
    if (future.length && typeof handId === "string") {
      const list = found.get(handId) ?? [];
      for (const x of future) if (!list.some((y) => y.message === x.message && y.statement === x.statement)) list.push(x);
      found.set(handId, list);
    }
  }
  const what = { commitment: "server seed commitment", seed: "server seed" };
  for (const k of [...seeds.keys()].sort()) {
    const hands = [...seeds.get(k)].sort();
    if (hands.length < 2) continue;
    const [kind, value] = k.split(":");
    for (const h of hands) {
      const others = hands.filter((x) => x !== h).join(", ");
      const list = found.get(h) ?? [];
      list.push(fault("seed_reuse", `the ${what[kind]} ${value.slice(0, 16)}... is used by hand(s) ${others} too: a server seed must be fresh for every hand`));
      found.set(h, list);
    }
  }
  return found;
}

/** The checkpoint of a record's first proof, verified under the trusted key and origin, or null. */
async function verifiedCheckpointOf(data, trust) {
  try {
    const text = parseTlogProof(data.fairness.log_proofs[0], { legacy: true }).checkpointText;
    const cp = await verifyCheckpoint(text, String(trust?.public_key || data.table.public_key).toLowerCase());
    return !trust?.origin || cp.origin === trust.origin ? cp : null;
  } catch {
    return null;
  }
}

/**
 * A table's carry faults no rejected record explains (audit/auditor/run/report.py): per table,
 * of the records replayed to a settlement, a hand number claimed twice, or a hand whose carry
 * (Kitti's pot, D-14) is not what the hand before it left -- its carry moved on by its
 * outcome as the game says (GAME.carryAfter).  A fault between hands a and a + 1 where either
 * record failed follows from that failure and is not counted again.
 */
export function carryFaults(verdicts) {
  const tables = new Map();
  for (const v of verdicts) {
    const r = v.record;
    if (!r || !v.replay?.settlement) continue;
    const t = tables.get(r.table.table_id) ?? { numbers: new Map(), carries: new Map(), rejected: new Set() };
    tables.set(r.table.table_id, t);
    const n = r.table.hand_no;
    if (n === null) continue;
    t.numbers.set(n, (t.numbers.get(n) ?? 0) + 1);
    if (!v.ok) t.rejected.add(n);
    const carry = r.table.carry;
    const game = gameFor(r.ruleset.game);
    if (Object.keys(carry).length && game?.carryAfter) t.carries.set(n, [carry, game.carryAfter(carry, v.replay.outcome)]);
  }
  const out = [];
  for (const [tid, t] of tables) {
    for (const [n, c] of t.numbers) if (c > 1) out.push(`${tid}: hand number ${n} is claimed by ${c} records`);
    const nos = [...t.carries.keys()].sort((a, b) => a - b);
    for (const [i, b] of nos.entries()) {
      const a = nos[i - 1];
      if (i === 0 || b !== a + 1 || jsonEquals(t.carries.get(a)[1], t.carries.get(b)[0])) continue;
      if (t.rejected.has(a) || t.rejected.has(b)) continue; // a consequence of that record's failure
      out.push(`${tid}: hand ${b} starts with pot ${JSON.stringify(t.carries.get(b)[0])}, but hand ${a} left ${JSON.stringify(t.carries.get(a)[1])}`);
    }
  }
  return out;
}

/** Audit a request's records together (module doc): {verdicts, log_failures}. */
export async function auditRecords(texts, { trust = null, policy = null, now = Date.now(), oneLog = false, checkSignatures = true, replay = true } = {}) {
  const values = texts.map((t) => { try { return readRecordText(t); } catch { return null; } });
  const findings = scanRecords(values, now);
  const verdicts = [];
  const roots = new Map(); // size -> Set of roots (one log: the checkpoints the audit met)
  for (const [i, text] of texts.entries()) {
    const v = await auditRecord(values[i] === null ? text : values[i], { trust, policy, checkSignatures, replay });
    const extra = v.hand_id !== null ? findings.get(v.hand_id) ?? [] : [];
    const all = extra.length ? { ...v, ...verdictOf([...groupFaults(v.faults), ...extra]) } : v;
    verdicts.push(all);
    if (oneLog && values[i] !== null) {
      const cp = await verifiedCheckpointOf(values[i], trust);
      if (cp) {
        const k = cp.size.toString();
        if (!roots.has(k)) roots.set(k, new Set());
        roots.get(k).add(cp.rootHex);
      }
    }
  }
  const logFailures = [...roots.values()].filter((r) => r.size > 1).map(() => "log_inconsistent");
  logFailures.push(...carryFaults(verdicts).map(() => "carry_mismatch"));
  return { verdicts, log_failures: logFailures.sort() };
}
