/**
 * The hand page's in-browser check: recompute the commitments and the deal from the
 * published seeds with the browser's own WebCrypto (the webjs verifier, ./verifier/) and
 * compare them with what the server shows (<script id="check-data">).  Trusts no server
 * computation: the server's claims are only compared against.
 *
 * For tests: #browser-check[data-state] becomes "verified", "failed" or "error".
 */
import { verifyHand } from "./verifier/verifier.mjs";

const box = document.getElementById("browser-check");
const list = document.getElementById("check-list");
const status = document.getElementById("check-status");
const input = JSON.parse(document.getElementById("check-data").textContent);

function item(ok, title, detail) {
  const li = document.createElement("li");
  li.className = ok === true ? "ok" : ok === false ? "bad" : "skip";
  li.dataset.ok = String(ok);
  const b = document.createElement("b");
  b.textContent = `${ok === true ? "\u2713" : ok === false ? "\u2717" : "\u2013"} ${title}`;
  const d = document.createElement("div");
  d.className = "detail";
  d.textContent = detail;
  li.append(b, d);
  return li;
}

try {
  const report = await verifyHand(input);
  list.replaceChildren(...report.checks.map((c) => item(c.ok, c.title, c.detail)));
  box.dataset.state = report.ok && report.complete ? "verified" : "failed";
  status.textContent = report.ok && report.complete
    ? `\u2713 Your browser agrees: ${report.checks.filter((c) => c.ok).length} checks passed.`
    : "\u2717 Your browser disagrees with this server: see below.";
} catch (e) {
  box.dataset.state = "error";
  status.textContent = `Could not check: ${e.message}`;
}
