/**
 * A seat's client in the browser: keep the receipt the operator answers, check it before the
 * seed is revealed, and check a published record against it -- the same checks as Python's
 * audit/receipts.py and audit/receipt_check.py, with the operator key the player pinned.
 *
 *   verifyReceipt(receipt, publicKeyHex)       -> Promise of the receipt's facts (throws ReceiptError)
 *   checkBeforeReveal(receipt, publicKeyHex, {handId, seat, seedHex?, shownCommitment?})
 *   commitSeed({baseUrl, handId, seat, seedHex, token, publicKey})  -> the checked receipt (POST, then check)
 *   revealSeed({baseUrl, handId, seat, seedHex, token, publicKey, receipt, shownCommitment?})
 *                                              checks first; nothing is sent when the check fails
 *   compareReceipt(receipt, record, {publicKey?}) -> {consistent, contradictions, checked, notChecked, trust}
 *
 * A receipt (tiplu.receipt/2, docs/records.md "Receipts") holds signed statements of one
 * hand, each with a C2SP tlog-proof, all at one checkpoint: a seat receipt holds the hand's
 * `commitment` and the seat's `seat-receipt`, which binds that server commitment and the
 * ruleset hash.  Each statement must be exactly the leaf at its index under a checkpoint
 * that verifies under the pinned key (its own `key` must be that key too: the checkpoint's
 * signature covers every leaf, key and signature included).  A contradiction found by
 * compareReceipt is a proof (both sides are the operator's signed words); an agreement shows
 * the receipt's leaves are the same leaves in the record's tree, and two checkpoints of
 * different sizes are one log only if a consistency proof says so (not in the files).
 */
import { fromHex } from "./verifier/bytes.mjs";
import { commitPlayerSeed } from "./verifier/fairness.mjs";
import { acceptsLegacyTime, verifyCheckpoint, verifyInclusion } from "./verifier/merkle.mjs";
import { parseTlogProof, statementLeafHash } from "./verifier/tlogproof.mjs";

export const RECEIPT_FORMAT = "tiplu.receipt/2";

export class ReceiptError extends Error {
  constructor(message) { super(message); this.name = "ReceiptError"; }
}

const same = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

/** Check a receipt under the pinned key; its facts, or throw ReceiptError. */
export async function verifyReceipt(receipt, publicKeyHex) {
  if (!receipt || typeof receipt !== "object" || receipt.format !== RECEIPT_FORMAT) {
    throw new ReceiptError(`a receipt is a JSON object with format ${RECEIPT_FORMAT}`);
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
  }
  const first = (kind) => ofKind(kind)[0]?.[1];
  facts.serverCommitment = first("commitment")?.server_seed_commitment ?? null;
  facts.rulesetHash = (first("commitment") ?? first("seat-receipt"))?.ruleset_hash ?? null;
  facts.seatCommitment = first("seat-receipt")?.commitment ?? null;
  facts.isSeatReceipt = ofKind("seat-receipt").length === 1;
  return facts;
}

/** What a seat client checks before it reveals its seed (throws ReceiptError). */
export async function checkBeforeReveal(receipt, publicKeyHex, { handId, seat, seedHex = null, shownCommitment = null }) {
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
  return r;
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

/** Does a published record contradict the receipt?  The checks of audit/receipt_check.py. */
export async function compareReceipt(receipt, record, { publicKey = null } = {}) {
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
