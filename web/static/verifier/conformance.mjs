/**
 * The in-browser verifier as a conformance command (docs/conformance.md): one request of the
 * suite in, one answer out, computed by the very modules the verify page and the offline
 * file use.  The verify page exposes it as `globalThis.tipluConformance`, so a harness can
 * run fixtures/conformance against the page or against the downloaded offline file.
 *
 *   answerConformance(request) -> Promise of {id, ...the check's answer} | {id, unsupported, why}
 *
 * Layers this verifier has (a case needing another is answered "unsupported", never passed):
 * canonical JSON, the stream, statements and leaves, Merkle proofs, checkpoints,
 * cosignatures, receipts, and of a record: its shape, the fairness inputs (seeds,
 * commitments, ruleset hash) and its log evidence (proofs, checkpoint, order, keys and
 * signatures, witnesses).  It does not replay the moves, compare a record with its
 * statements' fields, or compare records with each other.
 */
import { canonicalJson } from "./canonical.mjs";
import { fromHex, toHex } from "./bytes.mjs";
import { hmacKey, keyMaterial, Stream } from "./stream.mjs";
import { verifyCheckpoint, verifyConsistency, verifyCosignatures, verifyInclusion, parseCheckpoint } from "./merkle.mjs";
import { recordLogChecks, statementLeafHash, verifyStatementSignature, parseTlogProof } from "./tlogproof.mjs";
import { handInputFromRecord, verifyHand } from "./verifier.mjs";
import { witnessChecks } from "./witnesses.mjs";
import { compareReceipt, ReceiptError } from "../seat-client.mjs";
import { chainHeads, startHead } from "./movechain.mjs";

export const LAYERS = Object.freeze(["canonical", "movechain", "stream", "statement", "leaf", "merkle", "checkpoint", "cosignature",
  "receipt", "record", "fairness", "log-evidence", "witnesses"]);

/** The order the audit gives root causes in, for the reasons this verifier can find (docs/records.md). */
const RANK = ["malformed", "not_revealed", "server_seed_mismatch", "seat_seed_mismatch", "ruleset_mismatch", "signature",
  "not_log_bound", "not_in_log", "bad_checkpoint", "log_order", "event_order", "time_order", "future_time", "witness_quorum"];

async function valid(fn) {
  try {
    await fn();
    return true;
  } catch (e) {
    if (e && e.name === "UnsupportedError") throw e;
    return false;
  }
}

class GivenWords extends Stream {
  constructor(words) {
    super(null, new Uint8Array(0), "given");
    this.words = Array.from(words);
    this.fetched = Infinity;
  }

  async ensure(n) {
    if (this.pos + n > this.words.length) throw new Error("randbelow read past the words given");
  }
}

const FAIRNESS = { ruleset_hash: "ruleset_mismatch", server_commitment: "server_seed_mismatch" };

async function recordVerdict(text, trust, witnesses, quorum) {
  let record;
  try {
    record = JSON.parse(text);
    if (record === null || typeof record !== "object" || Array.isArray(record)) throw new Error("not an object");
  } catch {
    return { ok: false, reason: "malformed", first_bad_move: null };
  }
  const reasons = [];
  const f = record.fairness ?? {};
  if (typeof f.server_seed !== "string") {
    reasons.push("not_revealed");
  } else {
    try {
      const report = await verifyHand(handInputFromRecord(record));
      for (const c of report.checks) {
        if (c.ok !== false) continue;
        reasons.push(c.name.startsWith("player_commitment:") ? "seat_seed_mismatch" : FAIRNESS[c.name] ?? "malformed");
      }
    } catch {
      reasons.push("malformed");
    }
  }
  let checks;
  try {
    checks = await recordLogChecks(record, { publicKey: trust.public_key, origin: trust.origin ?? null });
  } catch {
    checks = [{ ok: false, reason: "malformed" }];
  }
  for (const c of checks) if (c.ok === false) reasons.push(c.reason ?? "malformed");
  if (witnesses) {
    const text0 = Array.isArray(f.log_proofs) && typeof f.log_proofs[0] === "string" ? parseTlogProof(f.log_proofs[0], { legacy: true }).checkpointText : null;
    const w = text0 ? await witnessChecks(text0, { witnesses, quorum, basis: "pinned" }) : [{ ok: false, reason: "witness_quorum" }];
    for (const c of w) if (c.ok === false) reasons.push(c.reason ?? "witness_quorum");
  }
  if (!reasons.length) return { ok: true, reason: null, first_bad_move: null };
  const first = [...reasons].sort((a, b) => RANK.indexOf(a) - RANK.indexOf(b))[0];
  return { ok: false, reason: first, first_bad_move: null };
}

