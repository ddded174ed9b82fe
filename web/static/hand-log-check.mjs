/**
 * The hand page's transparency-log check: are the statements of the published record the
 * ones the operator put in its public, append-only log?
 *
 *   logChecks({statements, publicKey, proofs}) -> Promise of [{name, title, ok, detail}]
 *
 * `statements`: the signed statements of the published record ({statement, key, sig}, in
 * record order); `publicKey`: the operator key the page pins (hex, registered in the
 * ledger); `proofs`: the body of GET /api/v1/hands/<id>/log-proofs.
 *
 * Trusts no server computation.  The checkpoint's Ed25519 signature is checked with
 * WebCrypto under the pinned key; each statement's leaf hash is computed here, as
 * SHA-256(0x00 || canonical JSON of {"statement", "key", "sig"}) -- byte for byte
 * audit.tlog.store.leaf_entry -- and its inclusion proof is folded up to the checkpoint's
 * root (RFC 9162).  The server's leaf hashes are used only to find which proof belongs to
 * which statement; a statement whose leaf hash matches none of them is not in the log.
 *
 * When the server has witnesses (TIPLU_WITNESSES), `proofs.witnesses` names them and the
 * last check, `log:witnesses` (./verifier/witnesses.mjs, basis "operator"), says which of
 * them cosigned the checkpoint, each cosignature line verified here under its vkey.
 *
 * `ok` is true (passed), false (failed) or null (could not be checked: no WebCrypto
 * Ed25519 in this browser -- never counted as a pass).
 */
import { canonicalJson } from "./verifier/canonical.mjs";
import { bytesToHex, leafHash, parseCheckpoint, UnsupportedError, verifyCheckpoint, verifyInclusion } from "./verifier/merkle.mjs";
import { witnessChecks } from "./verifier/witnesses.mjs";

function check(name, title, ok, detail) {
  return { name, title, ok, detail };
}

function short(hex) {
  return typeof hex === "string" && hex.length > 20 ? `${hex.slice(0, 12)}…${hex.slice(-6)}` : String(hex);
}

/** The leaf hash (hex) of one signed statement: exactly its statement, key and sig. */
export async function statementLeafHash(signed) {
  if (signed === null || typeof signed !== "object" || !("statement" in signed) || !("key" in signed) || !("sig" in signed)) {
    throw new Error("a signed statement needs 'statement', 'key' and 'sig'");
  }
  const entry = canonicalJson({ statement: signed.statement, key: signed.key, sig: signed.sig });
  return bytesToHex(await leafHash(entry));
}

async function checkpointCheck(text, publicKey) {
  const title = "Checkpoint signed by the operator";
  try {
    const cp = await verifyCheckpoint(text, publicKey);
    return [cp, check("log:checkpoint", title, true,
      `log ${cp.origin}, ${cp.size} entries, root ${short(cp.rootHex)}; Ed25519 signature verified under the operator key`)];
  } catch (e) {
    let cp = null;
    try { cp = parseCheckpoint(text); } catch { /* reported below */ }
    if (e instanceof UnsupportedError) {
      return [cp, check("log:checkpoint", "Checkpoint signature NOT checked", null,
        "this browser's WebCrypto has no Ed25519, so the operator's signature on the checkpoint could not be checked; the inclusion proofs below are checked against an unverified root")];
    }
    return [cp, check("log:checkpoint", title, false, e.message)];
  }
}

export async function logChecks({ statements, publicKey, proofs }) {
  if (!Array.isArray(statements)) throw new Error("the published record has no list of statements");
  if (proofs === null || typeof proofs !== "object" || !Array.isArray(proofs.statements)) {
    throw new Error("the log-proofs answer has no list of statements");
  }
  const [cp, cpCheck] = await checkpointCheck(proofs.checkpoint, publicKey);
  const checks = [cpCheck];
  const served = proofs.statements;
  const used = new Set();
  const indexes = [];
  for (const [i, signed] of statements.entries()) {
    const k = i + 1;
    const kind = signed?.statement?.kind ?? "?";
    const name = `log:statement:${k}`;
    let mine;
    try {
      mine = await statementLeafHash(signed);
    } catch (e) {
      checks.push(check(name, `Statement ${k} (${kind}) is in the log`, false, e.message));
      continue;
    }
    const at = served.findIndex((p, j) => !used.has(j) && p && p.leaf_hash === mine);
    if (at < 0) {
      checks.push(check(name, `Statement ${k} (${kind}) is NOT in the log`, false,
        `its leaf hash ${short(mine)} is none of the ${served.length} leaves the log holds for this hand: the record's statement differs from the one the operator logged`));
      continue;
    }
    used.add(at);
    const p = served[at];
    const title = `Statement ${k} (${kind}) is in the log at index ${p.index}`;
    if (cp === null) {
      checks.push(check(name, title, false, "the checkpoint does not parse, so there is no root to check against"));
      continue;
    }
    try {
      await verifyInclusion(mine, p.index, cp.size, p.path, cp.rootHex);
      indexes.push(p.index);
      checks.push(check(name, title, true,
        `leaf ${short(mine)} + ${p.path.length} proof hashes lead to the checkpoint's root (size ${cp.size})`));
    } catch (e) {
      checks.push(check(name, title, false, e.message));
    }
  }
  if (indexes.length === statements.length && statements.length > 0) {
    const ordered = indexes.every((x, i) => i === 0 || BigInt(indexes[i - 1]) < BigInt(x));
    checks.push(check("log:order", "The record's statements are in log order", ordered,
      ordered ? `log indexes ${indexes[0]}…${indexes[indexes.length - 1]}, increasing`
        : `log indexes in record order: ${indexes.join(", ")}`));
  }
  const missing = served.filter((_, j) => !used.has(j));
  checks.push(check("log:complete", `The record holds all ${served.length} statements the log has for this hand`,
    missing.length === 0,
    missing.length === 0 ? `${served.length} of ${served.length}`
      : `not in the record: ${missing.map((p) => `${p.kind} (index ${p.index})`).join(", ")}`));
  // The witnesses this server names (TIPLU_WITNESSES): which cosigned, each line verified here.
  if (Array.isArray(proofs.witnesses) && proofs.witnesses.length && typeof proofs.checkpoint === "string") {
    checks.push(...await witnessChecks(proofs.checkpoint, {
      witnesses: proofs.witnesses.map((w) => w.vkey), basis: "operator",
      claimed: proofs.witnesses.filter((w) => w.cosigned).map((w) => w.name) }));
  }
  return checks;
}
