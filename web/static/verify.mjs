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
import { cardInfo, parseCard } from "./verifier/cards.mjs";
import { EXAMPLE_HAND } from "./verifier/presets.mjs";
import { GAME_DATA } from "./verifier/gamedata.mjs";
import { logState, parseTlogProof, recordLogChecks } from "./verifier/tlogproof.mjs";
import { witnessChecks } from "./verifier/witnesses.mjs";
import { describePolicy, evaluatePolicy, parsePolicy, PolicyError, timingOf } from "./verifier/policy.mjs";
import { failedTitle } from "./verifier/wording.mjs";
import { answerConformance } from "./verifier/conformance.mjs";
import { recordChecks } from "./verifier/recordchecks.mjs";
import { readRecordText } from "./verifier/record.mjs";

// the conformance suite's entry point (docs/conformance.md): a harness runs
// fixtures/conformance against this page, or against the downloaded offline file
globalThis.tipluConformance = answerConformance;

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/* ---------- cards ---------- */

const SUIT_ORDER = [0, 1, 3, 2]; // sorted hands alternate colours: spades, hearts, clubs, diamonds

/** One card face: rank and suit in the corner, a large pip below; JK and MC drawn apart. */
export function cardFace(text, { small = false } = {}) {
  const info = cardInfo(parseCard(text));
  const kind = info.isJoker ? "joker" : info.isMaster ? "master" : info.isRed ? "red" : "black";
  const name = info.isJoker ? "printed joker (putali)" : info.isMaster ? "master card"
    : `${info.rankLabel} of ${info.suitName}`;
  const card = el("span", { class: `card ${kind}${small ? " small" : ""}`, "data-card": info.text, title: name, role: "img", "aria-label": name });
  if (info.isJoker || info.isMaster) {
    card.append(el("span", { class: "idx", text: info.text }), el("span", { class: "pip", text: info.isJoker ? "\u2605" : "\u265B" }),
      el("span", { class: "tag", text: info.isJoker ? "joker" : "master" }));
  } else {
    card.append(el("span", { class: "idx" }, el("b", { text: info.rankLabel }), el("i", { text: info.suitSymbol })),
      el("span", { class: "pip", text: info.suitSymbol }));
  }
  return card;
}

function sortKey(text) {
  const info = cardInfo(parseCard(text));
  if (info.suit === null) return 100 + info.code;
  return SUIT_ORDER.indexOf(info.suit) * 20 + info.rank;
}

function cardRow(texts, { sorted = false, small = false, cls = "cards hand" } = {}) {
  const list = sorted ? [...texts].sort((a, b) => sortKey(a) - sortKey(b)) : texts;
  return el("div", { class: cls }, ...list.map((t) => cardFace(t, { small })));
}

/* ---------- reading the form ---------- */

function lines(text) {
  return text.split(/[\s,;]+/).map((s) => s.trim().toLowerCase()).filter(Boolean);
}

