/**
 * The verify page: reads the form (or a pasted hand record), runs verifyHand and draws
 * the checks and the deal.  All the verifying is in ./verifier/; this module only
 * parses the form and builds the DOM (textContent only: nothing pasted becomes HTML).
 *
 * A pasted hand record (`format` "tiplu.hand/...") also has its log evidence checked
 * (./verifier/tlogproof.mjs): a tiplu.hand/2 record's tlog-proofs against the operator key
 * pasted in the "Operator key" field (pinned), or -- with the field empty -- against the
 * record's own claimed key, which is said plainly NOT to be a trust anchor.  A tiplu.hand/1
 * record is not log-bound, and that is a failed check.
 *
 * A pasted C2SP tlog-policy (the "Witness policy" box, ./verifier/policy.mjs) pins the
 * operator key (its log, when the key field is empty; a key that is not one of its logs is
 * an error) and, when its quorum asks for witnesses, requires their cosignatures on the
 * record's checkpoint (`log:policy`, reason witness_quorum).  Every hand record's result
 * says what proved its timing (#timing, data-timing): "witnessed" (the policy's quorum
 * cosigned) or "unproven" -- a record checked alone, which is never shown as a pass.
 *
 * For tests and curious readers: <body data-state> is "idle", "working", "verified"
 * (no check failed, and every log check passed, and for a hand record its timing is
 * witnessed), "unproven" (a hand record: nothing failed, but nothing proved its timing),
 * "incomplete" (nothing failed, but a log check could not be done: no pinned key, no
 * WebCrypto Ed25519), "failed" (some check failed) or "error" (input unreadable); every
 * drawn card has data-card="7H", every seat data-seat="n".  What is checked is the seeds, the
 * commitments, the deal and a record's log evidence, and -- for a pasted hand record whose game
 * this verifier has the rules of (./verifier/games/) -- its statements' fields, every move
 * replayed from the deal, the outcome and the payouts recomputed (./verifier/recordchecks.mjs,
 * <body data-replay> "replayed" or "not-replayed"); the verdict says exactly which, and says
 * the moves and payouts were NOT checked when they were not.  A failed check is
 * named by what was found (verifier/wording.mjs), never by its passing title.  The deal is
 * drawn under what it is: #felt[data-proof] is "proven" (every commitment checked),
 * "unproven" (a commitment missing) or "wrong-seeds" (a seed or the ruleset does not match
 * its commitment: the cards drawn are NOT the hand's deal, only what these inputs make).
 *
 * A link to verify.html#record=<URI-encoded JSON> fills the "Hand record" tab and
 * verifies at once (a fragment is never sent to any server).
 */
import { VerifyError, handInputFromRecord, verifyHand } from "./verifier/verifier.mjs";
import { PRESETS, presetSpec } from "./verifier/rulesets.mjs";
import { EXAMPLE_HAND } from "./verifier/presets.mjs";
import { logState, recordLogChecks } from "./verifier/tlogproof.mjs";
import { witnessChecks } from "./verifier/witnesses.mjs";
import { timingOf } from "./verifier/policy.mjs";
import { answerConformance } from "./verifier/conformance.mjs";
import { recordChecks } from "./verifier/recordchecks.mjs";
import { $, el } from "./verify-dom.mjs";
import { fieldInput, isHandRecord, pastedRecord, pinnedKey, pinnedPolicy, pinnedWitnesses, policyCheck,
  recordCheckpoint } from "./verify-form.mjs";
import { drawReport, redrawDeal, showStatus } from "./verify-report.mjs";

// the conformance suite's entry point (docs/conformance.md): a harness runs
// fixtures/conformance against this page, or against the downloaded offline file
globalThis.tipluConformance = answerConformance;