const CHECKS = {
  async canonical(inp) {
    return { canonical_hex: toHex(canonicalJson(JSON.parse(inp.value))) };
  },
  async movechain(inp) {
    const moves = JSON.parse(inp.moves);
    return { head0: toHex(await startHead(inp.hand_id, inp.server_seed_commitment)),
             heads: await chainHeads(inp.hand_id, inp.server_seed_commitment, moves) };
  },
  async randbelow(inp) {
    const s = new GivenWords(inp.words);
    let value = null;
    try {
      value = await s.randbelow(inp.n);
    } catch { /* out of words */ }
    return { value, words_used: s.pos };
  },
  async stream(inp) {
    const s = new Stream(await hmacKey(fromHex(inp.server_seed)), fromHex(inp.material), inp.label);
    const block0 = toHex(await s.block(0));
    const values = [];
    for (const n of inp.draws) values.push(await s.randbelow(n));
    return { block0, values };
  },
  async shuffle(inp) {
    const material = await keyMaterial(inp.hand_id, fromHex(inp.ruleset_hash), inp.player_seeds.map((h) => fromHex(h)));
    const s = new Stream(await hmacKey(fromHex(inp.server_seed)), material, inp.label);
    return { material: toHex(material), items: await s.shuffle(inp.items) };
  },
  async statement(inp) {
    const signed = JSON.parse(inp.signed);
    const ok = await valid(async () => {
      if (signed.key !== inp.public_key) throw new Error("another key");
      await verifyStatementSignature(signed, inp.public_key);
    });
    return { signed_hex: toHex(canonicalJson(signed.statement)), valid: ok };
  },
  async leaf(inp) {
    return { leaf_hash: await statementLeafHash(JSON.parse(inp.signed)) };
  },
  async inclusion(inp) {
    return { valid: await valid(() => verifyInclusion(inp.leaf_hash, BigInt(inp.index), BigInt(inp.size), inp.path, inp.root)) };
  },
  async consistency(inp) {
    return { valid: await valid(() => verifyConsistency(BigInt(inp.first), BigInt(inp.second), inp.first_root, inp.second_root, inp.path)) };
  },
  async checkpoint(inp) {
    return { valid: await valid(async () => {
      if (inp.origin !== null && inp.origin !== undefined && parseCheckpoint(inp.checkpoint).origin !== inp.origin) throw new Error("origin");
      await verifyCheckpoint(inp.checkpoint, inp.public_key);
    }) };
  },
  async cosignature(inp) {
    const results = await verifyCosignatures(inp.checkpoint, inp.witnesses);
    const names = results.filter((r) => r.ok).map((r) => r.name).sort();
    return { valid_witnesses: names, quorum_met: names.length >= inp.quorum };
  },
  async audit(inp) {
    const verdicts = [];
    for (const text of inp.records) verdicts.push(await recordVerdict(text, inp.trust, inp.witnesses ?? null, inp.quorum ?? null));
    let exit = verdicts.every((v) => v.ok) ? 0 : 1;
    if (inp.timing) {
      // what proved each passed record's timing: a file alone proves it only by a witness quorum
      for (const v of verdicts) v.timing = !v.ok ? null : inp.witnesses ? "witnessed" : "unproven";
      if (exit === 0 && verdicts.some((v) => v.timing === "unproven")) exit = 3;
    }
    return { exit, verdicts, log_failures: [] };
  },
  async receipt(inp) {
    let receipt;
    let record;
    try {
      receipt = JSON.parse(inp.receipt);
      record = JSON.parse(inp.record);
      const moveReceipts = inp.move_receipts === undefined ? [] : JSON.parse(inp.move_receipts);
      const out = await compareReceipt(receipt, record, { publicKey: inp.public_key, moveReceipts });
      return { exit: out.contradictions.length ? 1 : 0, contradictions: out.contradictions.map((c) => c.what).sort() };
    } catch (e) {
      if (e instanceof ReceiptError || e instanceof SyntaxError) return { exit: 2, contradictions: [] };
      throw e;
    }
  },
};

/** Answer one conformance request (see the module comment). */
export async function answerConformance(request) {
  const id = request?.id;
  const missing = (request?.requires ?? []).filter((layer) => !LAYERS.includes(layer));
  if (missing.length) return { id, unsupported: true, why: `this verifier has no ${missing.join(", ")} layer` };
  const fn = CHECKS[request?.check];
  if (!fn) return { id, unsupported: true, why: `no check ${request?.check}` };
  try {
    return { id, ...(await fn(request.input)) };
  } catch (e) {
    return { id, error: `${e?.name ?? "Error"}: ${e?.message ?? e}` };
  }
}
