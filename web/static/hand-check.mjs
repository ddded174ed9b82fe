/**
 * The hand page's in-browser check: recompute the commitments and the deal from the
 * published seeds with the browser's own WebCrypto (the webjs verifier, ./verifier/) and
 * compare them with what the server shows (<script id="check-data">).  Then check the log
 * evidence the record itself carries (./verifier/tlogproof.mjs, checks named "log:...", no
 * further request): a tiplu.hand/2 record's tlog-proofs, under the operator key this
 * server registered (basis "ledger"), each statement's leaf hash computed here.  Last, when
 * the server keeps a signed transparency log, cross-check the record against the live log
 * (./hand-log-check.mjs, checks named "live:..."): the log's current checkpoint and the
 * proofs it serves now.  Trusts no server computation: the server's claims are only
 * compared against.
 *
 * Where the verifier has the game's engine (./verifier/games/), it also replays the published
 * record's moves from that deal and recomputes the outcome and the payouts in exact decimals
 * (./verifier/recordchecks.mjs, checks named "replay:..." and "statements:fields"), and the
 * headline (#check-status) names exactly what was checked: the deal, the moves (how many
 * replayed), the outcome and payouts, the log evidence -- or says the moves were NOT
 * replayed.  It weighs that against this server's audit verdict (check-data's "audit": {ok,
 * reason}): when the audit rejects the record, no success headline is shown even if every
 * browser check passed; when both find a fault the browser "also" finds one -- it disagrees
 * with the server only when the server passes what the browser fails.  A failed check is
 * listed under what was found (verifier/wording.mjs), not its title.  #browser-check[data-replay]
 * is "replayed" or "not-replayed".
 *
 * For tests: #browser-check[data-state] becomes "verified" (every check passed), "failed"
 * (some check failed), "incomplete" (none failed, some could not be done, e.g. no
 * WebCrypto Ed25519) or "error"; data-audit is "passed", "rejected" or "none" (no verdict
 * yet); each <li> carries data-check (the check's name) and
 * data-ok ("true", "false" or "null") and, for a failed log check, data-reason (the Python
 * audit's reason name: not_in_log, log_order, bad_checkpoint, not_log_bound, ...).
 */
import { verifyHand } from "./verifier/verifier.mjs";
import { logChecks } from "./hand-log-check.mjs";
import { recordLogChecks } from "./verifier/tlogproof.mjs";
import { failedTitle } from "./verifier/wording.mjs";
import { recordChecks } from "./verifier/recordchecks.mjs";

const box = document.getElementById("browser-check");
const list = document.getElementById("check-list");
const status = document.getElementById("check-status");
const { log, evidence, audit, record, ...input } = JSON.parse(document.getElementById("check-data").textContent);

function item(c) {
  const { ok, title, detail } = c;
  const li = document.createElement("li");
  li.className = ok === true ? "ok" : ok === false ? "bad" : "skip";
  li.dataset.ok = String(ok);
  if (c.name) li.dataset.check = c.name;
  if (c.reason) li.dataset.reason = c.reason;
  const b = document.createElement("b");
  b.textContent = ok === false ? `\u2717 ${failedTitle(title)}` : `${ok === true ? "\u2713" : "\u2013"} ${title}`;
  const d = document.createElement("div");
  d.className = "detail";
  d.textContent = detail;
  li.append(b, d);
  return li;
}

async function fetchProofs(url) {
  const resp = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await resp.json();
  if (!resp.ok) throw new Error(body?.error?.message ?? `HTTP ${resp.status}`);
  return body;
}

/** The record's own log evidence, checked with no server request. */
async function evidencePart() {
  if (!evidence) return [];
  const record = { format: evidence.format, hand_id: evidence.hand_id, moves: evidence.moves,
    table: { public_key: evidence.claimed_key },
    fairness: { statements: evidence.statements, log_proofs: evidence.log_proofs, server_commitment: evidence.server_commitment } };
  return recordLogChecks(record, { publicKey: evidence.public_key, basis: "ledger" });
}

/** The cross-check against the server's live log: the proofs it serves now. */
async function livePart() {
  if (!log) return [];
  let proofs;
  try {
    proofs = await fetchProofs(log.proofs_url);
  } catch (e) {
    return [{ name: "live:fetch", title: "Live log: the proofs for this hand", ok: false,
      detail: `this server did not give them: ${e.message}` }];
  }
  const checks = await logChecks({ statements: log.statements, publicKey: log.public_key, proofs });
  return checks.map((c) => ({ ...c, name: c.name.replace(/^log:/, "live:"), title: `Live log: ${c.title}` }));
}

// A finished hand not yet revealed has no server seed: only its log checks can run.
const NO_DEAL = { ok: true, complete: true, checks: [] };

try {
  const report = "hand_id" in input ? await verifyHand(input) : NO_DEAL;
  list.replaceChildren(...report.checks.map(item));
  const moves = record ? await recordChecks(record) : { checks: [], replayed: false, moves: 0 };
  list.append(...moves.checks.map(item));
  const logs = [...await evidencePart(), ...await livePart()];
  list.append(...logs.map(item));
  const checks = [...report.checks, ...moves.checks, ...logs];
  box.dataset.replay = moves.replayed ? "replayed" : "not-replayed";
  // A record without every commitment fails, as before; a check that could not be done (no
  // WebCrypto Ed25519, no engine for the game) leaves the result incomplete -- never a pass.
  const failed = !(report.ok && report.complete) || [...logs, ...moves.checks].some((c) => c.ok === false);
  const done = [...logs, ...moves.checks].every((c) => c.ok === true);
  box.dataset.state = failed ? "failed" : done ? "verified" : "incomplete";
  const passed = checks.filter((c) => c.ok === true).length;
  const nFailed = checks.filter((c) => c.ok === false).length;
  const rejected = audit?.ok === false && audit?.reason !== "not_revealed";
  box.dataset.audit = audit?.ok === true ? "passed" : rejected ? "rejected" : "none";
  const dealt = "hand_id" in input;
  const what = !dealt ? "the log evidence"
    : moves.replayed ? `the commitments, the deal, the moves (${moves.moves} replayed), the outcome and the payouts, and the log evidence`
      : "the commitments, the deal and the log evidence";
  const notMoves = moves.replayed || !dealt ? "" : " It did NOT replay the moves or recompute the payouts: the audit verdict above does.";
  const fails = nFailed ? `${nFailed} check${nFailed === 1 ? "" : "s"} failed` : "a commitment is missing, so nothing proves the deal";
  status.textContent = failed
    ? (rejected
      ? `\u2717 Your browser also finds a fault (${fails}: see below); this server's audit rejects the record too.`
      : `\u2717 Your browser disagrees with this server: ${fails} (see below), though its audit does not reject the record.`)
    : rejected
      ? `\u2013 Your browser checked ${what} (${passed} checks, none failed); `
        + `this server's audit above rejects the record, so it does not check out.${notMoves}`
      : done
        ? `\u2713 Your browser agrees on ${what}: ${passed} checks passed.${notMoves}`
        : `\u2013 Nothing failed (${passed} checks passed), but not everything could be checked: see below.${notMoves}`;
} catch (e) {
  box.dataset.state = "error";
  status.textContent = `Could not check: ${e.message}`;
}