async function run(event) {
  event?.preventDefault();
  const recordMode = $("tab-record").getAttribute("aria-selected") === "true";
  document.body.dataset.state = "working";
  $("verify-btn").disabled = true;
  showStatus("info", "Working…", "recomputing the shuffle");
  try {
    const record = recordMode ? pastedRecord() : null;
    const key = recordMode ? pinnedKey() : null;
    const input = recordMode ? handInputFromRecord(record) : fieldInput();
    const started = performance.now();
    const report = await verifyHand(input);
    let logs = null;
    let trust = null;
    let timing = null;
    if (isHandRecord(record)) {
      const policy = await pinnedPolicy();
      const pinned = pinnedWitnesses();
      if (policy && pinned.witnesses.length) throw new VerifyError("malformed", "give the witnesses once: a policy, or witness keys, not both");
      let anchor = key ? { publicKey: key, basis: "pinned" } : {};
      const cp = recordCheckpoint(record);
      if (policy && policy.logs.length) {
        const hexOf = (l) => Array.from(l.vkey.publicKey, (b) => b.toString(16).padStart(2, "0")).join("");
        if (key && !policy.logs.some((l) => hexOf(l) === key)) {
          throw new VerifyError("malformed", `the operator key you pinned is not a log of your policy (its logs: ${policy.logs.map((l) => l.origin).join(", ")})`);
        }
        if (!key) {
          const origin = cp === null ? null : cp.split("\n", 1)[0];
          const log = policy.logs.find((l) => l.origin === origin) ?? policy.logs[0];
          anchor = { publicKey: hexOf(log), basis: "policy", origin: log.origin };
        }
      }
      logs = await recordLogChecks(record, anchor);
      const checkpointFailed = logs.some((c) => c.ok === false && ["bad_checkpoint", "not_log_bound", "malformed"].includes(c.reason));
      if (policy) {
        const judged = await policyCheck(policy, cp);
        logs.push(judged.check);
        timing = timingOf({ policy, result: judged.result, checkpointFailed });
      } else {
        timing = timingOf({});
      }
      if (pinned.witnesses.length) {
        logs.push(...(cp === null
          ? [{ name: "log:witnesses", title: "Checkpoint cosigned by the witnesses you pinned", ok: false, reason: "witness_quorum",
            detail: "the record carries no readable log checkpoint to look for cosignatures on" }]
          : await witnessChecks(cp, { ...pinned, basis: "pinned" })));
        const w = logs.find((c) => c.name === "log:witnesses");
        if (w && w.ok === true && !checkpointFailed && (pinned.quorum ?? pinned.witnesses.length) > 0) {
          const counted = (w.witnesses ?? []).filter((r) => r.ok).map((r) => ({ name: r.name, timestamp: r.timestamp }));
          timing = { status: "witnessed", policy: "the witness keys you pasted", witnesses: counted,
            message: `Witnessed: ${counted.length} witness${counted.length === 1 ? "" : "es"} you pinned (${counted.map((r) => r.name).join(", ")}) cosigned this record's log checkpoint, so it is the log they saw, not a private copy made after the players' seeds were known.` };
        }
      }
      trust = anchor.basis === "policy" ? `${anchor.publicKey} (a log of the policy you pasted: ${anchor.origin})`
        : key ? `${key} (pinned by you)` : `${record?.table?.public_key ?? "none"} (the record's own claim: NOT a trust anchor)`;
    }
    const moves = isHandRecord(record) && report.ok ? await recordChecks(record) : null;
    drawReport(report, logs, trust, timing, moves);
    const ms = Math.max(1, Math.round(performance.now() - started));
    const replayed = moves?.replayed ? `, replayed ${moves.moves} moves` : "";
    showStatus("info", "Done.", `Recomputed ${report.shoe.length} cards${replayed}${logs ? " and checked the record's log proofs" : ""} in ${ms} ms, in this browser.`);
    const logResult = logs ? logState(logs) : "verified";
    document.body.dataset.replay = moves?.replayed ? "replayed" : "not-replayed";
    document.body.dataset.state = !report.ok || logResult === "failed" || moves?.checks.some((c) => c.ok === false) ? "failed"
      : timing && timing.status === "unproven" ? "unproven" : logResult;
    document.body.dataset.timing = timing ? timing.status : "";
    $("result").scrollIntoView?.({ behavior: "smooth", block: "start" });
  } catch (e) {
    $("result").hidden = true;
    if (e instanceof VerifyError) showStatus("error", "Cannot verify:", e.message);
    else showStatus("error", "Unexpected error:", String(e && e.message ? e.message : e));
    document.body.dataset.state = "error";
    document.body.dataset.errorCode = e instanceof VerifyError ? e.code : "internal";
  } finally {
    $("verify-btn").disabled = false;
  }
}

/* ---------- wiring ---------- */

function selectTab(which) {
  for (const name of ["fields", "record"]) {
    const on = name === which;
    $(`tab-${name}`).setAttribute("aria-selected", String(on));
    $(`pane-${name}`).hidden = !on;
  }
}

function fillExample() {
  selectTab("fields");
  $("preset").value = EXAMPLE_HAND.preset;
  $("hand-id").value = EXAMPLE_HAND.hand_id;
  $("dealer").value = String(EXAMPLE_HAND.dealer);
  $("server-seed").value = EXAMPLE_HAND.server_seed;
  $("player-seeds").value = EXAMPLE_HAND.player_seeds.join("\n");
  $("server-commitment").value = EXAMPLE_HAND.server_commitment;
  $("player-commitments").value = EXAMPLE_HAND.player_commitments.join("\n");
  $("ruleset-hash").value = EXAMPLE_HAND.ruleset_hash;
  $("overrides").value = "";
}

function init() {
  $("preset").replaceChildren(...PRESETS.map((p) => el("option", { value: p, text: `${p} \u2014 ${presetSpec(p).title}` })));
  $("tab-fields").addEventListener("click", () => selectTab("fields"));
  $("tab-record").addEventListener("click", () => selectTab("record"));
  $("verify-form").addEventListener("submit", run);
  $("example-btn").addEventListener("click", () => { fillExample(); run(); });
  $("sort-hands").addEventListener("change", redrawDeal);
  // verify.html#record=<URI-encoded JSON>: a site can link a hand straight here.  The
  // fragment never leaves the browser (it is not sent with the request for the page).
  const hash = location.hash;
  if (hash.startsWith("#record=")) {
    selectTab("record");
    try {
      $("record-json").value = decodeURIComponent(hash.slice("#record=".length));
      run();
    } catch {
      showStatus("error", "Cannot verify:", "the link's #record= part is not valid URI-encoded text");
      document.body.dataset.state = "error";
    }
  }
  if (!globalThis.crypto?.subtle) {
    showStatus("error", "This browser gives this page no WebCrypto.",
      "Open it over https, from http://localhost, or save the offline verifier and open it from disk.");
  }
  document.body.dataset.ready = "1";
}

init();
