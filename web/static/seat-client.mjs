/**
 * A seat's client in the browser: keep the receipt the operator answers, check it before the
 * seed is revealed, and check a published record against it -- the same checks as Python's
 * audit/operator/receipts.py and audit/auditor/verdict/receipt_check.py, with the operator key the player pinned.
 *
 *   verifyReceipt(receipt, publicKeyHex)       -> Promise of the receipt's facts (throws ReceiptError)
 *   checkBeforeReveal(receipt, publicKeyHex, {handId, seat, seedHex?, shownCommitment?, player?, terms?})
 *   checkMoveReceipt(moveReceipt, publicKeyHex, {handId, previous?, move?, commitment?})
 *                                              -> Promise of its statement (throws ReceiptError)
 *   keepMoveReceipts(kept, fresh, publicKeyHex, {handId}) -> Promise of the receipts kept
 *   commitSeed({baseUrl, handId, seat, seedHex, token, publicKey})  -> the checked receipt (POST, then check)
 *   revealSeed({baseUrl, handId, seat, seedHex, token, publicKey, receipt, shownCommitment?})
 *                                              checks first; nothing is sent when the check fails
 *   compareReceipt(receipt, record, {publicKey?, moveReceipts?})
 *                                              -> {consistent, contradictions, checked, notChecked, trust}
 *
 * A receipt (tiplu.receipt/3, docs/records.md "Receipts") holds signed statements of one
 * hand, each with a C2SP tlog-proof, all at one checkpoint: a seat receipt holds the hand's
 * `hand` statement (the terms and every seat's name), its `commitment` and the seat's
 * `seat-receipt`, which binds that server commitment, the ruleset hash and the hand
 * statement's hash (`hand_hash`).  A tiplu.receipt/2 (no hand statement) is still checked
 * by its own rules.  A move receipt (tiplu.move-receipt/1, docs/fairness.md "Moves as
 * played") is the operator's signed head of the hand's move chain after each move; the
 * client keeps them, and compareReceipt proves a record with other moves forged.  Each statement must be exactly the leaf at its index under a checkpoint
 * that verifies under the pinned key (its own `key` must be that key too: the checkpoint's
 * signature covers every leaf, key and signature included).  A contradiction found by
 * compareReceipt is a proof (both sides are the operator's signed words); an agreement shows
 * the receipt's leaves are the same leaves in the record's tree, and two checkpoints of
 * different sizes are one log only if a consistency proof says so (not in the files).
 */
import { fromHex, toHex } from "./verifier/bytes.mjs";
import { canonicalHash, canonicalJson } from "./verifier/canonical.mjs";
import { chainHeads, MOVE_RECEIPT_TYPE, nextHead, startHead } from "./verifier/movechain.mjs";
import { commitPlayerSeed } from "./verifier/fairness.mjs";
import { acceptsLegacyTime, hexToBytes, verifyCheckpoint, verifyInclusion } from "./verifier/merkle.mjs";
import { parseTlogProof, statementLeafHash } from "./verifier/tlogproof.mjs";

export const RECEIPT_FORMAT = "tiplu.receipt/3";
export const RECEIPT_FORMAT_V2 = "tiplu.receipt/2";

export class ReceiptError extends Error {
  constructor(message) { super(message); this.name = "ReceiptError"; }
}

const same = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

