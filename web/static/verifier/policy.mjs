/**
 * A pinned C2SP tlog-policy (c2sp.org/tlog-policy) in the browser: the same strict parser as
 * audit/tlog/policy.py, tested against the same cases (fixtures/policy/cases.json).
 *
 *   parsePolicy(text, name?)           -> Promise of {logs, witnesses, groups, quorum, name, sha256}
 *   describePolicy(policy)             -> "all of ([2 of (X1, X2, X3)], [any of (Y1, Y2, Y3)])"
 *   evaluatePolicy(policy, checkpoint) -> Promise of {log, logProblem, cosigned, counted, quorumMet, missing}
 *   timingOf({policy, result, faults}) -> {status, policy, witnesses, message} (the verdict's `timing`)
 *   policyOfWitnesses(vkeys, quorum)   -> Promise of the policy `--witness VKEY ... --quorum K` means
 *
 * A bad policy throws PolicyError with `code` (the Python ERROR_CODES) and `line`.
 * Lines: `log <vkey> [<url>]`, `witness <name> <vkey> [<url>]`, `group <name> all|any|<k>
 * <member>...`, `quorum <name>|none`; `#` comment lines and blank lines are ignored; only
 * spaces and tabs separate words.  As in Python, and stricter than the spec: the text is
 * UTF-8 (a string here), <k> has no leading zeros, a name is a group member once in the
 * whole file, a final line without its newline is accepted.
 *
 * The checkpoint is read as a plain signed note (its log signature and the witnesses'
 * cosignature/v1 lines), independently of the checkpoint format checks of merkle.mjs.
 */
import { bytesToHex, parseVkey, SignatureError, TYPE_COSIGNATURE, TYPE_ED25519, UnsupportedError } from "./merkle.mjs";

export const NONE = "none";
export const MAX_ENTRIES = 256;
export const MAX_CHARS = 64 * 1024;

export const UNPROVEN_MESSAGE = "Not proven that this deal was fixed before anyone saw a card: the record's log proofs "
  + "only agree with themselves, and an operator could have re-made the hand afterwards and logged it in a private "
  + "copy of its log. To prove it, pin a witness policy (--policy FILE, or paste one) or audit the record against "
  + "the operator's log (tiplu audit <operator URL>).";

export class PolicyError extends Error {
  constructor(message, { code = "syntax", line = null } = {}) {
    super(line ? `policy line ${line}: ${message}` : `policy: ${message}`);
    this.name = "PolicyError";
    this.code = code;
    this.line = line;
  }
}

const BAD = /[\x00-\x08\x0b-\x1f\x7f]/;
const K_RE = /^[1-9][0-9]{0,5}$/;

