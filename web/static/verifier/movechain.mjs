/**
 * The move chain of a format-3 hand (docs/fairness.md "Moves as played"; Python:
 * replay/movechain.py), byte for byte:
 *
 *   head_0     = SHA-256("tiplu.moves/1" || 0x0A || canonical({"hand_id": H, "server_seed_commitment": C}))
 *   head_{i+1} = SHA-256(head_i || SHA-256(canonical(move_i)))
 *
 *   startHead(handId, commitment)        -> Promise of Uint8Array (head_0)
 *   nextHead(head, move)                 -> Promise of Uint8Array
 *   chainHeads(handId, commitment, moves) -> Promise of hex heads, heads[i] = head_{i+1}
 *   chainHead(handId, commitment, moves)  -> Promise of {head (hex), n}
 *   movesChecks(record)                  -> Promise of [{name, title, ok, detail, reason?}]
 *
 * movesChecks is the audit's check of a tiplu.hand/3 record (audit/auditor/verdict/statement_check.py): the
 * logged `record` statement's moves_head and n_moves are the chain over the record's moves,
 * and every seat-receipt's hand_hash is the hash of the record's hand statement; a
 * difference is `statement_mismatch`.
 */
import { canonicalHash, canonicalJson } from "./canonical.mjs";
import { concatBytes, sha256, toHex, utf8 } from "./bytes.mjs";

export const FORMAT_V3 = "tiplu.hand/3";
export const MOVE_RECEIPT_TYPE = "tiplu.move-receipt/1";
const DOMAIN = "tiplu.moves/1";

export async function startHead(handId, commitment) {
  const context = canonicalJson({ hand_id: handId, server_seed_commitment: String(commitment).toLowerCase() });
  return sha256(concatBytes(utf8(DOMAIN), Uint8Array.of(0x0a), context));
}

export async function nextHead(head, move) {
  return sha256(concatBytes(head, await sha256(canonicalJson(move))));
}

export async function chainHeads(handId, commitment, moves) {
  let head = await startHead(handId, commitment);
  const out = [];
  for (const move of moves) {
    head = await nextHead(head, move);
    out.push(toHex(head));
  }
  return out;
}

export async function chainHead(handId, commitment, moves) {
  let head = await startHead(handId, commitment);
  for (const move of moves) head = await nextHead(head, move);
  return { head: toHex(head), n: moves.length };
}

function check(name, title, ok, detail, reason = null) {
  const c = { name, title, ok, detail };
  if (ok === false && reason) c.reason = reason;
  return c;
}

const lower = (v) => (typeof v === "string" ? v.toLowerCase() : v);

/** The format-3 bindings of a record (empty for another format). */
export async function movesChecks(record) {
  if (record?.format !== FORMAT_V3) return [];
  const statements = (Array.isArray(record.fairness?.statements) ? record.fairness.statements : [])
    .map((s) => s?.statement).filter((s) => s && typeof s === "object");
  const out = [];
  const moves = Array.isArray(record.moves) ? record.moves : [];
  const recordSt = statements.find((s) => s.kind === "record");
  if (recordSt) {
    let got;
    try {
      got = await chainHead(record.hand_id, record.fairness?.server_commitment ?? "", moves);
    } catch (e) {
      got = { head: null, n: moves.length };
    }
    const ok = got.head !== null && lower(recordSt.moves_head) === got.head && recordSt.n_moves === got.n;
    out.push(check("moves:chain", ok ? "The moves are the ones the logged record statement binds"
      : "The moves are NOT the ones the logged record statement binds", ok,
      ok ? `${got.n} moves, head ${got.head.slice(0, 12)}…`
        : `the chain over the record's ${got.n} moves gives ${got.head ? got.head.slice(0, 12) + "…" : "no head"}; the signed record statement says ${String(recordSt.moves_head).slice(0, 12)}… after ${recordSt.n_moves}`,
      "statement_mismatch"));
  }
  const hand = statements.find((s) => s.kind === "hand");
  const receipts = statements.filter((s) => s.kind === "seat-receipt");
  if (hand && receipts.length) {
    const want = await canonicalHash(hand);
    const wrong = receipts.filter((s) => lower(s.hand_hash) !== want).map((s) => s.seat);
    out.push(check("moves:hand-hash", wrong.length ? "NOT every seat receipt binds the hand statement"
      : "Every seat receipt binds the hand statement (terms and names)", wrong.length === 0,
      wrong.length ? `seat-receipt of seat ${wrong.join(", ")} binds another hand statement than the record's`
        : `${receipts.length} seat receipts carry hand_hash ${want.slice(0, 12)}…`, "statement_mismatch"));
  }
  return out;
}
