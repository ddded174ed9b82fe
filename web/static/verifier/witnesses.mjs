/**
 * Witness checks for a checkpoint, in the check shape of tlogproof.mjs and hand-log-check.mjs.
 *
 *   witnessChecks(checkpointText, {witnesses, quorum, basis}) -> Promise of [{name, title, ok, detail, reason?, witnesses}]
 *
 * `witnesses` are C2SP vkeys (type 0x04) and `quorum` how many must have cosigned (default:
 * all of them).  `basis` says where the vkeys came from: "pinned" (the user gave them) or
 * "operator" (the operator's server named them -- its own choice of witnesses, so the check
 * is shown but never counts as a pass: ok null when the quorum is met).
 *
 * One check, `log:witnesses`: "Cosigned by k of n witnesses (quorum q)", failing with reason
 * `witness_quorum` (replay.faults.Reason.WITNESS_QUORUM) when fewer than q cosigned.  Each
 * entry of `witnesses` says {name, vkey, ok, timestamp, reason} (see merkle.mjs
 * verifyCosignatures).  No witnesses: no check (an empty list).  Without WebCrypto Ed25519:
 * ok null, "NOT checked".
 */
import { checkWitnessQuorum, UnsupportedError } from "./merkle.mjs";

function when(t) {
  return t === null ? "" : ` at ${new Date(t * 1000).toISOString().replace(".000Z", "Z")}`;
}

export async function witnessChecks(checkpointText, { witnesses = [], quorum = null, basis = "pinned" } = {}) {
  if (!witnesses.length) return [];
  const q = quorum ?? witnesses.length;
  const title = `Checkpoint cosigned by at least ${q} of ${witnesses.length} witness${witnesses.length === 1 ? "" : "es"}`;
  let res;
  try {
    res = await checkWitnessQuorum(checkpointText, witnesses, q);
  } catch (e) {
    if (e instanceof UnsupportedError) {
      return [{ name: "log:witnesses", title, ok: null, detail: "Witness cosignatures NOT checked: this browser has no WebCrypto Ed25519", witnesses: [] }];
    }
    return [{ name: "log:witnesses", title, ok: false, detail: `Witness cosignatures could not be read: ${e.message}`, reason: "witness_quorum", witnesses: [] }];
  }
  const lines = res.results.map((r) => (r.ok ? `${r.name}: cosigned${when(r.timestamp)}` : `${r.name}: ${r.reason}`));
  const detail = `${res.count} of ${witnesses.length} cosigned (quorum ${q}). ${lines.join("; ")}`;
  if (!res.ok) return [{ name: "log:witnesses", title, ok: false, detail, reason: "witness_quorum", witnesses: res.results }];
  if (basis !== "pinned") {
    return [{ name: "log:witnesses", title, ok: null, witnesses: res.results,
      detail: `${detail}. These witnesses were named by the operator, not pinned by you: pin independent witnesses' keys to count them.` }];
  }
  return [{ name: "log:witnesses", title, ok: true, detail, witnesses: res.results }];
}