function fieldInput() {
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

function pastedRecord() {
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
function pinnedKey() {
  const key = $("operator-key").value.trim().toLowerCase();
  if (!key) return null;
  if (!/^[0-9a-f]{64}$/.test(key)) throw new VerifyError("malformed", "the operator key is 64 hex digits (an Ed25519 public key)");
  return key;
}

/** The witness vkeys pasted (one per line) and the quorum (null: all of them). */
function pinnedWitnesses() {
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
async function pinnedPolicy() {
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
async function policyCheck(policy, checkpoint) {
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
function recordCheckpoint(record) {
  const proofs = record?.fairness?.log_proofs;
  if (!Array.isArray(proofs) || !proofs.length) return null;
  try { return parseTlogProof(proofs[0], { legacy: true }).checkpointText; } catch { return null; }
}

/** Whether a pasted object says it is a hand record (then its log evidence is checked). */
function isHandRecord(record) {
  return record !== null && typeof record === "object" && typeof record.format === "string" && record.format.startsWith("tiplu.hand/");
}

/* ---------- drawing the report ---------- */

function showStatus(kind, title, message) {
  const box = $("status");
  box.hidden = false;
  box.className = `status ${kind}`;
  box.replaceChildren(el("strong", { text: title }), message ? el("span", { text: " " + message }) : "");
}

function seatLabel(report, seat) {
  const bits = [];
  if (seat === report.dealer) bits.push("dealer");
  if (seat === report.seat_order[0]) bits.push("first to receive");
  return bits.join(" · ");
}

let lastReport = null;

/** The words of a game's piles (gamedata.mjs, from the game's DealLayout). */
function pileWords(game) {
  return GAME_DATA[game].deal_layout;
}

function drawDeal(report) {
  const sorted = $("sort-hands").checked;
  const d = report.deal;
  const centre = $("centre");
  centre.replaceChildren();
  if (d.indicator !== null) {
    // R-5: the indicator's rank is wild in all four suits; a printed joker makes only jokers wild.
    const ind = cardInfo(parseCard(d.indicator));
    const wild = ind.isJoker ? "only printed jokers are wild" : `${ind.rankLabel}s are wild`;
    centre.append(el("figure", { class: "pile", id: "indicator", "data-role": "indicator" }, cardFace(d.indicator),
      el("figcaption", {}, "Wild-card indicator", el("b", { text: wild }))));
  }
  if (d.turned_up !== null) {
    centre.append(el("figure", { class: "pile", id: "turned-up", "data-role": "turned-up" }, cardFace(d.turned_up),
      el("figcaption", { text: pileWords(report.game).turned_up_label })));
  }
  const stockCount = d.stock.length;
  centre.append(el("figure", { class: "pile" }, el("span", { class: "card back", "aria-hidden": "true" }, el("span", { class: "count", text: String(stockCount) })),
    el("figcaption", { text: pileWords(report.game).stock_label })));

  const seats = $("seats");
  seats.replaceChildren();
  for (let seat = 0; seat < report.n_seats; seat++) {
    const hand = d.hands[seat];
    const label = seatLabel(report, seat);
    seats.append(el("section", { class: `seat${seat === report.dealer ? " is-dealer" : ""}`, "data-seat": seat },
      el("h3", {}, el("span", { class: "seat-no", text: `Seat ${seat}` }), label ? el("span", { class: "badge", text: label }) : null,
        el("span", { class: "n", text: `${hand.length} cards` })),
      cardRow(hand, { sorted })));
  }
}

/** Whether the drawn deal is the hand's: proven, unproven (a commitment missing) or made
 *  from inputs that do not match their commitments (then it is NOT the hand's deal). */
function proofOf(report) {
  const binding = report.checks.filter((c) => c.name === "ruleset_hash" || c.name === "server_commitment" || c.name.startsWith("player_commitment:"));
  if (binding.some((c) => c.ok === false)) return "wrong-seeds";
  return report.complete ? "proven" : "unproven";
}

const DEAL_TITLES = {
  proven: ["The deal", null],
  unproven: ["The deal these seeds make (not proven)", "Not every commitment was given, so nothing proves these seeds and rules were fixed before the deal."],
  "wrong-seeds": ["NOT the hand's deal: what these inputs would deal",
    "A seed or the ruleset does not match its commitment, so these are not the cards that were dealt. They are drawn only to show what the inputs make."],
};

function drawProof(report) {
  const proof = proofOf(report);
  const [title, note] = DEAL_TITLES[proof];
  $("felt").dataset.proof = proof;
  $("deal-title").textContent = title;
  $("deal-note").hidden = !note;
  $("deal-note").textContent = note ?? "";
}

const NOT_MOVES = " This page does not replay the moves or the payouts: a fairly dealt hand can still be played or paid wrongly, and only its audit verdict (the hand's page, tiplu audit) checks that.";

/** What the page says of the moves: replayed (how many, which rules) or NOT checked (why). */
function movesNote(moves) {
  if (!moves || !moves.replayed) {
    const why = moves?.checks.find((c) => c.name === "replay:moves" && c.ok === null);
    return why ? ` The moves and the payouts were NOT checked: ${why.detail}.` : NOT_MOVES;
  }
  return ` Every move (${moves.moves}) was replayed from this deal under the ${moves.game} rules, and the outcome and the payouts recomputed to the cent: they are the record's.`;
}

function drawTiming(timing) {
  const box = $("timing");
  if (!timing) { box.hidden = true; box.removeAttribute("data-timing"); return; }
  box.hidden = false;
  box.dataset.timing = timing.status;
  box.className = `timing ${timing.status === "unproven" ? "unproven" : "proven"}`;
  const head = timing.status === "witnessed" ? "Timing: witnessed." : "Timing: NOT proven.";
  box.replaceChildren(el("strong", { text: head }), el("span", { text: ` ${timing.message}` }));
}

function drawReport(report, logs, trust, timing = null, moves = null) {
  lastReport = report;
  const verdict = $("verdict");
  const checks = [...report.checks, ...(moves?.checks ?? []), ...(logs ?? [])];
  const note = movesNote(moves);
  const failed = checks.filter((c) => c.ok === false);
  drawTiming(timing);
  if (failed.length) {
    verdict.className = "verdict bad";
    verdict.replaceChildren(el("strong", { text: "\u2717 Does not verify" }),
      el("span", { text: `${failed.length} check${failed.length > 1 ? "s" : ""} failed: ${failed.map((c) => failedTitle(c.title)).join("; ")}.` }));
  } else if (report.complete && timing && timing.status === "unproven") {
    verdict.className = "verdict partial";
    verdict.replaceChildren(el("strong", { text: "Not proven: nothing shows this deal was fixed before anyone saw a card" }),
      el("span", { text: "Nothing failed, and the cards are the ones the seeds make. But this record's log proofs only agree with themselves: an operator could have re-made the hand after seeing the players' seeds and logged it in a private copy of its log. Paste a witness policy you trust, or audit the record against the operator's log (tiplu audit <operator URL>)."
        + (logs && logs.some((c) => c.name === "log:trust" && c.ok === null)
          ? " Also, no operator key was pinned: the record was checked against its own claimed key, which proves nothing about who logged it." : "")
        + note }));
  } else if (report.complete && logs && logState(logs) !== "verified") {
    verdict.className = "verdict partial";
    verdict.replaceChildren(el("strong", { text: moves?.replayed ? "Deal, moves and payouts verified, log evidence not fully checked" : "Deal verified, log evidence not fully checked \u2014 not the moves or the payouts" }),
      el("span", { text: (logs.some((c) => c.name === "log:trust" && c.ok === null)
        ? "Nothing failed, but no operator key was pinned: the record was checked against its own claimed key, which proves nothing about who logged it. Paste the operator's key to pin it."
        : "Nothing failed, but not every log check could be done in this browser: see the checks.") + note }));
  } else if (report.complete) {
    verdict.className = "verdict good";
    verdict.replaceChildren(el("strong", { text: moves?.replayed ? "\u2713 Deal, moves and payouts verified" : "\u2713 Deal verified \u2014 not the moves or the payouts" }),
      el("span", { text: (logs
        ? `The rules and every seed match what was committed before the deal, this is the deal they make, and every statement is the leaf the operator logged, in the protocol's order, under the key you pinned.${timing ? ` ${timing.message}` : ""}`
        : "The rules and every seed match what was committed before the deal, and this is the deal they make.") + note }));
  } else {
    verdict.className = "verdict partial";
    verdict.replaceChildren(el("strong", { text: "Deal recomputed" }),
      el("span", { text: "Nothing failed, but without every commitment (ruleset hash, server and player seeds) this does not prove the deal was fixed in advance." }));
  }

  $("checks").replaceChildren(...checks.map((c) => {
    const state = c.ok === true ? "pass" : c.ok === false ? "fail" : "skip";
    const icon = c.ok === true ? "\u2713" : c.ok === false ? "\u2717" : "\u2013";
    return el("li", { class: state, "data-check": c.name, "data-ok": String(c.ok), "data-reason": c.reason ?? null },
      el("span", { class: "icon", "aria-hidden": "true", text: icon }),
      el("div", {}, el("div", { class: "title", text: c.ok === false ? failedTitle(c.title) : c.title }), el("div", { class: "detail", text: c.detail })));
  }));
  drawProof(report);

  const spec = presetSpec(report.preset);
  const facts = [
    ["Game", `${spec.title} (${report.preset})`],
    ["Hand id", report.hand_id],
    ["Table", `${report.n_seats} seats, dealer seat ${report.dealer}, dealt ${report.direction} from seat ${report.seat_order[0]}`],
    ["Ruleset hash", report.ruleset_hash],
    ["Key material", report.material],
  ];
  if (trust) facts.push(["Operator key", trust]);
  $("facts").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { class: /hash|material|key/i.test(k) ? "mono" : null, text: v })]));

  drawDeal(report);
  $("stock-title").textContent = `${pileWords(report.game).stock_title} (${report.deal.stock.length} cards, top first)`;
  $("stock").replaceChildren(...report.deal.stock.map((t) => cardFace(t, { small: true })));
  $("shoe-title").textContent = `The whole shuffled shoe (${report.shoe.length} cards, top first)`;
  $("shoe").replaceChildren(...report.shoe.map((t) => cardFace(t, { small: true })));
  $("result").hidden = false;
}

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
  $("sort-hands").addEventListener("change", () => lastReport && drawDeal(lastReport));
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
