/**
 * The hand page's receipt check: a player pastes the receipt they kept (tiplu.receipt/3), the
 * move receipts they kept (optional: a JSON array or JSON lines) and the key they pinned; their browser fetches this hand's published record and runs
 * compareReceipt (seat-client.mjs) -- the checks of `tiplu receipt verify` -- and lists each
 * contradiction (a proof of forgery), each agreement, and what an offline check cannot show.
 */
import { compareReceipt } from "./seat-client.mjs";

const section = document.getElementById("receipt-check");
const form = document.getElementById("receipt-form");
const status = document.getElementById("receipt-status");
const list = document.getElementById("receipt-list");

const LABELS = { ok: "✓ ", bad: "✗ ", skip: "? " };

function item(cls, text) {
  const li = document.createElement("li");
  li.className = cls;
  const b = document.createElement("b");
  b.textContent = LABELS[cls];
  li.append(b, text);
  list.append(li);
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  list.replaceChildren();
  section.dataset.state = "running";
  status.textContent = "Checking…";
  try {
    let receipt;
    try {
      receipt = JSON.parse(document.getElementById("receipt-text").value);
    } catch {
      throw new Error("the receipt is not JSON");
    }
    const key = document.getElementById("receipt-key").value.trim() || null;
    const movesText = (document.getElementById("receipt-moves")?.value ?? "").trim();
    let moveReceipts = [];
    try {
      moveReceipts = !movesText ? [] : movesText.startsWith("[") ? JSON.parse(movesText)
        : movesText.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
    } catch {
      throw new Error("the move receipts are not JSON (an array, or one receipt per line)");
    }
    if (!Array.isArray(moveReceipts)) throw new Error("the move receipts are a JSON array or JSON lines");
    const resp = await fetch(`/api/v1/hands/${encodeURIComponent(section.dataset.handId)}/record`);
    if (!resp.ok) throw new Error(`the record could not be fetched (${resp.status})`);
    const report = await compareReceipt(receipt, await resp.json(), { publicKey: key, moveReceipts });
    if (report.trust.basis !== "pinned") item("skip", `Key ${report.trust.publicKey}: ${report.trust.note}`);
    for (const c of report.contradictions) item("bad", `Contradicted: ${c.message}`);
    for (const line of report.checked) item("ok", line);
    for (const line of report.notChecked) item("skip", `Not checked offline: ${line}`);
    section.dataset.state = report.consistent ? "good" : "bad";
    status.textContent = report.consistent ? "The published record agrees with your receipt."
      : `The published record CONTRADICTS your receipt (${report.contradictions.length}): keep both as evidence.`;
  } catch (e) {
    section.dataset.state = "error";
    status.textContent = `Cannot check: ${e.message}`;
  }
});
