/**
 * The log evidence a `tiplu.hand/2` or `/3` record carries, checked in the browser with no server.
 * For a `tiplu.hand/3` record recordLogChecks adds movechain.mjs's checks (moves:chain,
 * moves:hand-hash): the moves and the hand statement the logged statements bind.
 *
 *   parseTlogProof(text, {legacy})            -> {index (BigInt), path (hex[]), extra (Uint8Array | null), checkpointText}
 *   checkpointChecks(text, trust, {legacy})   -> Promise of {checkpoint | null, checks: [...]}
 *   recordLogChecks(record, {publicKey, basis, origin}) -> Promise of [{name, title, ok, detail, reason?}]
 *
 * A v2 record's `fairness.log_proofs[k]` is a C2SP tlog-proof (c2sp.org/tlog-proof@v1) for
 * `fairness.statements[k]`: its leaf index in the operator's log, the RFC 6962 inclusion
 * path (leaf's sibling first) and the signed checkpoint (a C2SP signed note) the path leads
 * to.  Every proof of one record carries the same checkpoint.  See docs/records.md and
 * docs/transparency-log.md.
 *
 * The checks, each with the reason name the Python audit uses (replay.faults.Reason) when it
 * fails:
 *
 *   log:bound        the record is log-bound at all (a v1 record is not: not_log_bound)
 *   log:trust        which operator key is trusted and on what basis; a key taken from the
 *                    record itself is NOT a trust anchor (ok null, so never "verified")
 *   log:checkpoint   the checkpoint is a plain three-line C2SP body (a tiplu.hand/2 record may
 *                    carry the legacy time line: acceptsLegacyTime) and verifies under that
 *                    key (bad_checkpoint); without WebCrypto Ed25519 it is not checked (ok null)
 *   log:same-checkpoint  every proof carries the same checkpoint text (bad_checkpoint)
 *   log:statement:k  statement k's leaf hash, recomputed here byte for byte as
 *                    audit.tlog.store.leaf_entry, folds through its proof to the checkpoint's
 *                    root at its index (not_in_log)
 *   log:order        the leaf indices follow the record order and the protocol's order:
 *                    hand < commitment < every seat-receipt < every seat-reveal < deal <
 *                    record < reveal (log_order)
 *   log:keys         every statement's key, and the record's table.public_key, is the
 *                    trusted key, and every statement's Ed25519 signature verifies under
 *                    it (signature; ok null without WebCrypto Ed25519)
 *   statements:order, statements:time  the statements follow the protocol's order
 *                    (event_order), their times run forward (time_order) and none is dated
 *                    past this browser's clock plus five minutes (future_time): ./protocol.mjs
 *                    (`options.now`, milliseconds, replaces the clock)
 *
 * As in audit.auditor.evidence.logcheck: when the proofs carry different checkpoints, or the checkpoint does
 * not verify, no statement is checked against it (there is no trusted root), and the order
 * is checked on the statements found in the log.  A v2 record with no statements yet has
 * nothing to check (log:bound is null, not a pass).
 *
 * `ok` is true (passed), false (failed) or null (could not be checked, or checked against a
 * key that is not a trust anchor) -- null is never counted as a pass.
 */
import { canonicalJson } from "./canonical.mjs";
import { FORMAT_V3, movesChecks } from "./movechain.mjs";
import { acceptsLegacyTime, bytesToHex, hexToBytes, leafHash, parseCheckpoint, ProofError, SignatureError, UnsupportedError, verifyCheckpoint, verifyInclusion } from "./merkle.mjs";
import { statementChecks } from "./protocol.mjs";

export const TLOG_PROOF_HEADER = "c2sp.org/tlog-proof@v1";
export const FORMAT_V2 = "tiplu.hand/2";
/** The log-bound record formats: v2, and format 3 (whose move chain and hand binding movechain.mjs checks). */
export const LOG_BOUND_FORMATS = Object.freeze([FORMAT_V2, FORMAT_V3]);
/** The bases a trusted key can have (audit/auditor/verdict/trust.py); only "record" is not a trust anchor. */
export const TRUST_BASES = Object.freeze(["pinned", "trust-file", "monitor-state", "ledger", "policy", "record"]);
/** The protocol's order of statement kinds in the log (docs/records.md). */
export const KIND_RANK = Object.freeze({ hand: 0, commitment: 1, "seat-receipt": 2, "seat-reveal": 3, deal: 4, record: 5, reveal: 6 });