/** Check a receipt under the pinned key; its facts, or throw ReceiptError. */
export async function verifyReceipt(receipt, publicKeyHex) {
  if (!receipt || typeof receipt !== "object" || ![RECEIPT_FORMAT, RECEIPT_FORMAT_V2].includes(receipt.format)) {
    throw new ReceiptError(`a receipt is a JSON object with format ${RECEIPT_FORMAT} (or ${RECEIPT_FORMAT_V2})`);
  }
  const { statements, log_proofs: proofs } = receipt;
  if (!Array.isArray(statements) || !Array.isArray(proofs) || !statements.length || statements.length !== proofs.length) {
    throw new ReceiptError("a receipt holds statements and one log proof for each");
  }
  let parsed;
  const legacy = acceptsLegacyTime(receipt.format); // a tiplu.receipt/2 may carry the legacy time line
  try {
    parsed = proofs.map((p) => parseTlogProof(p, { legacy }));
  } catch (e) {
    throw new ReceiptError(`a receipt's log proof does not parse: ${e.message}`);
  }
  if (new Set(parsed.map((p) => p.checkpointText)).size !== 1) throw new ReceiptError("a receipt's proofs carry different checkpoints");
  let cp;
  try {
    cp = await verifyCheckpoint(parsed[0].checkpointText, publicKeyHex, null, { legacy });
  } catch (e) {
    throw new ReceiptError(`the receipt's checkpoint does not verify under the pinned key: ${e.message}`);
  }
  const facts = { handId: receipt.hand_id, seat: Number.isInteger(receipt.seat) ? receipt.seat : null,
                  statements: [], indices: [], checkpoint: cp };
  for (const [n, signed] of statements.entries()) {
    try {
      if (!same(signed?.key, publicKeyHex)) throw new Error("it is signed by another key than the pinned one");
      await verifyInclusion(await statementLeafHash(signed), parsed[n].index, cp.size, parsed[n].path, cp.rootHex);
    } catch (e) {
      throw new ReceiptError(`the receipt's statement ${n} is not proved: ${e.message}`);
    }
    if (signed.statement.hand_id !== receipt.hand_id || typeof receipt.hand_id !== "string") {
      throw new ReceiptError("the receipt's statements are not all about its hand");
    }
    facts.statements.push(signed.statement);
    facts.indices.push(parsed[n].index);
  }
  const ofKind = (kind) => facts.statements.map((st, i) => [facts.indices[i], st]).filter(([, st]) => st.kind === kind);
  for (const [index, st] of ofKind("seat-receipt")) {
    if (st.seat !== facts.seat) throw new ReceiptError("the receipt's seat-receipt is for another seat than the receipt's");
    const commitments = ofKind("commitment");
    if (commitments.length !== 1) throw new ReceiptError("a seat receipt holds the hand's commitment statement");
    const [cIndex, c] = commitments[0];
    if (cIndex >= index) throw new ReceiptError("the commitment is logged after the seat's receipt");
    for (const name of ["server_seed_commitment", "ruleset_hash"]) {
      if (!same(st[name], c[name])) throw new ReceiptError(`the seat-receipt's ${name} is not the logged commitment's`);
    }
    if (receipt.format === RECEIPT_FORMAT) {
      // format 3: the hand statement, logged first, whose hash the seat-receipt binds, seats this name here
      const hands = ofKind("hand");
      if (hands.length !== 1) throw new ReceiptError("a tiplu.receipt/3 seat receipt holds the hand's hand statement");
      const [hIndex, hand] = hands[0];
      if (hIndex >= cIndex) throw new ReceiptError("the hand statement is logged after the commitment");
      if (!same(st.hand_hash, await canonicalHash(hand))) {
        throw new ReceiptError("the seat-receipt's hand_hash is not the hash of the logged hand statement");
      }
      const name = Array.isArray(hand.seats) ? hand.seats[facts.seat]?.player : undefined;
      if (typeof name !== "string" || name !== st.player) throw new ReceiptError(`the hand statement does not seat ${JSON.stringify(st.player)} at seat ${facts.seat}`);
      if (!same(hand.ruleset_hash, st.ruleset_hash)) throw new ReceiptError("the hand statement's ruleset_hash is not the seat-receipt's");
    }
  }
  const first = (kind) => ofKind(kind)[0]?.[1];
  facts.serverCommitment = first("commitment")?.server_seed_commitment ?? null;
  facts.rulesetHash = (first("commitment") ?? first("seat-receipt"))?.ruleset_hash ?? null;
  facts.seatCommitment = first("seat-receipt")?.commitment ?? null;
  facts.isSeatReceipt = ofKind("seat-receipt").length === 1;
  facts.hand = first("hand") ?? null;
  facts.player = first("seat-receipt")?.player ?? null;
  facts.format = receipt.format;
  return facts;
}

