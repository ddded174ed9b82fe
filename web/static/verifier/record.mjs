/**
 * A hand record read in the browser, as replay/records.py's parse_record: the shape the audit
 * needs, with typed errors (VerifyError "malformed", with the JSON location).  It does not
 * judge whether the record is true: that is ./audit.mjs.
 *
 *   parseRecord(data) -> Promise of {hand_id, format, table, ruleset, fairness, moves, outcome, raw,
 *                                    isLogBound, bindsMoves}
 *   recordHash(raw)   -> Promise of the hex SHA-256 of the canonical JSON of the record's core
 *                        (everything but fairness.server_seed, .statements, .log_proofs):
 *                        what its `record` statement signs
 *
 *   readRecordText(text) -> the parsed value of a record's JSON text, as Python reads it:
 *                        VerifyError "malformed" for text that is not JSON, and for a number
 *                        written with a fraction or an exponent anywhere (`1.0`, `1e0`: JSON.parse
 *                        alone would make them the integer 1; docs/records.md, integers written
 *                        as integers)
 *   isStatementTime(t) -> whether t is a statement time as documented: exactly
 *                        YYYY-MM-DDTHH:MM:SS.mmmZ and a real date and time (replay.record_text.is_statement_time)
 *
 * table: {table_id, operator, public_key, players, dealer, point_value, commission_pct
 * (BigInt hundredths, ./decimal.mjs), carry, hand_no}; fairness: {ruleset_hash,
 * server_commitment, seat_commitments (lower-case hex), player_seeds (Uint8Array),
 * server_seed (Uint8Array | null), statements, log_proofs (null in a tiplu.hand/1)}.
 */
import { VerifyError } from "./errors.mjs";
import { canonicalHash } from "./canonical.mjs";
import { parseCommissionPct, parsePointValue } from "./decimal.mjs";
import { parseDigest, parsePlayerSeed, parseServerSeed } from "./fairness.mjs";
import { toHex } from "./bytes.mjs";
import { rulesetFromJson } from "./rulesets.mjs";

export const RECORD_FORMATS = Object.freeze(["tiplu.hand/1", "tiplu.hand/2", "tiplu.hand/3"]);
export const LOG_BOUND = Object.freeze(["tiplu.hand/2", "tiplu.hand/3"]);
export const MAX_LOG_PROOF_CHARS = 8192;
export const MAX_MOVES = 20000;
export const MAX_HAND_ID = 128;

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const bad = (message, location) => new VerifyError("malformed", message, { location });

function need(obj, key, type, where) {
  if (!isObject(obj)) throw bad("expected an object", where);
  if (!Object.hasOwn(obj, key)) throw bad(`missing field '${key}'`, where);
  const v = obj[key];
  const ok = type === "int" ? Number.isInteger(v) : type === "list" ? Array.isArray(v) : typeof v === type;
  if (!ok) throw bad(`field '${key}' must be ${type === "string" ? "str" : type}`, `${where}.${key}`);
  return v;
}

/** The location (line and column) of the first number written with a fraction or an exponent, or null. */
function firstNonInteger(text) {
  let line = 1;
  let col = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") { line += 1; col = 1; continue; }
    if (c === '"') { // skip the string (JSON.parse has judged its escapes; it holds no raw line break)
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      col += i - start + 1;
      continue;
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      let j = i;
      while (j < text.length && /[-+0-9.eE]/.test(text[j])) j++;
      if (/[.eE]/.test(text.slice(i, j))) return `line ${line} column ${col}`;
      col += j - i;
      i = j - 1;
      continue;
    }
    col += 1;
  }
  return null;
}

/** A record's JSON text to its value, as Python reads it (module doc); throws VerifyError("malformed"). */
export function readRecordText(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw bad(`not JSON: ${e.message}`, "$");
  }
  const where = firstNonInteger(text);
  if (where !== null) {
    throw bad("a number is written with a fraction or an exponent: a record writes every number as an integer (1, not 1.0 or 1e0)", where);
  }
  return value;
}

const STATEMENT_TIME = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$/;

/** Whether `t` is a statement time as documented (module doc). */
export function isStatementTime(t) {
  if (typeof t !== "string" || !STATEMENT_TIME.test(t)) return false;
  const [year, month, day, hour, minute, second] = [[0, 4], [5, 7], [8, 10], [11, 13], [14, 16], [17, 19]].map(([a, b]) => Number(t.slice(a, b)));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= days[month - 1] && hour < 24 && minute < 60 && second < 60;
}

function handId(v) {
  // printable: no control, separator or unassigned characters (Python str.isprintable)
  if (typeof v !== "string" || v.length < 1 || [...v].length > MAX_HAND_ID || /[\p{C}\p{Z}]/u.test(v.replaceAll(" ", ""))) {
    throw bad(`a hand id is 1..${MAX_HAND_ID} printable characters`, "hand_id");
  }
  return v;
}