const INDEX_RE = /^(0|[1-9][0-9]{0,19})$/;
const MAX_PROOF_CHARS = 8192; // as audit.tlog.proof: a 64-hash path and a 4096-character checkpoint fit
const MAX_PATH = 64;
const B64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

function check(name, title, ok, detail, reason = null) {
  const c = { name, title, ok, detail };
  if (ok === false && reason) c.reason = reason;
  return c;
}

function short(hex) {
  return typeof hex === "string" && hex.length > 20 ? `${hex.slice(0, 12)}…${hex.slice(-6)}` : String(hex);
}

function b64Strict(text, what) {
  let bin;
  try {
    if (!B64_RE.test(text)) throw new Error();
    bin = atob(text);
  } catch {
    throw new ProofError(`${what} is not standard base64`);
  }
  if (btoa(bin) !== text) throw new ProofError(`${what} is not canonical base64`);
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

/**
 * Parse a C2SP tlog-proof strictly: the header line, an optional `extra <base64>` line,
 * `index <decimal, no leading zeros>`, zero or more base64 32-byte hashes, an empty line,
 * then the checkpoint verbatim (parsed strictly too).  Throws ProofError.
 */
export function parseTlogProof(text, { legacy = false } = {}) {
  if (typeof text !== "string" || text.length > MAX_PROOF_CHARS) throw new ProofError(`a tlog-proof is text of at most ${MAX_PROOF_CHARS} characters`);
  if (text.includes("\r")) throw new ProofError("a tlog-proof uses LF line ends");
  const cut = text.indexOf("\n\n");
  if (cut < 0) throw new ProofError("a tlog-proof needs an empty line before its checkpoint");
  const lines = text.slice(0, cut).split("\n");
  const checkpointText = text.slice(cut + 2);
  if (lines[0] !== TLOG_PROOF_HEADER) throw new ProofError(`a tlog-proof starts with the line ${TLOG_PROOF_HEADER}`);
  let at = 1;
  let extra = null;
  if (lines[at]?.startsWith("extra ")) {
    extra = b64Strict(lines[at].slice("extra ".length), "the extra data");
    at += 1;
  }
  const m = /^index (.*)$/.exec(lines[at] ?? "");
  if (!m) throw new ProofError("a tlog-proof has an 'index N' line after its header");
  if (!INDEX_RE.test(m[1])) throw new ProofError("the index is a decimal number with no leading zeros");
  const index = BigInt(m[1]);
  const path = lines.slice(at + 1).map((line, i) => {
    const h = b64Strict(line, `inclusion proof line ${i + 1}`);
    if (h.length !== 32) throw new ProofError(`inclusion proof line ${i + 1} is not a 32-byte hash`);
    return bytesToHex(h);
  });
  if (path.length > MAX_PATH) throw new ProofError(`an inclusion path has at most ${MAX_PATH} hashes`);
  parseCheckpoint(checkpointText, { legacy }); // throws ProofError when it is not a checkpoint
  return { index, path, extra, checkpointText };
}

/** The leaf hash (hex) of one signed statement: SHA-256(0x00 || canonical JSON of {statement, key, sig}). */
export async function statementLeafHash(signed) {
  if (signed === null || typeof signed !== "object" || !("statement" in signed) || !("key" in signed) || !("sig" in signed)) {
    throw new ProofError("a signed statement needs 'statement', 'key' and 'sig'");
  }
  const entry = canonicalJson({ statement: signed.statement, key: signed.key, sig: signed.sig });
  return bytesToHex(await leafHash(entry));
}

function trustCheck(trust) {
  const title = "Operator key trusted";
  if (trust.basis === "record") {
    return check("log:trust", "Operator key NOT pinned", null,
      `nothing pinned: using the key the record itself claims (${short(trust.publicKey)}), which is NOT a trust anchor -- ` +
      "whoever wrote the record could have signed it all; pin the operator's key to check against it");
  }
  const basis = {
    pinned: "pinned by you", "trust-file": "from your trust file", "monitor-state": "from your monitor's state",
    ledger: "the key this server registered for the operator",
    policy: "a log of the policy you pinned",
  }[trust.basis];
  return check("log:trust", title, true, `${trust.publicKey} (${basis}; basis ${trust.basis})`);
}

/**
 * Check a checkpoint against the trusted key: {checkpoint (parsed, or null), checks}.
 * The one place a record's checkpoint is judged, so that further checkpoint checks (witness
 * cosignatures) belong here.
 */
export async function checkpointChecks(text, trust, { legacy = false } = {}) {
  const title = "Checkpoint signed by the operator";
  let cp = null;
  try {
    cp = parseCheckpoint(text, { legacy });
  } catch (e) {
    return { checkpoint: null, checks: [check("log:checkpoint", title, false, `the checkpoint does not parse: ${e.message}`, "bad_checkpoint")] };
  }
  if (trust.origin && cp.origin !== trust.origin) {
    return { checkpoint: cp, checks: [check("log:checkpoint", title, false,
      `the checkpoint is of log ${JSON.stringify(cp.origin)}, not the trusted log ${JSON.stringify(trust.origin)}`, "bad_checkpoint")] };
  }
  const what = trust.basis === "record" ? "the record's own claimed key (not a trust anchor)" : "the trusted operator key";
  try {
    await verifyCheckpoint(text, trust.publicKey, null, { legacy });
    const body = cp.legacyTime === null ? "a plain C2SP checkpoint" : `a legacy checkpoint (tiplu.hand/2) stamped ${cp.legacyTime} by the operator`;
    return { checkpoint: cp, checks: [check("log:checkpoint", title, true,
      `log ${cp.origin}, ${cp.size} entries, root ${short(cp.rootHex)}, ${body}; Ed25519 signature verified under ${what}`)] };
  } catch (e) {
    if (e instanceof UnsupportedError) {
      return { checkpoint: cp, checks: [check("log:checkpoint", "Checkpoint signature NOT checked", null,
        "this browser's WebCrypto has no Ed25519, so the operator's signature on the checkpoint could not be checked; the inclusion proofs below are checked against an unverified root")] };
    }
    return { checkpoint: cp, checks: [check("log:checkpoint", title, false, `${e.message} (under ${what} ${short(trust.publicKey)})`, "bad_checkpoint")] };
  }
}

function trustOf(record, options) {
  const basis = options.publicKey ? (options.basis ?? "pinned") : "record";
  if (!TRUST_BASES.includes(basis)) throw new ProofError(`unknown trust basis ${JSON.stringify(basis)}`);
  const publicKey = options.publicKey ? String(options.publicKey) : record?.table?.public_key;
  return { publicKey: typeof publicKey === "string" ? publicKey.trim().toLowerCase() : "", basis, origin: options.origin ?? null };
}

function orderCheck(placed) {
  const title = "The statements were logged in the protocol's order";
  for (let i = 1; i < placed.length; i++) {
    const [a, b] = [placed[i - 1], placed[i]];
    if (!(a.index < b.index)) {
      return check("log:order", title, false,
        `the record lists statement ${b.k} (${b.kind}, leaf ${b.index}) after statement ${a.k} (${a.kind}, leaf ${a.index}): the record's statements are not in log order`, "log_order");
    }
  }
  // by leaf index, the kinds never go back: hand, commitment, seat-receipts, seat-reveals, deal, record, reveal
  const byIndex = [...placed].sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : 0));
  for (let i = 1; i < byIndex.length; i++) {
    const [a, b] = [byIndex[i - 1], byIndex[i]];
    if ((KIND_RANK[b.kind] ?? -1) < (KIND_RANK[a.kind] ?? -1)) {
      return check("log:order", title, false,
        `the ${b.kind} (leaf ${b.index}) was logged after the ${a.kind} (leaf ${a.index}): the protocol's order is broken`, "log_order");
    }
  }
  if (!placed.length) return check("log:order", title, null, "no statement was found in the log, so there is no order to check");
  return check("log:order", title, true,
    `leaves ${byIndex[0].index}…${byIndex[byIndex.length - 1].index}: hand, commitment, every seat-receipt, every seat-reveal, deal, record, reveal`);
}