/** What a seat client checks before it reveals its seed (throws ReceiptError). */
export async function checkBeforeReveal(receipt, publicKeyHex, { handId, seat, seedHex = null, shownCommitment = null,
                                                                  player = null, terms = null }) {
  const r = await verifyReceipt(receipt, publicKeyHex);
  if (r.handId !== handId || r.seat !== seat || !r.isSeatReceipt) {
    throw new ReceiptError(`this is not a seat receipt of hand ${handId} seat ${seat}`);
  }
  if (shownCommitment !== null && !same(r.serverCommitment, shownCommitment)) {
    throw new ReceiptError(`the logged server commitment ${r.serverCommitment} is not the one you were shown`);
  }
  if (seedHex !== null) {
    const mine = await commitPlayerSeed(handId, seat, fromHex(seedHex, { what: "seed", minSize: 16, maxSize: 64 }));
    if (!same(r.seatCommitment, mine)) throw new ReceiptError("the logged seat commitment is not the commitment of your seed");
  }
  if (player !== null && r.player !== player) {
    throw new ReceiptError(`the receipt seats ${JSON.stringify(r.player)} at seat ${seat}, not you (${JSON.stringify(player)})`);
  }
  for (const [name, want] of Object.entries(terms ?? {})) {
    if (!r.hand) throw new ReceiptError(`this ${r.format} receipt holds no hand statement: its ${name} cannot be checked`);
    if (!sameTerm(r.hand[name], want, name.endsWith("hash"))) {
      throw new ReceiptError(`the logged hand's ${name} is ${JSON.stringify(r.hand[name])}, not ${JSON.stringify(want)} as you agreed`);
    }
  }
  return r;
}

/** A term as agreed: a digest (any case), an integer, or a decimal ("0.25" is "0.250"). */
function sameTerm(got, want, digest) {
  if (digest) return same(got, String(want));
  if (Number.isInteger(want)) return got === want;
  return typeof got === "string" && decimalKey(got) !== null && decimalKey(got) === decimalKey(String(want));
}

function decimalKey(text) {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (!m) return null;
  const whole = m[2].replace(/^0+(?=.)/, "");
  const frac = (m[3] ?? "").replace(/0+$/, "");
  return `${whole === "0" && !frac ? "" : m[1]}${whole}.${frac}`;
}

/**
 * Check a move receipt (tiplu.move-receipt/1) under the pinned key: its Ed25519 signature
 * over the canonical JSON of its statement, its hand, and that it follows the one kept before
 * (`previous`: n_moves one more).  With `move` (the move as this seat saw it) and the head
 * before it (`previousHead`, hex; the previous receipt's head, or head_0 from `commitment`),
 * the head must be the chain's next head.  Returns the statement; throws ReceiptError.
 */
export async function checkMoveReceipt(moveReceipt, publicKeyHex, { handId, previous = null, move = undefined,
                                                                    commitment = null }) {
  const st = moveReceipt?.statement;
  if (!st || typeof st !== "object" || st.type !== MOVE_RECEIPT_TYPE) throw new ReceiptError(`a move receipt is a signed ${MOVE_RECEIPT_TYPE} statement`);
  if (!same(moveReceipt.key, publicKeyHex)) throw new ReceiptError("the move receipt is signed by another key than the pinned one");
  let ok = false;
  try {
    const key = await crypto.subtle.importKey("raw", hexToBytes(publicKeyHex), { name: "Ed25519" }, false, ["verify"]);
    ok = await crypto.subtle.verify({ name: "Ed25519" }, key, hexToBytes(String(moveReceipt.sig)), canonicalJson(st));
  } catch (e) {
    throw new ReceiptError(`the move receipt's signature cannot be checked: ${e.message}`);
  }
  if (!ok) throw new ReceiptError("the move receipt's signature does not verify under the pinned key");
  if (st.hand_id !== handId) throw new ReceiptError(`the move receipt is for hand ${st.hand_id}, not ${handId}`);
  if (!Number.isInteger(st.n_moves) || typeof st.head !== "string" || !/^[0-9a-f]{64}$/.test(st.head)) throw new ReceiptError("a move receipt carries n_moves and a hex head");
  const prev = previous?.statement ?? previous;
  if (prev && st.n_moves !== prev.n_moves + 1) throw new ReceiptError(`the move receipt says ${st.n_moves} moves after ${prev.n_moves}: not the next one`);
  if (!prev && st.n_moves !== 1 && move !== undefined) throw new ReceiptError("the first move receipt kept must be for move 1 to check its head");
  if (move !== undefined) {
    const before = prev ? hexToBytes(prev.head) : await startHead(handId, commitment ?? "");
    if (toHex(await nextHead(before, move)) !== st.head) throw new ReceiptError(`the move receipt's head is not the chain's head after move ${st.n_moves}`);
  }
  return st;
}

