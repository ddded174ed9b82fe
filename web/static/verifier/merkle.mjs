// Transparency-log verification in the browser: RFC 9162 Merkle proofs and signed checkpoints.
//
// The same algorithms as audit/tlog/merkle.py and audit/tlog/checkpoint.py, with WebCrypto:
//   leafHash(entryBytes)                 SHA-256(0x00 || entry)            -> Uint8Array
//   nodeHash(left, right)                SHA-256(0x01 || left || right)    -> Uint8Array
//   rootFromInclusionProof(leafHashHex, index, size, pathHex[])            -> hex root (RFC 9162 §2.1.3.2 steps 1-4)
//   verifyInclusion(leafHashHex, index, size, pathHex[], rootHex)          -> true, or throws ProofError
//   verifyConsistency(first, second, firstRootHex, secondRootHex, pathHex[]) -> true, or throws ProofError
//   parseCheckpoint(text, {legacy})                                        -> {origin, size, rootHex, legacyTime, body, signatures}
//   verifyCheckpoint(text, publicKeyHex, keyName, {legacy})                -> checkpoint, or throws
//   acceptsLegacyTime(documentFormat)                                      -> whether its checkpoint may have the legacy time line
//   ed25519Supported()                                                     -> whether WebCrypto has Ed25519
//
// Indexes and sizes may be Numbers (safe integers) or BigInts; the bit arithmetic uses BigInt
// so trees beyond 2^31 leaves work.  Checkpoint signatures need WebCrypto Ed25519 (present in
// current Chromium, Firefox and Safari; tested in Debian's Chromium); where it is missing,
// verifyCheckpoint throws UnsupportedError and the caller must say that the signature was
// NOT checked (the Merkle proofs still are).
//
// A checkpoint body is exactly three lines: origin, size, base64 root (C2SP tlog-checkpoint,
// no extension line).  Before format 3 (docs/format-3.md) a fourth, signed line `time
// YYYY-MM-DDTHH:MM:SSZ` was written; {legacy: true} accepts that line (and no other), which
// a document's check asks for only when acceptsLegacyTime(its format) -- tiplu.hand/2 records
// and tiplu.receipt/2 receipts, as audit/tlog/checkpoint.py.

export class ProofError extends Error {
  constructor(message) { super(message); this.name = "ProofError"; }
}

export class SignatureError extends Error {
  constructor(message) { super(message); this.name = "SignatureError"; }
}

export class UnsupportedError extends Error {
  constructor(message) { super(message); this.name = "UnsupportedError"; }
}

const HASH_SIZE = 32;