async function sha256Hex(text) {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

async function vkeyOf(text, type, what, line) {
  try {
    return await parseVkey(text, type);
  } catch (e) {
    throw new PolicyError(`${what}: ${e.message}`, { code: "bad_key", line });
  }
}

export async function parsePolicy(text, name = "policy") {
  if (typeof text !== "string") throw new PolicyError("a policy is text");
  if (new TextEncoder().encode(text).length > MAX_CHARS) throw new PolicyError(`a policy is at most ${MAX_CHARS} bytes`, { code: "too_large" });
  const logs = [];
  const witnesses = [];
  const groups = [];
  const defined = new Map(); // name -> "witness" | "group"
  const keys = new Map(); // public key hex -> what listed it
  const used = new Set();
  let quorum = null;
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const newName = (n, line) => {
    if (n === NONE) throw new PolicyError("'none' is predefined: a witness or group cannot be named none", { code: "reserved_name", line });
    if (defined.has(n)) throw new PolicyError(`the name '${n}' is already defined (as a ${defined.get(n)})`, { code: "duplicate_name", line });
  };
  for (const [i, raw] of lines.entries()) {
    const n = i + 1;
    const bad = BAD.exec(raw);
    if (bad) {
      throw new PolicyError(bad[0] === "\r" ? "a carriage return (save the file with \\n line ends) is not allowed"
        : `control character 0x${bad[0].charCodeAt(0).toString(16).padStart(2, "0")} is not allowed`, { code: "bad_character", line: n });
    }
    const words = raw.split(/[ \t]+/).filter(Boolean);
    if (!words.length || words[0].startsWith("#")) continue;
    const [keyword, ...args] = words;
    if (keyword === "log") {
      if (args.length !== 1 && args.length !== 2) throw new PolicyError("a log line is 'log <vkey> [<url>]'", { line: n });
      const vkey = await vkeyOf(args[0], TYPE_ED25519, "a log key", n);
      const hex = bytesToHex(vkey.publicKey);
      if (keys.has(hex)) throw new PolicyError(`the key of log ${vkey.name} is already listed (${keys.get(hex)})`, { code: "duplicate_key", line: n });
      keys.set(hex, `log ${vkey.name}`);
      logs.push({ vkey, origin: vkey.name, url: args[1] ?? null });
    } else if (keyword === "witness") {
      if (args.length !== 2 && args.length !== 3) throw new PolicyError("a witness line is 'witness <name> <vkey> [<url>]'", { line: n });
      const wname = args[0];
      newName(wname, n);
      const vkey = await vkeyOf(args[1], TYPE_COSIGNATURE, `witness ${wname}'s key`, n);
      const hex = bytesToHex(vkey.publicKey);
      if (keys.has(hex) && !keys.get(hex).startsWith("log ")) {
        throw new PolicyError(`witness ${wname}'s key is already listed (${keys.get(hex)})`, { code: "duplicate_key", line: n });
      }
      if (!keys.has(hex)) keys.set(hex, `witness ${wname}`);
      defined.set(wname, "witness");
      witnesses.push({ name: wname, vkey, url: args[2] ?? null });
    } else if (keyword === "group") {
      if (args.length < 3) throw new PolicyError("a group line is 'group <name> all|any|<k> <name>...' with at least one member", { line: n });
      const [gname, kText, ...members] = args;
      newName(gname, n);
      for (const m of members) {
        if (m === NONE) throw new PolicyError("'none' cannot be a group member", { code: "reserved_name", line: n });
        if (!defined.has(m)) throw new PolicyError(`group member '${m}' is not a witness or group defined above`, { code: "undefined_name", line: n });
        if (used.has(m)) throw new PolicyError(`'${m}' is already a member of a group (a name is listed as a member once)`, { code: "member_reused", line: n });
        used.add(m);
      }
      let k;
      if (kText === "all") k = members.length;
      else if (kText === "any") k = 1;
      else if (K_RE.test(kText)) {
        k = Number(kText);
        if (k > members.length) throw new PolicyError(`group ${gname} needs ${k} of only ${members.length} members`, { code: "bad_threshold", line: n });
      } else throw new PolicyError(`a group's threshold is all, any or a decimal from 1, not '${kText}'`, { code: "bad_threshold", line: n });
      defined.set(gname, "group");
      groups.push({ name: gname, threshold: k, members });
    } else if (keyword === "quorum") {
      if (args.length !== 1) throw new PolicyError("a quorum line is 'quorum <name>'", { line: n });
      if (quorum !== null) throw new PolicyError("a policy has exactly one quorum line (this is the second)", { code: "two_quorums", line: n });
      if (args[0] !== NONE && !defined.has(args[0])) {
        throw new PolicyError(`the quorum '${args[0]}' is not 'none' or a witness or group defined above`, { code: "undefined_name", line: n });
      }
      quorum = args[0];
    } else {
      throw new PolicyError(`unknown keyword '${keyword}' (log, witness, group or quorum)`, { code: "unknown_keyword", line: n });
    }
    if (Math.max(logs.length, witnesses.length, groups.length) > MAX_ENTRIES) {
      throw new PolicyError(`more than ${MAX_ENTRIES} logs, witnesses or groups`, { code: "too_many", line: n });
    }
  }
  if (quorum === null) throw new PolicyError("a policy needs a quorum line ('quorum none' to require no witness)", { code: "no_quorum" });
  const sha256 = await sha256Hex(text);
  return { logs, witnesses, groups, quorum, name, sha256, label: `${name} (sha256:${sha256.slice(0, 16)})` };
}

function item(policy, name) {
  return policy.witnesses.find((w) => w.name === name) ?? policy.groups.find((g) => g.name === name);
}

function words(policy, name) {
  const it = item(policy, name);
  if (!("members" in it)) return `witness ${name}`;
  const inner = it.members.map((m) => ("members" in item(policy, m) ? `[${words(policy, m)}]` : m)).join(", ");
  const k = it.threshold === it.members.length ? "all" : it.threshold === 1 ? "any" : String(it.threshold);
  return `${k} of (${inner})`;
}

/** The quorum in words, as audit.tlog.policy.Policy.describe. */
export function describePolicy(policy) {
  return policy.quorum === NONE ? "no witness (quorum none)" : words(policy, policy.quorum);
}

/** Witness names the quorum reaches, in definition order. */
export function reached(policy) {
  const out = new Set();
  const todo = policy.quorum === NONE ? [] : [policy.quorum];
  while (todo.length) {
    const n = todo.pop();
    const it = item(policy, n);
    if (it && "members" in it) todo.push(...it.members);
    else if (it) out.add(n);
  }
  return policy.witnesses.map((w) => w.name).filter((n) => out.has(n));
}

function holds(policy, name, cosigned) {
  const it = item(policy, name);
  if (!("members" in it)) return cosigned.has(name);
  return it.members.filter((m) => holds(policy, m, cosigned)).length >= it.threshold;
}

const SIG_LINE = /^\u2014 (\S+) (\S+)$/;

function b64(text) {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new SignatureError("a signature is not standard base64");
  const bin = atob(text);
  if (btoa(bin) !== text) throw new SignatureError("a signature is not canonical base64");
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** A signed note: its text (the signed bytes) and signature lines, split at the last blank line. */
export function parseNote(text) {
  if (typeof text !== "string" || !text.endsWith("\n")) throw new SignatureError("a note is text ending in a newline");
  const cut = text.lastIndexOf("\n\n");
  if (cut < 0) throw new SignatureError("a note needs an empty line between its text and its signatures");
  const signatures = text.slice(cut + 2, -1).split("\n").map((line) => {
    const m = SIG_LINE.exec(line);
    if (!m) throw new SignatureError("bad signature line");
    const raw = b64(m[2]);
    if (raw.length < 5) throw new SignatureError("a signature is a 4-byte key id and the signature bytes");
    return { keyName: m[1], keyId: raw.slice(0, 4), signature: raw.slice(4) };
  });
  const body = text.slice(0, cut + 1);
  return { body, bytes: new TextEncoder().encode(body), origin: body.split("\n", 1)[0], signatures };
}

function sameBytes(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

async function importKey(publicKey) {
  try {
    return await crypto.subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
  } catch (e) {
    if (e instanceof DOMException && e.name === "NotSupportedError") {
      throw new UnsupportedError("this browser's WebCrypto has no Ed25519: the policy was not checked");
    }
    throw new SignatureError(`bad key: ${e.message}`);
  }
}

function linesFor(note, vkey) {
  return note.signatures.filter((s) => s.keyName === vkey.name && sameBytes(s.keyId, vkey.keyId));
}

/** Which listed log signed `checkpointText`, which witnesses cosigned it, whether the quorum holds. */
export async function evaluatePolicy(policy, checkpointText) {
  const note = parseNote(checkpointText);
  let log = null;
  let logProblem = null;
  if (policy.logs.length) {
    for (const candidate of policy.logs) {
      const lines = linesFor(note, candidate.vkey);
      if (!lines.length) continue;
      const key = await importKey(candidate.vkey.publicKey);
      let ok = true;
      for (const s of lines) {
        if (s.signature.length !== 64 || !(await crypto.subtle.verify({ name: "Ed25519" }, key, s.signature, note.bytes))) ok = false;
      }
      if (!ok) { logProblem = `the signature of log ${candidate.origin} does not verify`; continue; }
      if (candidate.origin !== note.origin) { logProblem = `the checkpoint's origin ${note.origin} is not the name of log key ${candidate.origin}`; continue; }
      log = candidate;
      logProblem = null;
      break;
    }
    if (log === null && logProblem === null) logProblem = `the checkpoint (origin ${note.origin}) is signed by no log of the policy`;
  }
  const ok = new Map();
  const why = new Map();
  for (const w of policy.witnesses) {
    const lines = linesFor(note, w.vkey);
    if (!lines.length) { why.set(w.name, "missing"); continue; }
    const key = await importKey(w.vkey.publicKey);
    let newest = null;
    let reason = null;
    for (const s of lines) {
      if (s.signature.length !== 72) { reason = "invalid: not 8 + 64 bytes"; break; }
      const t = new DataView(s.signature.buffer, s.signature.byteOffset, 8).getBigUint64(0, false);
      if (t === 0n || t > 2n ** 63n - 1n) { reason = "invalid: timestamp"; break; }
      const msg = new TextEncoder().encode(`cosignature/v1\ntime ${t.toString()}\n${note.body}`);
      if (!(await crypto.subtle.verify({ name: "Ed25519" }, key, s.signature.slice(8), msg))) { reason = "invalid: the cosignature does not verify"; break; }
      newest = newest === null || t > newest ? t : newest;
    }
    if (reason) why.set(w.name, reason);
    else ok.set(w.name, { name: w.name, timestamp: Number(newest) });
  }
  const quorumMet = policy.quorum === NONE || holds(policy, policy.quorum, new Set(ok.keys()));
  const reach = reached(policy);
  return {
    log, logProblem, quorumMet,
    cosigned: [...ok.values()],
    counted: reach.filter((n) => ok.has(n)).map((n) => ok.get(n)),
    missing: reach.filter((n) => why.has(n)).map((n) => `${n}: ${why.get(n)}`),
  };
}

/**
 * The verdict's `timing` for a record checked alone in the browser: "witnessed" when the
 * pinned policy requires witnesses and its quorum holds on a checkpoint nothing else failed,
 * else "unproven" (a browser never holds the operator's whole log).
 */
export function timingOf({ policy = null, result = null, checkpointFailed = false } = {}) {
  const label = policy ? policy.label : null;
  if (policy && policy.quorum !== NONE && result && result.quorumMet && !checkpointFailed) {
    const n = result.counted.length;
    return { status: "witnessed", policy: label, witnesses: result.counted,
      message: `Witnessed: ${n} witness${n === 1 ? "" : "es"} you pinned in ${label} (${result.counted.map((w) => w.name).join(", ")}) cosigned this record's log checkpoint, so it is the log they saw, not a private copy made after the players' seeds were known.` };
  }
  return { status: "unproven", policy: label, witnesses: result && !checkpointFailed ? result.counted : [], message: UNPROVEN_MESSAGE };
}

/**
 * The policy `tiplu audit --witness VKEY ... --quorum K` means (audit.policy.policy_of_witnesses):
 * those witnesses, named by their key names (a repeated name gets a "'"), K of them (default:
 * all); none given or K = 0: quorum none.
 */
export async function policyOfWitnesses(vkeys, quorum = null) {
  const lines = [];
  const names = [];
  for (const v of vkeys) {
    let name = (await vkeyOf(v, TYPE_COSIGNATURE, "witness key", null)).name;
    while (names.includes(name) || name === NONE) name += "'";
    names.push(name);
    lines.push(`witness ${name} ${v}`);
  }
  const k = quorum === null ? names.length : quorum;
  if (!names.length || k === 0) lines.push("quorum none");
  else {
    if (k > names.length) throw new PolicyError(`a quorum of ${k} needs at least ${k} witness keys (got ${names.length})`, { code: "bad_threshold" });
    lines.push(`group cli-witnesses ${k} ${names.join(" ")}`, "quorum cli-witnesses");
  }
  return parsePolicy(lines.join("\n") + "\n", "--witness");
}

/**
 * A pinned key and a pinned policy together (audit.auditor.verdict.trust.reconcile): the key
 * must be one of the policy's logs, and a pinned origin that log's name; then the trust gains
 * the log's origin when it pinned none.  A policy with no log line leaves the key alone.
 * Throws PolicyError (code "trust_conflict") when they name different logs: bad usage.
 */
export function reconcileTrust(trust, policy) {
  if (!trust || !trust.public_key || !policy || !policy.logs.length) return trust;
  const key = String(trust.public_key).toLowerCase();
  const logs = policy.logs.filter((log) => bytesToHex(log.vkey.publicKey) === key);
  if (!logs.length) {
    throw new PolicyError(`the key pinned (${key.slice(0, 16)}...) is not a log of the policy ${policy.name} (its logs: ${policy.logs.map((l) => l.origin).join(", ")})`, { code: "trust_conflict" });
  }
  if (trust.origin && !logs.some((l) => l.origin === trust.origin)) {
    throw new PolicyError(`the trust pins origin ${trust.origin}, but the policy ${policy.name} names that key's log ${logs[0].origin}`, { code: "trust_conflict" });
  }
  return trust.origin ? trust : { ...trust, origin: logs[0].origin };
}