/**
 * Verify one signed statement's Ed25519 signature over the canonical JSON of its `statement`
 * under `publicKeyHex` (docs/records.md, "Statements").  Throws SignatureError when it does
 * not verify, UnsupportedError without WebCrypto Ed25519.
 */
export async function verifyStatementSignature(signed, publicKeyHex) {
  if (!signed || typeof signed !== "object" || typeof signed.sig !== "string" || !/^[0-9a-f]{128}$/.test(signed.sig)) {
    throw new SignatureError("a statement's signature is 64 bytes of lower-case hex");
  }
  let key;
  try {
    key = await crypto.subtle.importKey("raw", hexToBytes(publicKeyHex), { name: "Ed25519" }, false, ["verify"]);
  } catch (e) {
    if (e instanceof DOMException && e.name === "NotSupportedError") throw new UnsupportedError("no WebCrypto Ed25519");
    throw new SignatureError(`bad public key: ${e.message}`);
  }
  const sig = hexToBytes(signed.sig);
  // RFC 8032 section 5.1.7: S must be below the group order L (WebCrypto may not check it)
  if (!sBelowOrder(sig.slice(32))) throw new SignatureError("the signature's S is not below the group order");
  if (!(await crypto.subtle.verify({ name: "Ed25519" }, key, sig, canonicalJson(signed.statement)))) {
    throw new SignatureError("the statement's signature does not verify");
  }
}

