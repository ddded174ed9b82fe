/**
 * What a record's signed statements must say, checked in the browser exactly as
 * audit/statement_check.py's check_statements (docs/records.md, "What statement_mismatch
 * compares" and "event_order and log_order"):
 *
 *   checkStatements(record, {publicKey, checkSignatures}) -> Promise of [fault]  (./faults.mjs)
 *
 * `record` is ./record.mjs's parsed record; `publicKey` the trusted operator key (hex), or
 * null to use the key the record names (not a trust anchor).  Every statement must be under
 * that key (its `key` field; with checkSignatures its Ed25519 signature verifies too:
 * `signature`), of the record's hand, of a known kind, in a tiplu.hand/3 record of type
 * tiplu.statement/2, and say what the record says, field by field (`statement_mismatch`);
 * the kinds never go back and no seat reveals before every seat committed (`event_order`);
 * the times never go back, compared as text with the latest before (`time_order`); every
 * kind is there (a `reveal` once the seed is published) with a receipt and a reveal per seat.
 */
import { canonicalHash } from "./canonical.mjs";
import { toHex } from "./bytes.mjs";
import { sameAmount } from "./decimal.mjs";
import { fault } from "./faults.mjs";
import { chainHead } from "./movechain.mjs";
import { recordHash } from "./record.mjs";
import { verifyStatementSignature } from "./tlogproof.mjs";

export const STATEMENT_TYPE = "tiplu.statement/2";
export const PHASES = Object.freeze({ hand: 0, commitment: 1, "seat-receipt": 2, "seat-reveal": 3, deal: 4, record: 5, reveal: 6 });
const REQUIRED = ["hand", "commitment", "seat-receipt", "seat-reveal", "deal", "record"];
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

export function statementLabel(number, kind = null) {
  return kind ? `statement ${number} (${kind})` : `statement ${number}`;
}

/** An amount the record holds (hundredths) is a field of its own kind: compared as a number. */
class Amount {
  constructor(hundredths) { this.hundredths = hundredths; }
}

async function handHash(record) {
  for (const signed of record.fairness.statements) {
    const st = isObject(signed) ? signed.statement : null;
    if (isObject(st) && st.kind === "hand") {
      try {
        return await canonicalHash(st);
      } catch {
        return null;
      }
    }
  }
  return null;
}

async function movesBinding(record) {
  try {
    const { head, n } = await chainHead(record.hand_id, record.fairness.server_commitment, record.moves);
    return { moves_head: head, n_moves: n };
  } catch { // a move with no canonical JSON (a float): no head matches it
    return { moves_head: null, n_moves: record.moves.length };
  }
}

/** For each kind, the fields its statement must share with the record (strings lower-cased). */
async function expectations(record) {
  const f = record.fairness;
  const t = record.table;
  const seats = t.players.map((player, seat) => ({ seat, player }));
  const out = {
    hand: { table_id: t.table_id, operator: t.operator, ruleset_hash: f.ruleset_hash, seats, dealer: t.dealer,
      point_value: new Amount(t.point_value), commission_pct: new Amount(t.commission_pct) },
    commitment: { server_seed_commitment: f.server_commitment, ruleset_hash: f.ruleset_hash },
    deal: { server_seed_commitment: f.server_commitment, ruleset_hash: f.ruleset_hash,
      player_seeds: f.player_seeds.map(toHex), dealer: t.dealer },
    record: { record_hash: await recordHash(record.raw), ...(record.bindsMoves ? await movesBinding(record) : {}) },
    reveal: { server_seed: f.server_seed ? toHex(f.server_seed) : null },
  };
  if (record.isLogBound) {
    out["seat-receipt"] = { server_seed_commitment: f.server_commitment, ruleset_hash: f.ruleset_hash,
      ...(record.bindsMoves ? { hand_hash: await handHash(record) } : {}) };
  }
  for (const fields of Object.values(out)) {
    for (const [k, v] of Object.entries(fields)) if (typeof v === "string") fields[k] = v.toLowerCase();
  }
  return out;
}

/** Python's == on JSON values: numbers by value (true == 1), lists in order, objects by keys. */
export function jsonEquals(a, b) {
  const num = (v) => (typeof v === "boolean" ? Number(v) : v);
  if ((typeof a === "number" || typeof a === "boolean") && (typeof b === "number" || typeof b === "boolean")) return num(a) === num(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEquals(x, b[i]));
  }
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEquals(a[k], b[k]));
  }
  return a === b;
}

/** Whether a statement's `a` says the record's `b` (a string `b` is lower-cased already). */
function equal(a, b) {
  if (typeof b === "string") return typeof a === "string" && a.toLowerCase() === b;
  if (b instanceof Amount) return (typeof a === "string" || typeof a === "number") && sameAmount(typeof a === "number" ? String(a) : a, b.hundredths);
  return jsonEquals(a, b);
}

/** A statement field that differs because a seed of the record was changed follows from that. */
const AFTER = { player_seeds: ["seat_seed_mismatch"], server_seed: ["server_seed_mismatch"], ruleset_hash: ["ruleset_mismatch"] };

async function statementOf(signed, key, checkSignature) {
  if (!isObject(signed) || !isObject(signed.statement)) throw new Error("a signed statement needs 'statement', 'key' and 'sig'");
  if (checkSignature) {
    if (String(signed.key) !== key) throw new Error("statement is signed by another key than the operator's");
    await verifyStatementSignature(signed, key);
  } else if (String(signed.key).toLowerCase() !== key) {
    throw new Error("statement is signed by another key than the trusted operator key");
  }
  return signed.statement;
}