async function post(baseUrl, handId, seat, what, token, body, fetchFn) {
  const url = `${baseUrl.replace(/\/+$/, "")}/api/v1/hands/${encodeURIComponent(handId)}/seats/${seat}/${what}`;
  const resp = await fetchFn(url, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
                                    body: JSON.stringify(body) });
  const data = await resp.json().catch(() => null);
  if (!resp.ok) throw new Error(`the operator answered ${resp.status}: ${data?.error?.message ?? resp.statusText}`);
  if (!data?.receipt) throw new Error("the operator's answer holds no receipt");
  return data.receipt;
}

/** Send the seed's commitment (never the seed); check the receipt answered; return it to keep. */
export async function commitSeed({ baseUrl = "", handId, seat, seedHex, token, publicKey, fetchFn = fetch }) {
  const seed = fromHex(seedHex, { what: "seed", minSize: 16, maxSize: 64 });
  const commitment = await commitPlayerSeed(handId, seat, seed);
  const receipt = await post(baseUrl, handId, seat, "commit", token, { commitment }, fetchFn);
  await checkBeforeReveal(receipt, publicKey, { handId, seat, seedHex });
  return receipt;
}

/** Check the kept receipt; only then send the seed.  Throws ReceiptError (and sends nothing) if it fails. */
export async function revealSeed({ baseUrl = "", handId, seat, seedHex, token, publicKey, receipt, shownCommitment = null,
                                   fetchFn = fetch }) {
  await checkBeforeReveal(receipt, publicKey, { handId, seat, seedHex, shownCommitment });
  return post(baseUrl, handId, seat, "reveal", token, { seed: seedHex.toLowerCase() }, fetchFn);
}

const kindKey = (st) => `${st?.kind}/${st?.seat ?? ""}`;

