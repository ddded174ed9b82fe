/**
 * What the verify page (verify.mjs) reads: the form's fields, a pasted hand record, the
 * operator key, witness keys and policy pasted to pin, the record's checkpoint, and the
 * `log:policy` check of a pasted policy on that checkpoint.
 */
import { VerifyError } from "./verifier/verifier.mjs";
import { parseTlogProof } from "./verifier/tlogproof.mjs";
import { describePolicy, evaluatePolicy, parsePolicy, PolicyError } from "./verifier/policy.mjs";
import { readRecordText } from "./verifier/record.mjs";
import { $ } from "./verify-dom.mjs";

function lines(text) {
  return text.split(/[\s,;]+/).map((s) => s.trim().toLowerCase()).filter(Boolean);
}

export function fieldInput() {
  const input = {
    preset: $("preset").value,
    hand_id: $("hand-id").value.trim(),
    server_seed: $("server-seed").value.trim().toLowerCase(),
    player_seeds: lines($("player-seeds").value),
  };
  const dealer = $("dealer").value.trim();
  if (!/^\d+$/.test(dealer)) throw new VerifyError("malformed", "the dealer seat must be a whole number (0 is the first seat)");
  input.dealer = Number(dealer);
  const sc = $("server-commitment").value.trim().toLowerCase();
  if (sc) input.server_commitment = sc;
  const rh = $("ruleset-hash").value.trim().toLowerCase();
  if (rh) input.ruleset_hash = rh;
  const pc = lines($("player-commitments").value);
  if (pc.length) input.player_commitments = pc;
  const ov = $("overrides").value.trim();
  if (ov) {
    try {
      input.overrides = JSON.parse(ov);
    } catch {
      throw new VerifyError("malformed", "settings overrides must be a JSON object");
    }
  }
  return input;
}

export function pastedRecord() {
  const text = $("record-json").value.trim();
  if (!text) throw new VerifyError("malformed", "paste a hand record (a JSON object) first");
  try {
    JSON.parse(text);
  } catch (e) {
    throw new VerifyError("malformed", `the hand record is not valid JSON (${e.message})`);
  }
  return readRecordText(text); // read as Python reads it: 1.0 is not the integer 1
}

/** The operator key pasted to pin (lower-case hex), or null when the field is empty. */
export function pinnedKey() {
  const key = $("operator-key").value.trim().toLowerCase();
  if (!key) return null;
  if (!/^[0-9a-f]{64}$/.test(key)) throw new VerifyError("malformed", "the operator key is 64 hex digits (an Ed25519 public key)");
  return key;
}

/** The witness vkeys pasted (one per line) and the quorum (null: all of them). */
export function pinnedWitnesses() {
  const witnesses = $("witness-keys").value.split("\n").map((l) => l.trim()).filter(Boolean);
  const q = $("witness-quorum").value.trim();
  if (q && !/^(0|[1-9][0-9]{0,2})$/.test(q)) throw new VerifyError("malformed", "the witness quorum is a whole number");
  const quorum = q ? Number(q) : null;
  if (quorum !== null && quorum > witnesses.length) {
    throw new VerifyError("malformed", `a quorum of ${quorum} needs at least ${quorum} witness keys`);
  }
  return { witnesses, quorum };
}

/** The pasted policy (parsed), or null when the box is empty. */
export async function pinnedPolicy() {
  const text = $("policy").value;
  if (!text.trim()) return null;
  try {
    return await parsePolicy(text, "the policy you pasted");
  } catch (e) {
    if (e instanceof PolicyError) throw new VerifyError("malformed", e.message);
    throw e;
  }
}

/** The `log:policy` check and the policy's result on the record's checkpoint. */
export async function policyCheck(policy, checkpoint) {
  const title = `Checkpoint cosigned as your policy requires: ${describePolicy(policy)}`;
  const requires = policy.quorum !== "none";
  if (checkpoint === null) {
    return { result: null, check: { name: "log:policy", title, ok: requires ? false : null, reason: requires ? "witness_quorum" : undefined,
      detail: "the record carries no readable log checkpoint to look for cosignatures on" } };
  }
  let result;
  try {
    result = await evaluatePolicy(policy, checkpoint);
  } catch (e) {
    return { result: null, check: { name: "log:policy", title, ok: requires ? false : null, reason: requires ? "witness_quorum" : undefined,
      detail: `the checkpoint could not be judged under your policy: ${e.message}` } };
  }
  const names = result.counted.map((w) => `${w.name} at ${new Date(w.timestamp * 1000).toISOString().replace(".000Z", "Z")}`);
  const detail = `${policy.label}: ${names.length ? `cosigned by ${names.join(", ")}` : "no witness of it cosigned"}`
    + (result.missing.length ? `; not counted: ${result.missing.join("; ")}` : "")
    + (result.logProblem ? `; ${result.logProblem}` : "");
  if (!requires) return { result, check: { name: "log:policy", title, ok: null, detail: `${detail}. Your policy requires no witness, so nothing here proves the timing.` } };
  if (!result.quorumMet) return { result, check: { name: "log:policy", title, ok: false, reason: "witness_quorum", detail } };
  return { result, check: { name: "log:policy", title, ok: true, detail } };
}

/** The record's one checkpoint text (from its first log proof), or null. */
export function recordCheckpoint(record) {
  const proofs = record?.fairness?.log_proofs;
  if (!Array.isArray(proofs) || !proofs.length) return null;
  try { return parseTlogProof(proofs[0], { legacy: true }).checkpointText; } catch { return null; }
}

/** Whether a pasted object says it is a hand record (then its log evidence is checked). */
export function isHandRecord(record) {
  return record !== null && typeof record === "object" && typeof record.format === "string" && record.format.startsWith("tiplu.hand/");
}