function parseTable(t) {
  const w = "table";
  if (!isObject(t)) throw bad("expected an object", w);
  const seats = need(t, "seats", "list", w);
  if (seats.length < 1 || seats.length > 16) throw bad("a table has 1..16 seats", `${w}.seats`);
  const players = seats.map((s, i) => {
    if (need(s, "seat", "int", `${w}.seats[${i}]`) !== i) throw bad("seats must be listed in order 0..n-1", `${w}.seats[${i}].seat`);
    return need(s, "player", "string", `${w}.seats[${i}]`);
  });
  const dealer = need(t, "dealer", "int", w);
  if (dealer < 0 || dealer >= seats.length) throw bad("dealer is not a seat of the table", `${w}.dealer`);
  let pointValue;
  let pct;
  try {
    pointValue = parsePointValue(need(t, "point_value", "string", w));
    pct = parseCommissionPct(need(t, "commission_pct", "string", w));
  } catch (e) {
    throw bad(e.message, w);
  }
  const handNo = t.hand_no ?? null;
  if (handNo !== null && !(Number.isInteger(handNo) && handNo >= 0)) throw bad("hand_no must be a non-negative integer", `${w}.hand_no`);
  const carry = t.carry ?? {};
  if (!isObject(carry)) throw bad("carry must be an object", `${w}.carry`);
  return {
    table_id: need(t, "table_id", "string", w), operator: need(t, "operator", "string", w),
    public_key: need(t, "public_key", "string", w), players, dealer, point_value: pointValue, commission_pct: pct,
    carry, hand_no: handNo,
  };
}

const digestHex = (text, what) => toHex(parseDigest(text, what));

function parseFairness(f, nSeats, v2) {
  const w = "fairness";
  if (!isObject(f)) throw bad("expected an object", w);
  if (need(f, "protocol", "string", w) !== "v1") throw bad("only protocol v1 is known", `${w}.protocol`);
  let out;
  try {
    out = {
      ruleset_hash: digestHex(need(f, "ruleset_hash", "string", w), "ruleset_hash"),
      server_commitment: digestHex(need(f, "server_commitment", "string", w), "server_commitment"),
      seat_commitments: need(f, "seat_commitments", "list", w).map((c, i) => digestHex(c, `seat commitment ${i}`)),
      player_seeds: need(f, "player_seeds", "list", w).map((s) => parsePlayerSeed(s)),
      server_seed: f.server_seed === null || f.server_seed === undefined ? null : parseServerSeed(f.server_seed),
    };
  } catch (e) {
    throw bad(e.message, w);
  }
  if (out.seat_commitments.length !== nSeats || out.player_seeds.length !== nSeats) {
    throw bad(`one seat commitment and one seed per seat (${nSeats})`, w);
  }
  const statements = f.statements ?? [];
  if (!Array.isArray(statements) || !statements.every(isObject)) throw bad("statements must be a list of signed statements", `${w}.statements`);
  statements.forEach((signed, i) => {
    const st = signed.statement;
    if (isObject(st) && Object.hasOwn(st, "time") && !isStatementTime(st.time)) {
      throw bad("a statement's time is written exactly YYYY-MM-DDTHH:MM:SS.mmmZ (UTC)", `${w}.statements[${i}].statement.time`);
    }
  });
  let proofs = null;
  if (v2) {
    proofs = f.log_proofs ?? [];
    if (!Array.isArray(proofs)) throw bad("log_proofs must be a list of tlog proofs", `${w}.log_proofs`);
    if (proofs.length !== statements.length) throw bad("one log proof per statement", `${w}.log_proofs`);
    proofs.forEach((p, i) => {
      if (typeof p !== "string" || p.length > MAX_LOG_PROOF_CHARS) {
        throw bad(`a log proof is text of at most ${MAX_LOG_PROOF_CHARS} characters`, `${w}.log_proofs[${i}]`);
      }
    });
  } else if (Object.hasOwn(f, "log_proofs")) {
    throw bad("a tiplu.hand/1 record carries no log proofs", `${w}.log_proofs`);
  }
  return { ...out, statements, log_proofs: proofs };
}

/** Parse a record (module doc); throws VerifyError("malformed"). */
export async function parseRecord(data) {
  if (!isObject(data)) throw bad("a hand record must be a JSON object", "$");
  const format = data.format;
  if (!RECORD_FORMATS.includes(format)) throw bad("format must be 'tiplu.hand/3' (or 'tiplu.hand/2', 'tiplu.hand/1')", "format");
  const hand_id = handId(data.hand_id);
  const table = parseTable(data.table);
  let ruleset;
  try {
    ruleset = await rulesetFromJson(data.ruleset);
  } catch (e) {
    throw bad(e.message, "ruleset");
  }
  const fairness = parseFairness(data.fairness, table.players.length, LOG_BOUND.includes(format));
  const moves = need(data, "moves", "list", "$");
  if (moves.length > MAX_MOVES) throw bad(`at most ${MAX_MOVES} moves`, "moves");
  moves.forEach((m, i) => { if (!isObject(m)) throw bad("a move must be an object", `moves[${i}]`); });
  const outcome = data.outcome ?? null;
  if (outcome !== null && !isObject(outcome)) throw bad("outcome must be an object", "outcome");
  return {
    hand_id, format, table, ruleset, fairness, moves, outcome, raw: data,
    isLogBound: fairness.log_proofs !== null, bindsMoves: format === "tiplu.hand/3",
  };
}

const SIGNED_APART = ["server_seed", "statements", "log_proofs"];

/** The hash a record's `record` statement signs (module doc). */
export async function recordHash(raw) {
  const core = { ...raw };
  if (isObject(raw.fairness)) {
    core.fairness = Object.fromEntries(Object.entries(raw.fairness).filter(([k]) => !SIGNED_APART.includes(k)));
  }
  return canonicalHash(core);
}