export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-f]*$/.test(hex)) {
    throw new ProofError("not lower-case hex");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function hashHex(hex, what) {
  const b = hexToBytes(hex);
  if (b.length !== HASH_SIZE) throw new ProofError(`${what} is not a 32-byte hash`);
  return b;
}

function toBig(v, what) {
  if (typeof v === "bigint") { if (v >= 0n) return v; }
  else if (Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  throw new ProofError(`${what} must be a non-negative integer`);
}

async function sha256(...parts) {
  let len = 0;
  for (const p of parts) len += p.length;
  const buf = new Uint8Array(len);
  let off = 0;
  for (const p of parts) { buf.set(p, off); off += p.length; }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", buf));
}

export async function leafHash(entry) { return sha256(Uint8Array.of(0), entry); }

export async function nodeHash(left, right) { return sha256(Uint8Array.of(1), left, right); }

function equalBytes(a, b) {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i] ^ b[i];
  return d === 0;
}

export async function rootFromInclusionProof(leafHashHex, index, size, pathHex) {
  let r = hashHex(leafHashHex, "leaf hash");
  let fn = toBig(index, "index");
  let sn = toBig(size, "size");
  if (!Array.isArray(pathHex)) throw new ProofError("the path must be an array of hex hashes");
  if (fn >= sn) throw new ProofError(`leaf index ${fn} is not below tree size ${sn}`); // step 1
  sn -= 1n; // step 2 (fn = index); step 3: r = leaf hash
  for (const [i, h] of pathHex.entries()) { // step 4
    const p = hashHex(h, `path element ${i}`);
    if (sn === 0n) throw new ProofError("inclusion path is longer than the tree is deep"); // 4a
    if ((fn & 1n) === 1n || fn === sn) { // 4b
      r = await nodeHash(p, r);
      if ((fn & 1n) === 0n) {
        while (fn !== 0n && (fn & 1n) === 0n) { fn >>= 1n; sn >>= 1n; }
      }
    } else {
      r = await nodeHash(r, p);
    }
    fn >>= 1n; sn >>= 1n; // 4c
  }
  if (sn !== 0n) throw new ProofError("inclusion path is shorter than the tree is deep"); // step 5
  return bytesToHex(r);
}

export async function verifyInclusion(leafHashHex, index, size, pathHex, rootHex) {
  const root = hashHex(rootHex, "root");
  const computed = hexToBytes(await rootFromInclusionProof(leafHashHex, index, size, pathHex));
  if (!equalBytes(computed, root)) {
    throw new ProofError(`inclusion proof of leaf ${index} does not lead to the root of size ${size}`);
  }
  return true;
}

const EMPTY_ROOT_HEX = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

export async function verifyConsistency(first, second, firstRootHex, secondRootHex, pathHex) {
  const m = toBig(first, "first");
  const n = toBig(second, "second");
  const r1 = hashHex(firstRootHex, "first root");
  const r2 = hashHex(secondRootHex, "second root");
  if (!Array.isArray(pathHex)) throw new ProofError("the path must be an array of hex hashes");
  let path = pathHex.map((h, i) => hashHex(h, `path element ${i}`));
  if (m > n) throw new ProofError("first size is larger than second size");
  if (m === 0n || m === n) {
    if (path.length) throw new ProofError("a proof from the empty tree or to the same size must be empty");
    if (m === 0n && !equalBytes(r1, hexToBytes(EMPTY_ROOT_HEX))) throw new ProofError("not the empty tree's root");
    if (m === n && !equalBytes(r1, r2)) throw new ProofError(`two different roots for size ${m}`);
    return true;
  }
  if (!path.length) throw new ProofError("empty consistency proof"); // step 1
  if ((m & (m - 1n)) === 0n) path = [r1, ...path]; // step 2
  let fn = m - 1n, sn = n - 1n; // step 3
  while ((fn & 1n) === 1n) { fn >>= 1n; sn >>= 1n; } // step 4
  let fr = path[0], sr = path[0]; // step 5
  for (const c of path.slice(1)) { // step 6
    if (sn === 0n) throw new ProofError("consistency proof is longer than the trees are deep");
    if ((fn & 1n) === 1n || fn === sn) {
      fr = await nodeHash(c, fr);
      sr = await nodeHash(c, sr);
      if ((fn & 1n) === 0n) {
        while (fn !== 0n && (fn & 1n) === 0n) { fn >>= 1n; sn >>= 1n; }
      }
    } else {
      sr = await nodeHash(sr, c);
    }
    fn >>= 1n; sn >>= 1n;
  }
  if (sn !== 0n) throw new ProofError("consistency proof is shorter than the trees are deep"); // step 7
  if (!equalBytes(fr, r1)) throw new ProofError(`consistency proof does not lead to the root of size ${m}`);
  if (!equalBytes(sr, r2)) throw new ProofError(`consistency proof does not lead to the root of size ${n}`);
  return true;
}

// -- checkpoints (C2SP signed note; see docs/transparency-log.md) --------------------------

const MAX_CHECKPOINT_CHARS = 4096;
const KEY_NAME_RE = /^[^\s+]+$/u;

// Standard, canonical base64 (RFC 4648 section 4, with padding), as audit.tlog.checkpoint reads it.
function b64ToBytes(s, what) {
  let bin;
  try {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s)) throw new Error();
    bin = atob(s);
  } catch {
    throw new ProofError(`${what} is not standard base64`);
  }
  if (btoa(bin) !== s) throw new ProofError(`${what} is not canonical base64`);
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

function validDate(stamp) {
  const [y, mo, d, h, mi, s] = stamp.match(/[0-9]+/g).map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d
    && t.getUTCHours() === h && t.getUTCMinutes() === mi && t.getUTCSeconds() === s;
}

/** The document formats published with the legacy four-line checkpoint body. */
export const LEGACY_TIME_FORMATS = Object.freeze(["tiplu.hand/2", "tiplu.receipt/2"]);

/** Whether a document of this format may carry a checkpoint with the legacy time line. */
export function acceptsLegacyTime(documentFormat) {
  return typeof documentFormat === "string" && LEGACY_TIME_FORMATS.includes(documentFormat);
}