/** Does a published record contradict the receipt?  The checks of audit/auditor/verdict/receipt_check.py. */
export async function compareReceipt(receipt, record, { publicKey = null, moveReceipts = [] } = {}) {
  const key = publicKey ?? receipt?.statements?.[0]?.key;
  if (typeof key !== "string") throw new ReceiptError("the receipt names no operator key: pin one");
  const trust = publicKey ? { publicKey: key, basis: "pinned" }
    : { publicKey: key, basis: "receipt", note: "NOT a trust anchor: the key the receipt itself names" };
  const r = await verifyReceipt(receipt, key);
  if (!record || typeof record !== "object" || typeof record.fairness !== "object" || record.fairness === null) {
    throw new ReceiptError("the record is not a hand record (a JSON object with 'fairness')");
  }
  if (record.hand_id !== r.handId) throw new ReceiptError(`the receipt is for hand ${r.handId}, the record for ${record.hand_id}`);
  const out = { handId: r.handId, seat: r.seat, trust, contradictions: [], checked: [], notChecked: [] };
  const contradict = (what, message) => out.contradictions.push({ what, message });
  const f = record.fairness;
  const statements = Array.isArray(f.statements) ? f.statements : [];
  let cp = null;
  let parsed = [];
  if (!Array.isArray(f.log_proofs) || f.log_proofs.length !== statements.length) {
    out.notChecked.push(`the record (${record.format}) carries no log evidence: it is not log-bound, so only its statements and what they bind were compared`);
  } else {
    try {
      const legacy = acceptsLegacyTime(record.format);
      parsed = f.log_proofs.map((p) => parseTlogProof(p, { legacy }));
      if (new Set(parsed.map((p) => p.checkpointText)).size !== 1) throw new Error("its proofs carry different checkpoints");
      cp = await verifyCheckpoint(parsed[0].checkpointText, key, null, { legacy });
    } catch (e) {
      contradict("record_checkpoint", `the record's log evidence does not hold: ${e.message}`);
      cp = null;
    }
  }
  for (const [n, st] of r.statements.entries()) {
    const index = r.indices[n];
    const name = `${st.kind} statement${"seat" in st ? ` of seat ${st.seat}` : ""}`;
    const leaf = await statementLeafHash(receipt.statements[n]);
    const k = statements.findIndex((s) => s && typeof s.statement === "object" && kindKey(s.statement) === kindKey(st));
    if (k < 0) { contradict("missing_statement", `the record has no ${name}; your receipt proves it is leaf ${index}`); continue; }
    let theirs = null;
    try { theirs = await statementLeafHash(statements[k]); } catch { /* not a signed statement */ }
    if (theirs !== leaf) {
      contradict("different_statement", `the record's ${name} is not the one your receipt proves is leaf ${index} (leaf hash ${leaf})`);
      continue;
    }
    if (!cp) { out.notChecked.push(`the record's proof of your ${name}`); continue; }
    if (parsed[k].index !== index) { contradict("different_index", `the record puts your ${name} at leaf ${parsed[k].index}; your receipt proves leaf ${index}`); continue; }
    try {
      await verifyInclusion(leaf, index, cp.size, parsed[k].path, cp.rootHex);
      out.checked.push(`your ${name} is leaf ${index} in the record's tree too`);
    } catch (e) {
      contradict("bad_record_proof", `the record's proof of your ${name} does not lead to its checkpoint's root`);
    }
  }
  const seats = Array.isArray(f.seat_commitments) ? f.seat_commitments : [];
  for (const [label, mine, theirs] of [["server commitment", r.serverCommitment, f.server_commitment],
                                       ["ruleset hash", r.rulesetHash, f.ruleset_hash],
                                       ["seat commitment", r.seatCommitment, r.seat !== null ? seats[r.seat] : null]]) {
    if (mine === null) continue;
    if (!same(mine, theirs)) contradict(label.replace(" ", "_"), `the record's ${label} ${theirs} is not ${mine}, the one your receipt binds`);
    else out.checked.push(`the record's ${label} is the one your receipt binds (${mine})`);
  }
  if (r.hand) compareTerms(r.hand, r.seat, record, contradict, out.checked);
  if (moveReceipts.length) await compareMoves(moveReceipts, key, record, contradict, out.checked);
  if (cp) {
    const rc = r.checkpoint;
    if (rc.size === cp.size) {
      if (rc.rootHex !== cp.rootHex) contradict("fork", `the operator signed two roots for log size ${rc.size}: its log is forked`);
      else out.checked.push(`both checkpoints are of size ${rc.size} with one root`);
    } else {
      out.notChecked.push(`your receipt's checkpoint (size ${rc.size}) and the record's (size ${cp.size}) are one log only if a consistency proof says so; the files carry none`);
    }
  }
  out.consistent = out.contradictions.length === 0;
  return out;
}

const decimalOrSelf = (v) => (typeof v === "string" && decimalKey(v) !== null ? decimalKey(v) : v);