const ORDER_L = (1n << 252n) + 27742317777372353535851937790883648493n;

function sBelowOrder(sBytes) {
  let s = 0n;
  for (let i = sBytes.length - 1; i >= 0; i--) s = (s << 8n) | BigInt(sBytes[i]);
  return s < ORDER_L;
}

async function keysCheck(record, statements, trust) {
  const lower = (v) => (typeof v === "string" ? v.toLowerCase() : v);
  const wrong = statements.map((s, i) => [i + 1, lower(s?.key)]).filter(([, key]) => key !== trust.publicKey);
  const claimed = lower(record?.table?.public_key);
  const bits = [];
  if (claimed !== trust.publicKey) bits.push(`the record names another operator key (${short(claimed)})`);
  if (wrong.length) bits.push(`statement${wrong.length > 1 ? "s" : ""} ${wrong.map(([k]) => k).join(", ")} carr${wrong.length > 1 ? "y" : "ies"} another key`);
  const unsigned = [];
  let unsupported = false;
  if (!wrong.length) {
    for (const [i, s] of statements.entries()) {
      try {
        await verifyStatementSignature(s, trust.publicKey);
      } catch (e) {
        if (e instanceof UnsupportedError) { unsupported = true; break; }
        unsigned.push(i + 1);
      }
    }
  }
  if (unsigned.length) bits.push(`the signature of statement${unsigned.length > 1 ? "s" : ""} ${unsigned.join(", ")} does not verify`);
  if (bits.length === 0 && unsupported) {
    return check("log:keys", "Statement signatures NOT checked", null,
      `every statement names ${short(trust.publicKey)}, but this browser's WebCrypto has no Ed25519 to check their signatures`);
  }
  return check("log:keys", "Every statement is signed by the trusted key", bits.length === 0,
    bits.length === 0 ? `${statements.length} of ${statements.length} carry ${short(trust.publicKey)} and verify under it` : bits.join("; "), "signature");
}

/**
 * Check the log evidence a record carries against the trusted operator key.
 * `publicKey` (hex) is the key the caller trusts and `basis` why (default "pinned"); with no
 * `publicKey` the record's own `table.public_key` is used and reported as NOT a trust anchor.
 */
export async function recordLogChecks(record, options = {}) {
  const checks = await logChecks(record, options);
  if (!LOG_BOUND_FORMATS.includes(record.format)) return checks;
  // format 3: the moves and the hand statement the logged statements bind (statement_mismatch);
  // every log-bound format: the protocol's order and the statements' times, as the Python
  // audit checks them (./protocol.mjs)
  return [...checks, ...await movesChecks(record), ...statementChecks(record.fairness?.statements, options)];
}

