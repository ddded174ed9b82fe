/**
 * The in-browser verifier as a conformance command (docs/conformance.md): one request of the
 * suite in, one answer out, computed by the very modules the verify page and the offline
 * file use.  The verify page exposes it as `globalThis.tipluConformance`, so a harness can
 * run fixtures/conformance against the page or against the downloaded offline file.
 *
 *   answerConformance(request) -> Promise of {id, ...the check's answer} | {id, unsupported, why}
 *
 * Every layer of the suite: canonical JSON, the stream, the move chain, statements and leaves,
 * Merkle proofs, checkpoints, cosignatures, receipts, and of a record the whole audit of
 * ./audit.mjs -- its shape, the fairness inputs, its statements against its fields, the
 * replay of its moves and its claims (./replay.mjs), its log evidence, a pinned policy's
 * witnesses, the auditor's clock, and records compared with each other.  The one thing it
 * may lack is a game: a case that requires "replay" of a game with no module in
 * ./games/ is answered "unsupported" (never passed).
 */
import { canonicalJson } from "./canonical.mjs";
import { fromHex, toHex } from "./bytes.mjs";
import { hmacKey, keyMaterial, Stream } from "./stream.mjs";
import { verifyCheckpoint, verifyConsistency, verifyCosignatures, verifyInclusion, parseCheckpoint } from "./merkle.mjs";
import { statementLeafHash, verifyStatementSignature } from "./tlogproof.mjs";
import { auditRecords, NoReplayError } from "./audit.mjs";
import { parsePolicy, policyOfWitnesses, reconcileTrust } from "./policy.mjs";
import { compareReceipt, ReceiptError } from "../seat-client.mjs";
import { chainHeads, startHead } from "./movechain.mjs";

export const LAYERS = Object.freeze(["canonical", "movechain", "stream", "statement", "leaf", "merkle", "checkpoint", "cosignature",
  "receipt", "record", "fairness", "log-evidence", "witnesses", "statements", "replay", "policy", "one-log", "clock"]);

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
  async audit(inp, requires) {
    let policy = null;
    if (inp.policy !== undefined && inp.policy !== null) policy = await parsePolicy(inp.policy, "policy");
    else if (inp.witnesses) policy = await policyOfWitnesses(inp.witnesses, inp.quorum ?? null);
    const now = inp.now ? Date.parse(inp.now) : Date.now();
    if (Number.isNaN(now)) throw new Error("now is not an ISO-8601 time");
    let trust = inp.trust ?? null;
    try {
      trust = reconcileTrust(trust, policy);
    } catch (e) {
      if (e?.code === "trust_conflict") return { exit: 2, verdicts: [], log_failures: [] }; // bad usage: nothing audited
      throw e;
    }
    const { verdicts, log_failures } = await auditRecords(inp.records, {
      trust, policy, now, oneLog: Boolean(inp.one_log),
      replay: requires.includes("replay") ? "require" : true,
    });
    const out = verdicts.map((v) => ({ ok: v.ok, reason: v.reason, first_bad_move: v.first_bad_move }));
    let exit = out.every((v) => v.ok) && !log_failures.length ? 0 : 1;
    if (inp.timing) {
      // what proved each passed record's timing: a file alone proves it only by a witness quorum
      out.forEach((v, i) => { v.timing = v.ok ? verdicts[i].timing.status : null; });
      if (exit === 0 && out.some((v) => v.timing === "unproven")) exit = 3;
    }
    return { exit, verdicts: out, log_failures };
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
    return { id, ...(await fn(request.input, request.requires ?? [])) };
  } catch (e) {
    if (e instanceof NoReplayError) return { id, unsupported: true, why: e.message };
    return { id, error: `${e?.name ?? "Error"}: ${e?.message ?? e}` };
  }
}
