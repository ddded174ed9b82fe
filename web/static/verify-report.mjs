/**
 * How the verify page (verify.mjs) draws a result: the status line, the verdict (what was
 * proved and on what trust, never more), each check, the facts, the timing, and the deal --
 * under what it is (proven, unproven, or NOT the hand's deal) -- with the stock and the shoe.
 */
import { presetSpec } from "./verifier/rulesets.mjs";
import { cardInfo, parseCard } from "./verifier/cards.mjs";
import { GAME_DATA } from "./verifier/gamedata.mjs";
import { logState } from "./verifier/tlogproof.mjs";
import { failedTitle } from "./verifier/wording.mjs";
import { $, cardFace, cardRow, el } from "./verify-dom.mjs";

export function showStatus(kind, title, message) {
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

/** Draw the last report's deal again (the "sort hands" box changed). */
export function redrawDeal() {
  if (lastReport) drawDeal(lastReport);
}

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

export function drawReport(report, logs, trust, timing = null, moves = null) {
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