async function logChecks(record, options) {
  if (record === null || typeof record !== "object" || Array.isArray(record)) throw new ProofError("a hand record is a JSON object");
  const fairness = record.fairness ?? {};
  const statements = fairness.statements;
  if (!LOG_BOUND_FORMATS.includes(record.format)) {
    return [check("log:bound", "The record is NOT log-bound", false,
      `a ${JSON.stringify(record.format ?? "record")} record carries no log evidence: nothing shows its statements are the ones the operator logged, in order, before the deal`, "not_log_bound")];
  }
  const proofs = fairness.log_proofs;
  if (!Array.isArray(statements) || (Array.isArray(proofs) && statements.length === 0 && proofs.length === 0)) {
    return [check("log:bound", "The record holds no statements yet", null, "a tiplu.hand/2 record lists its signed statements in fairness.statements; with none there is nothing to check in the log")];
  }
  if (!Array.isArray(proofs) || proofs.length !== statements.length || !proofs.every((p) => typeof p === "string")) {
    return [check("log:bound", "The record holds one log proof per statement", false,
      `${statements.length} statements, ${Array.isArray(proofs) ? proofs.length : "no list of"} log proofs (each a tlog-proof text)`, "malformed")];
  }
  const trust = trustOf(record, options);
  const checks = [check("log:bound", "The record carries log evidence", true, `${proofs.length} tlog-proofs (c2sp.org/tlog-proof@v1), one per statement`), trustCheck(trust)];
  const keys = await keysCheck(record, statements, trust);

  const legacy = acceptsLegacyTime(record.format);
  const parsed = proofs.map((text) => {
    try {
      // the body rule (three lines; the legacy time line only in a tiplu.hand/2) is judged once,
      // on the checkpoint (bad_checkpoint, below), as audit.auditor.evidence.logcheck does: not per proof
      return parseTlogProof(text, { legacy: true });
    } catch (e) {
      return e;
    }
  });
  const unreadable = [];
  for (const [i, p] of parsed.entries()) {
    if (p instanceof Error) {
      const kind = statements[i]?.statement?.kind ?? "?";
      unreadable.push(check(`log:statement:${i + 1}`, `Statement ${i + 1} (${kind}) has a readable log proof`, false,
        `its tlog-proof does not parse: ${p.message}`, "not_in_log"));
    }
  }
  // One record, one signed tree head: proofs under different checkpoints prove nothing together.
  const texts = [...new Set(parsed.filter((p) => !(p instanceof Error)).map((p) => p.checkpointText))];
  if (texts.length > 1) {
    return [...checks, ...unreadable, check("log:same-checkpoint", "Every proof carries the same checkpoint", false,
      `the proofs carry ${texts.length} different checkpoints: one record is proved against one signed tree head`, "bad_checkpoint"), keys];
  }
  if (!texts.length) return [...checks, ...unreadable, keys];
  const cpResult = await checkpointChecks(texts[0], trust, { legacy });
  checks.push(...cpResult.checks);
  checks.push(check("log:same-checkpoint", "Every proof carries the same checkpoint", true,
    `${proofs.length - unreadable.length} of ${proofs.length} readable proofs`));
  // A checkpoint that does not verify has no root worth folding up to.
  if (cpResult.checks.some((c) => c.ok === false)) return [...checks, ...unreadable, keys];
  const cp = cpResult.checkpoint;

  const placed = [];
  for (const [i, signed] of statements.entries()) {
    const k = i + 1;
    const kind = signed?.statement?.kind ?? "?";
    const name = `log:statement:${k}`;
    const p = parsed[i];
    if (p instanceof Error) {
      checks.push(unreadable.find((c) => c.name === name));
      continue;
    }
    const title = `Statement ${k} (${kind}) is in the log at index ${p.index}`;
    try {
      const mine = await statementLeafHash(signed);
      try {
        await verifyInclusion(mine, p.index, cp.size, p.path, cp.rootHex);
      } catch (e) {
        checks.push(check(name, `Statement ${k} (${kind}) is NOT the leaf at index ${p.index}`, false,
          `its leaf hash ${short(mine)} and its proof do not lead to the checkpoint's root: ${e.message}`, "not_in_log"));
        continue;
      }
      placed.push({ k, kind, index: p.index });
      checks.push(check(name, title, true,
        `leaf ${short(mine)} + ${p.path.length} proof hashes lead to the checkpoint's root (size ${cp.size})`));
    } catch (e) {
      checks.push(check(name, title, false, e.message, "not_in_log"));
    }
  }
  checks.push(orderCheck(placed), keys);
  return checks;
}

/** "verified" (every check passed), "failed" (one failed) or "incomplete" (none failed, some not done). */
export function logState(checks) {
  if (checks.some((c) => c.ok === false)) return "failed";
  return checks.every((c) => c.ok === true) ? "verified" : "incomplete";
}