/** The record's table against the logged hand statement (audit/auditor/verdict/receipt_check.py _compare_terms). */
function compareTerms(hand, seat, record, contradict, checked) {
  const table = record.table && typeof record.table === "object" ? record.table : {};
  for (const name of ["point_value", "commission_pct"]) {
    const label = name.replace("_", " ");
    if (decimalOrSelf(hand[name]) !== decimalOrSelf(table[name])) {
      contradict(name, `the record's ${label} is ${JSON.stringify(table[name])}; the hand statement your receipt proves is logged says ${JSON.stringify(hand[name])}`);
    } else checked.push(`the record's ${label} is the logged one (${hand[name]})`);
  }
  if (hand.dealer !== table.dealer) contradict("dealer", `the record's dealer is seat ${table.dealer}; the logged hand statement says seat ${hand.dealer}`);
  const mine = Array.isArray(hand.seats) ? hand.seats : [];
  const theirs = new Map((Array.isArray(table.seats) ? table.seats : []).map((s) => [s?.seat, s?.player]));
  let wrong = 0;
  for (const s of mine) {
    if (theirs.get(s?.seat) !== s?.player) {
      wrong++;
      contradict("seat_name", `the record seats ${JSON.stringify(theirs.get(s?.seat) ?? null)} at seat ${s?.seat}${s?.seat === seat ? " (your seat)" : ""}; the hand statement your receipt proves is logged seats ${JSON.stringify(s?.player)} there`);
    }
  }
  if (theirs.size !== mine.length) contradict("seats", `the record has ${theirs.size} seats; the logged hand statement has ${mine.length}`);
  else if (!wrong) checked.push("the record seats every player where the logged hand statement does");
}

/**
 * A seat's kept move receipts with the new ones appended (audit/auditor/verdict/move_receipts.py keep): each
 * checked under the pinned key (checkMoveReceipt), the next move after the last kept; a
 * receipt for a move already kept must carry the same head (else the operator signed two
 * histories) and is not kept twice.  Throws ReceiptError, keeping nothing new.
 */
export async function keepMoveReceipts(kept, fresh, publicKeyHex, { handId }) {
  const out = [...kept];
  const heads = new Map(out.map((r) => [r.statement.n_moves, r.statement.head]));
  for (const r of fresh) {
    const st = await checkMoveReceipt(r, publicKeyHex, { handId });
    if (heads.has(st.n_moves)) {
      if (heads.get(st.n_moves) !== st.head) throw new ReceiptError(`the operator signed two heads after move ${st.n_moves}`);
      continue;
    }
    const last = Math.max(0, ...heads.keys());
    if (st.n_moves !== last + 1) throw new ReceiptError(`a move receipt for move ${st.n_moves} after move ${last}: not the next one`);
    heads.set(st.n_moves, st.head);
    out.push(r);
  }
  return out;
}

/** The record's moves against the move receipts the seat kept (audit/auditor/verdict/move_receipts.py compare_moves). */
async function compareMoves(moveReceipts, key, record, contradict, checked) {
  const handId = record.hand_id;
  const moves = Array.isArray(record.moves) ? record.moves : [];
  let heads;
  try {
    heads = await chainHeads(handId, record.fairness?.server_commitment ?? "", moves);
  } catch (e) {
    heads = [];
  }
  let agreed = 0;
  const found = [];
  const sts = [];
  for (const mr of moveReceipts) sts.push(await checkMoveReceipt(mr, key, { handId }));
  sts.sort((a, b) => a.n_moves - b.n_moves);
  for (const st of sts) {
    const n = st.n_moves;
    if (n > moves.length) {
      found.push(`the record lists ${moves.length} moves; the operator signed your move receipt for move ${n} (head ${st.head})`);
    } else if (heads[n - 1] !== st.head) {
      found.push(`the record's moves 1..${n} are not the moves played: the operator signed head ${st.head} after move ${n}, the record's moves give ${heads[n - 1] ?? "none"}`);
    } else agreed++;
  }
  // the first difference is the proof; the later heads chain from it (audit/auditor/verdict/move_receipts.py)
  if (found.length) contradict("moves", found.length > 1 ? `${found[0]} (and ${found.length - 1} later move receipts of yours differ with it)` : found[0]);
  if (agreed) checked.push(`the record's moves give the head of ${agreed} of your move receipts`);
}