/** The faults of a record's statements (module doc). */
export async function checkStatements(record, { publicKey = null, checkSignatures = true } = {}) {
  const faults = [];
  const f = record.fairness;
  const n = record.table.players.length;
  const key = publicKey || record.table.public_key;
  const otherKey = Boolean(publicKey) && String(publicKey).toLowerCase() !== String(record.table.public_key).toLowerCase();
  if (otherKey) faults.push(fault("signature", "the record names another operator key than the one audited against"));
  const expect = await expectations(record);
  const keyUsed = checkSignatures ? key : String(key).toLowerCase();
  const seen = new Map();
  const committed = new Set();
  const revealed = new Set();
  let phase = -1;
  let lastTime = "";
  for (const [i, signed] of f.statements.entries()) {
    const number = i + 1;
    let st;
    try {
      st = await statementOf(signed, keyUsed, checkSignatures);
    } catch (e) {
      if (e?.name === "UnsupportedError") throw e;
      const body = isObject(signed) && isObject(signed.statement) ? signed.statement : {};
      const kind = typeof body.kind === "string" ? body.kind : null;
      faults.push(fault("signature", `${statementLabel(number, kind)}: ${e.message}`, { statement: number, after: otherKey ? ["signature"] : [] }));
      if (kind in PHASES) {
        seen.set(kind, (seen.get(kind) ?? 0) + 1);
        if (Number.isInteger(body.seat) && kind === "seat-receipt") committed.add(body.seat);
        else if (Number.isInteger(body.seat) && kind === "seat-reveal") revealed.add(body.seat);
      }
      continue;
    }
    const kind = st.kind;
    const nameOf = statementLabel(number, typeof kind === "string" ? kind : null);
    if (kind === "cancel") {
      faults.push(fault("event_order", `${nameOf}: a cancel among a recorded hand's statements (a hand is cancelled only before the deal, and never recorded)`, { statement: number }));
      continue;
    }
    if (typeof kind !== "string" || !Object.hasOwn(PHASES, kind)) {
      faults.push(fault("statement_mismatch", `${nameOf} has unknown kind ${JSON.stringify(kind)}`, { statement: number }));
      continue;
    }
    if (record.bindsMoves && st.type !== STATEMENT_TYPE) {
      faults.push(fault("statement_mismatch", `${nameOf} is not a ${STATEMENT_TYPE} statement (a ${record.format} record's statements are)`, { statement: number }));
    }
    if (st.hand_id !== record.hand_id) faults.push(fault("statement_mismatch", `${nameOf} is about another hand`, { statement: number }));
    seen.set(kind, (seen.get(kind) ?? 0) + 1);
    for (const [name, value] of Object.entries(expect[kind] ?? {})) {
      if (value === null || !equal(st[name], value)) {
        faults.push(fault("statement_mismatch", `${nameOf}: the signed ${kind} statement's ${name} differs from the record`,
          { statement: number, after: AFTER[name] ?? [] }));
      }
    }
    if (kind === "seat-receipt" || kind === "seat-reveal") {
      const seat = st.seat;
      if (!Number.isInteger(seat) || seat < 0 || seat >= n) {
        faults.push(fault("statement_mismatch", `${nameOf} names no seat of the table`, { statement: number }));
        continue;
      }
      if (kind === "seat-receipt") {
        committed.add(seat);
        if (String(st.commitment).toLowerCase() !== f.seat_commitments[seat]) {
          faults.push(fault("statement_mismatch", `${nameOf}: seat ${seat}'s signed commitment differs from the record`,
            { statement: number, after: ["seat_seed_mismatch"] }));
        }
      } else {
        if (!everySeat(committed, n)) {
          faults.push(fault("event_order", `${nameOf}: seat ${seat} revealed its seed before every seat had committed`, { statement: number }));
        }
        revealed.add(seat);
        if (String(st.seed).toLowerCase() !== toHex(f.player_seeds[seat])) {
          faults.push(fault("statement_mismatch", `${nameOf}: seat ${seat}'s signed seed differs from the record`,
            { statement: number, after: ["seat_seed_mismatch"] }));
        }
      }
    }
    const p = PHASES[kind];
    const time = Object.hasOwn(st, "time") ? st.time : "";
    if (p < phase) {
      faults.push(fault("event_order", `${nameOf} comes after a later phase`, { statement: number }));
    } else if (typeof time === "string" && compareText(time, lastTime) < 0) {
      faults.push(fault("time_order", `${nameOf} is dated before the one before it`, { statement: number }));
    }
    phase = Math.max(phase, p);
    const t = typeof time === "string" ? time : "";
    if (compareText(t, lastTime) > 0) lastTime = t;
  }
  for (const kind of [...REQUIRED, ...(f.server_seed !== null ? ["reveal"] : [])]) {
    if (!seen.has(kind)) faults.push(fault("statement_mismatch", `the record carries no signed ${kind} statement`));
  }
  if (seen.size && !everySeat(committed, n)) faults.push(fault("statement_mismatch", "not every seat's commitment is signed"));
  if (seen.size && !everySeat(revealed, n)) faults.push(fault("statement_mismatch", "not every seat's reveal is signed"));
  return faults;
}

/** Whether `seats` is exactly {0, ..., n-1}. */
function everySeat(seats, n) {
  return seats.size === n && [...seats].every((s) => s >= 0 && s < n);
}

/** Python's string order: by code point (not UTF-16 units). */
function compareText(a, b) {
  const x = [...a].map((c) => c.codePointAt(0));
  const y = [...b].map((c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return x.length - y.length;
}
