/**
 * Witness checks for a checkpoint, in the check shape of tlogproof.mjs and hand-log-check.mjs.
 *
 *   witnessChecks(checkpointText, {witnesses, quorum, basis}) -> Promise of [{name, title, ok, detail, reason?, witnesses}]
 *
 * `witnesses` are C2SP vkeys (type 0x04) and `quorum` how many must have cosigned (default:
 * all of them).  `basis` says where the vkeys came from:
 *
 * - "pinned" (the user gave them): one check `log:witnesses`, "Checkpoint cosigned by at
 *   least q of n witnesses", failing with reason `witness_quorum`
 *   (replay.faults.Reason.WITNESS_QUORUM) when fewer than q cosigned;
 * - "operator" (the server named them, e.g. the hand page's log-proofs `witnesses`): no
 *   quorum -- the server chose these witnesses, so they prove little on their own; the
 *   check `log:witnesses` says which cosigned, and fails (witness_quorum) only if one the
 *   server says cosigned (`claimed`, names) has no line that verifies here.  None cosigned:
 *   ok null (nothing to check).
 *
 * Each
 * entry of `witnesses` says {name, vkey, ok, timestamp, reason} (see merkle.mjs
 * verifyCosignatures).  No witnesses: no check (an empty list).  Without WebCrypto Ed25519:
 * ok null, "NOT checked".
 */
import { checkWitnessQuorum, UnsupportedError } from "./merkle.mjs";

function when(t) {
  return t === null ? "" : ` at ${new Date(t * 1000).toISOString().replace(".000Z", "Z")}`;
}

export async function witnessChecks(checkpointText, { witnesses = [], quorum = null, basis = "pinned", claimed = [] } = {}) {
  if (!witnesses.length) return [];
  let q = basis === "pinned" ? quorum : 0;
  let title = `Checkpoint cosigned by at least ${q ?? witnesses.length} of ${witnesses.length} witness${witnesses.length === 1 ? "" : "es"}`;
  let res;
  try {
    if (q === null) q = (await checkWitnessQuorum(checkpointText, witnesses, 0)).distinct;  // all: every distinct key
    title = `Checkpoint cosigned by at least ${q} of ${witnesses.length} witness${witnesses.length === 1 ? "" : "es"}`;
    res = await checkWitnessQuorum(checkpointText, witnesses, q);
  } catch (e) {
    if (e instanceof UnsupportedError) {
      return [{ name: "log:witnesses", title, ok: null, detail: "Witness cosignatures NOT checked: this browser has no WebCrypto Ed25519", witnesses: [] }];
    }
    return [{ name: "log:witnesses", title, ok: false, detail: `Witness cosignatures could not be read: ${e.message}`, reason: "witness_quorum", witnesses: [] }];
  }
  const lines = res.results.map((r) => (r.ok ? `${r.name}: cosigned${when(r.timestamp)}` : `${r.name}: ${r.reason}`));
  if (basis !== "pinned") {
    const opTitle = `Witnesses this server names: ${res.count} of ${witnesses.length} cosigned the checkpoint`;
    const detail = `${lines.join("; ")}. The server chose these witnesses: to rely on witnesses, pin independent ones' keys in the offline verifier.`;
    const unbacked = res.results.filter((r) => !r.ok && claimed.includes(r.name));
    if (unbacked.length) {
      return [{ name: "log:witnesses", title: opTitle, ok: false, reason: "witness_quorum", witnesses: res.results,
        detail: `the server says ${unbacked.map((r) => r.name).join(", ")} cosigned, but no line of theirs verifies: ${detail}` }];
    }
    return [{ name: "log:witnesses", title: opTitle, ok: res.count > 0 ? true : null, detail, witnesses: res.results }];
  }
  const once = res.shared.map((names) => `; ${names.join(" and ")} are one key, counted once`).join("");
  const detail = `${res.count} distinct witness key${res.count === 1 ? "" : "s"} of ${res.distinct} cosigned (quorum ${q}). ${lines.join("; ")}${once}`;
  if (!res.ok) return [{ name: "log:witnesses", title, ok: false, detail, reason: "witness_quorum", witnesses: res.results }];
  return [{ name: "log:witnesses", title, ok: true, detail, witnesses: res.results }];
}