/** Parse checkpoint text as strictly as audit.tlog.checkpoint.parse_checkpoint (no signature check). */
export function parseCheckpoint(text, { legacy = false } = {}) {
  if (typeof text !== "string" || text.length > MAX_CHECKPOINT_CHARS) throw new ProofError("a checkpoint is text of at most 4096 characters");
  if (!text.endsWith("\n") || text.includes("\r")) throw new ProofError("a checkpoint ends with a newline and uses LF line ends");
  const cut = text.indexOf("\n\n");
  if (cut < 0) throw new ProofError("a checkpoint needs a blank line before its signatures");
  const lines = text.slice(0, cut).split("\n");
  if (lines.length !== 3 && !(legacy && lines.length === 4)) {
    throw new ProofError(`a checkpoint body is exactly 3 lines: origin, size, root${lines.length > 3 ? " (no line after the root)" : ""}`);
  }
  const [origin, sizeText, rootB64, timeLine] = lines;
  if (!origin || origin !== origin.trim()) throw new ProofError("a checkpoint origin is one non-empty line without surrounding spaces");
  if (!/^(0|[1-9][0-9]{0,19})$/.test(sizeText)) throw new ProofError("bad checkpoint size");
  const root = b64ToBytes(rootB64, "checkpoint root");
  if (root.length !== HASH_SIZE) throw new ProofError("bad checkpoint root");
  let legacyTime = null;
  if (timeLine !== undefined) {
    const t = /^time ([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)$/.exec(timeLine);
    if (!t || !validDate(t[1])) throw new ProofError("a legacy checkpoint's 4th line is not a valid 'time YYYY-MM-DDTHH:MM:SSZ'");
    legacyTime = t[1];
  }
  const signatures = text.slice(cut + 2, -1).split("\n").map((line) => {
    const m = /^\u2014 (\S+) (\S+)$/.exec(line);
    if (!m || !KEY_NAME_RE.test(m[1])) throw new ProofError("bad signature line");
    const raw = b64ToBytes(m[2], "signature");
    if (raw.length < 5) throw new ProofError("a signature is a 4-byte key id and the signature bytes");
    return { keyName: m[1], keyId: raw.slice(0, 4), signature: raw.slice(4) };
  });
  const body = new TextEncoder().encode(text.slice(0, cut + 1)); // the signed bytes: body lines + LF
  return { origin, size: BigInt(sizeText), rootHex: bytesToHex(root), legacyTime, body, signatures };
}

export async function ed25519Supported() {
  try {
    await crypto.subtle.importKey("raw", new Uint8Array(32), { name: "Ed25519" }, false, ["verify"]);
    return true;
  } catch (e) {
    return !(e instanceof DOMException && e.name === "NotSupportedError");
  }
}

export async function verifyCheckpoint(text, publicKeyHex, keyName = null, { legacy = false } = {}) {
  const cp = parseCheckpoint(text, { legacy });
  const name = keyName ?? cp.origin;
  const pub = hexToBytes(publicKeyHex);
  if (pub.length !== 32) throw new SignatureError("an Ed25519 public key is 32 bytes");
  const keyId = (await sha256(new TextEncoder().encode(name), Uint8Array.of(0x0a, 0x01), pub)).slice(0, 4);
  const candidates = cp.signatures.filter((s) => s.keyName === name && equalBytes(s.keyId, keyId));
  if (!candidates.length) throw new SignatureError(`checkpoint has no signature by key ${name}`);
  let key;
  try {
    key = await crypto.subtle.importKey("raw", pub, { name: "Ed25519" }, false, ["verify"]);
  } catch (e) {
    if (e instanceof DOMException && e.name === "NotSupportedError") {
      throw new UnsupportedError("this browser's WebCrypto has no Ed25519: the checkpoint signature was not checked");
    }
    throw new SignatureError(`bad public key: ${e.message}`);
  }
  for (const s of candidates) {
    if (await crypto.subtle.verify({ name: "Ed25519" }, key, s.signature, cp.body)) return cp;
  }
  throw new SignatureError("checkpoint signature does not verify");
}

// -- witness cosignatures (C2SP tlog-cosignature cosignature/v1; docs/transparency-log.md) ---
//   parseVkey(text, sigType?)                      -> {name, keyId, type, publicKey, text}
//   verifyCosignatures(checkpointText, vkeys[])    -> [{name, vkey, ok, timestamp, reason}] (one per vkey)
//   checkWitnessQuorum(checkpointText, vkeys[], k) -> {ok, count, quorum, results}
// The same rules as audit/tlog/cosignature.py: a witness's line is base64(key id || u64 BE
// timestamp || Ed25519 signature) over "cosignature/v1\ntime <t>\n" + the checkpoint's note
// text; key id = SHA-256(name || 0x0A || 0x04 || key)[:4]; lines of other keys are ignored.

export const TYPE_ED25519 = 0x01;
export const TYPE_COSIGNATURE = 0x04;

export async function noteKeyId(name, type, publicKey) {
  return (await sha256(new TextEncoder().encode(name), Uint8Array.of(0x0a, type), publicKey)).slice(0, 4);
}

/** Parse a C2SP vkey `<name>+<hex key id>+<base64(type || key)>` (Ed25519 types only); checks the key id. */
export async function parseVkey(text, sigType = null) {
  if (typeof text !== "string") throw new SignatureError("a verifier key is text");
  const first = text.indexOf("+");
  const second = text.indexOf("+", first + 1);
  if (first <= 0 || second < 0) throw new SignatureError("a verifier key is <name>+<hex key id>+<base64 key>");
  const name = text.slice(0, first);
  const idHex = text.slice(first + 1, second);
  if (!KEY_NAME_RE.test(name)) throw new SignatureError("bad verifier key name");
  if (!/^[0-9a-f]{8}$/.test(idHex)) throw new SignatureError("a verifier key id is 8 lower-case hex digits");
  let material;
  try { material = b64ToBytes(text.slice(second + 1), "verifier key"); } catch (e) { throw new SignatureError(e.message); }
  if (material.length !== 33) throw new SignatureError("an Ed25519 verifier key is a type byte and 32 key bytes");
  const type = material[0];
  if (type !== TYPE_ED25519 && type !== TYPE_COSIGNATURE) throw new SignatureError(`signature type 0x${type.toString(16)} is not supported`);
  if (sigType !== null && type !== sigType) throw new SignatureError(`verifier key ${name} has type 0x0${type}, expected 0x0${sigType}`);
  const publicKey = material.slice(1);
  const keyId = await noteKeyId(name, type, publicKey);
  if (bytesToHex(keyId) !== idHex) throw new SignatureError(`verifier key ${name}: key id ${idHex} is not its key's`);
  return { name, keyId, type, publicKey, text };
}

function cosignedMessage(body, timestamp) {
  const head = new TextEncoder().encode(`cosignature/v1\ntime ${timestamp.toString()}\n`);
  const out = new Uint8Array(head.length + body.length);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

/** One result per witness vkey (text or parsed): ok only if it has a line and every line of its key verifies. */
export async function verifyCosignatures(text, vkeys) {
  // whether a legacy body is allowed is the checkpoint check's question (checkpointChecks); a
  // witness cosigns whatever note text it was shown, so its line is checked over that text
  const cp = parseCheckpoint(text, { legacy: true });
  const results = [];
  for (const v of vkeys) {
    const vkey = typeof v === "string" ? await parseVkey(v, TYPE_COSIGNATURE) : v;
    const lines = cp.signatures.filter((s) => s.keyName === vkey.name && equalBytes(s.keyId, vkey.keyId));
    const result = { name: vkey.name, vkey: vkey.text, ok: false, timestamp: null, reason: null };
    results.push(result);
    if (!lines.length) { result.reason = "missing"; continue; }
    let key;
    try {
      key = await crypto.subtle.importKey("raw", vkey.publicKey, { name: "Ed25519" }, false, ["verify"]);
    } catch (e) {
      if (e instanceof DOMException && e.name === "NotSupportedError") {
        throw new UnsupportedError("this browser's WebCrypto has no Ed25519: cosignatures were not checked");
      }
      throw new SignatureError(`bad witness key: ${e.message}`);
    }
    let newest = null;
    for (const s of lines) {
      if (s.signature.length !== 72) { result.reason = "invalid: not 8 + 64 bytes"; break; }
      const t = new DataView(s.signature.buffer, s.signature.byteOffset, 8).getBigUint64(0, false);
      if (t === 0n || t > 2n ** 63n - 1n) { result.reason = "invalid: timestamp"; break; }
      if (!(await crypto.subtle.verify({ name: "Ed25519" }, key, s.signature.slice(8), cosignedMessage(cp.body, t)))) {
        result.reason = "invalid: the cosignature does not verify"; break;
      }
      newest = newest === null || t > newest ? t : newest;
    }
    if (result.reason === null) { result.ok = true; result.timestamp = Number(newest); }
  }
  return results;
}

/**
 * Whether at least `quorum` distinct witness *keys* of `vkeys` cosigned the checkpoint: one key
 * listed under two names counts once (as audit/tlog/cosignature.py check_quorum counts).
 * `distinct` is how many distinct keys `vkeys` name, `shared` the groups of names sharing one.
 */
export async function checkWitnessQuorum(text, vkeys, quorum) {
  const unique = [...new Set(vkeys.map((v) => (typeof v === "string" ? v : v.text)))];
  const parsed = [];
  for (const v of unique) parsed.push(await parseVkey(v, TYPE_COSIGNATURE));
  const keyOf = (v) => bytesToHex(v.publicKey);
  const byKey = new Map();
  for (const v of parsed) byKey.set(keyOf(v), [...(byKey.get(keyOf(v)) ?? []), v.name]);
  const distinct = byKey.size;
  const shared = [...byKey.values()].filter((names) => names.length > 1);
  if (!Number.isInteger(quorum) || quorum < 0 || quorum > distinct) {
    throw new SignatureError(`a quorum of ${quorum} needs at least that many distinct witness keys (got ${distinct})`);
  }
  const results = await verifyCosignatures(text, parsed);
  const count = new Set(parsed.filter((v, i) => results[i].ok).map(keyOf)).size;
  return { ok: count >= quorum, count, quorum, distinct, shared, results };
}
