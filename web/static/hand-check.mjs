/**
 * The hand page's in-browser check: recompute the commitments and the deal from the
 * published seeds with the browser's own WebCrypto (the webjs verifier, ./verifier/) and
 * compare them with what the server shows (<script id="check-data">).  Then, when the
 * server keeps a signed transparency log, check that every statement of the published
 * record is in it (./hand-log-check.mjs): the checkpoint's Ed25519 signature under the
 * operator key the page pins, and each statement's inclusion proof, from leaf hashes
 * computed here.  Trusts no server computation: the server's claims are only compared against.
 *
 * For tests: #browser-check[data-state] becomes "verified" (every check passed), "failed"
 * (some check failed), "incomplete" (none failed, some could not be done, e.g. no
 * WebCrypto Ed25519) or "error"; each <li> carries data-check (the check's name) and
 * data-ok ("true", "false" or "null").
 */
import { verifyHand } from "./verifier/verifier.mjs";
import { logChecks } from "./hand-log-check.mjs";

const box = document.getElementById("browser-check");
const list = document.getElementById("check-list");
const status = document.getElementById("check-status");
const { log, ...input } = JSON.parse(document.getElementById("check-data").textContent);

function item(c) {
  const { ok, title, detail } = c;
  const li = document.createElement("li");
  li.className = ok === true ? "ok" : ok === false ? "bad" : "skip";
  li.dataset.ok = String(ok);
  if (c.name) li.dataset.check = c.name;
  const b = document.createElement("b");
  b.textContent = `${ok === true ? "\u2713" : ok === false ? "\u2717" : "\u2013"} ${title}`;
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

async function logPart() {
  if (!log) return [];
  let proofs;
  try {
    proofs = await fetchProofs(log.proofs_url);
  } catch (e) {
    return [{ name: "log:fetch", title: "The log's proofs for this hand", ok: false,
      detail: `this server did not give them: ${e.message}` }];
  }
  return logChecks({ statements: log.statements, publicKey: log.public_key, proofs });
}

// A finished hand not yet revealed has no server seed: only its log checks can run.
const NO_DEAL = { ok: true, complete: true, checks: [] };

try {
  const report = "hand_id" in input ? await verifyHand(input) : NO_DEAL;
  list.replaceChildren(...report.checks.map(item));
  const logs = await logPart();
  list.append(...logs.map(item));
  const checks = [...report.checks, ...logs];
  // A record without every commitment fails, as before; a log check that could not be done
  // (no WebCrypto Ed25519) leaves the result incomplete -- never a pass.
  const failed = !(report.ok && report.complete) || logs.some((c) => c.ok === false);
  const done = logs.every((c) => c.ok === true);
  box.dataset.state = failed ? "failed" : done ? "verified" : "incomplete";
  const passed = checks.filter((c) => c.ok === true).length;
  status.textContent = failed
    ? "\u2717 Your browser disagrees with this server: see below."
    : done ? `\u2713 Your browser agrees: ${passed} checks passed.`
      : `\u2013 Nothing failed (${passed} checks passed), but not everything could be checked: see below.`;
} catch (e) {
  box.dataset.state = "error";
  status.textContent = `Could not check: ${e.message}`;
}
