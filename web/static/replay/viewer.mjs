/**
 * The replay viewer of the hand page: steps through the per-move views the server embedded
 * as JSON (<script id="replay-data">: {players, game, steps: [{index, move, move_json, seat,
 * to_move, view}], faults, outcome, settlement}).  Step 0 is the state after the deal; step k
 * the state after the k-th applied move.  Every seat's hand and every pile are drawn at each
 * step (a discard or open pile's top is its last card, a stock's its first); the groups a
 * seat has shown (view.shown[seat]) are drawn with its hand; cards named by the view's
 * highlight keys (tiplu, wild, maal, ...) are highlighted wherever they appear.  `#move-N` in the URL jumps to move N.
 *
 * A move the replay rejected (data.rejected: [{index, move, words, move_json, reason,
 * message, rule}]) is no step: it changed nothing.  It is drawn, in red, at the step it was
 * tried after (.bad-move#bad-move-N), and `#move-N` for a rejected move N shows that
 * position with the bad move itself highlighted (.bad-move.target, #replay[data-bad-move]),
 * never only the position before it.
 *
 * For tests: #replay[data-step] is the current step, #rp-final[data-final-points] the final
 * points (shown at the last step).
 */
import { cardRow, cardSvg, isCard, isCards } from "./cards.mjs";
import { $, el } from "../dom.mjs";

const TOP_LAST = /discard|open/;
const HIGHLIGHT_KEYS = ["tiplu", "wild", "wild_rank", "highlight", "maal", "joker", "jokers", "indicator"];
const data = JSON.parse(document.getElementById("replay-data").textContent);
const steps = data.steps;
const rejected = data.rejected ?? [];
const SHOWN_REJECTED = 3;
const root = $("replay");
let current = 0;
let timer = null;

function label(key) {
  return String(key).replace(/_/g, " ");
}

/** The cards (or ranks) a view marks as special: highlighted wherever they appear. */
function highlights(view) {
  const cards = new Set();
  const ranks = new Set();
  for (const k of HIGHLIGHT_KEYS) {
    const v = view[k];
    const add = (x) => {
      if (isCard(x)) cards.add(x);
      else if (typeof x === "string" && /^[A2-9TJQK]$/.test(x)) ranks.add(x);
    };
    if (Array.isArray(v)) v.forEach(add);
    else add(v);
  }
  return (t) => (cards.has(t) || ranks.has(t[0]) ? "hl" : "");
}

/** Each seat's latest move up to step `i` (Kitti's arrangements, a Rummy declaration ...). */
function lastMoves(i) {
  const out = {};
  for (let k = 1; k <= i; k++) if (steps[k].seat !== null && steps[k].seat !== undefined) out[steps[k].seat] = steps[k];
  return out;
}

function renderValue(v, hl) {
  if (isCards(v)) return cardRow(v, { highlight: hl, cls: "small" });
  if (Array.isArray(v) && v.length && v.every(isCards)) {
    return el("span", { class: "groups" }, ...v.map((g) => cardRow(g, { highlight: hl, cls: "group small" })));
  }
  if (isCard(v)) return cardSvg(v, `small ${hl(v)}`);
  if (Array.isArray(v)) return el("span", { text: v.length ? v.join(" ") : "none" });
  if (v !== null && typeof v === "object") return el("code", { text: JSON.stringify(v) });
  return el("span", { text: String(v) });
}

function renderMove(step, hl) {
  const m = step.move_json || {};
  const box = el("div", { class: "last-move" });
  if (Array.isArray(m.sets)) box.append(renderValue(m.sets, hl));
  else if (Array.isArray(m.groups)) box.append(renderValue(m.groups, hl));
  else box.append(el("span", { class: "move-text", text: step.words || step.move }));
  return box;
}

/** The rejected moves tried after step i (before the next applied move). */
function rejectedAfter(i) {
  const from = steps[i].index;
  const to = i + 1 < steps.length ? steps[i + 1].index : Infinity;
  return rejected.filter((r) => r.index > from && r.index < to);
}

function renderRejected(r, hl, target) {
  const who = data.players[r.seat] ?? `seat ${r.seat}`;
  return el("div", { class: `bad-move${target ? " target" : ""}`, id: `bad-move-${r.index}`, "data-move-index": r.index },
    el("div", { class: "bad-head", text: `\u2717 Record move #${r.index}, rejected: ${String(r.reason).replace(/_/g, " ")}${r.rule ? ` (rule ${r.rule})` : ""}` }),
    r.move_json ? renderMove(r, hl) : el("code", { text: r.move }),
    el("div", { class: "bad-why", text: `${r.move_json && (r.move_json.sets || r.move_json.groups) ? `${r.words ?? who}: ` : ""}${r.message}. It changed nothing; the position shown is the one it was tried in.` }));
}

function render(i, target = null) {
  current = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[current];
  const view = step.view || {};
  const hl = highlights(view);
  root.dataset.step = String(current);
  $("rp-range").value = String(current);
  const moves = steps.length - 1;
  $("rp-label").textContent = current === 0
    ? `After the deal · ${moves} move${moves === 1 ? "" : "s"} to replay`
    : `Move ${current} of ${moves} (record move #${step.index}): ${step.words || `${data.players[step.seat] ?? "seat " + step.seat} — ${step.move}`}`;

  const board = $("rp-board");
  board.replaceChildren();
  const bad = rejectedAfter(current);
  if (target === null) delete root.dataset.badMove;
  else root.dataset.badMove = String(target);
  if (bad.length) {
    const shown = bad.filter((r, k) => k < SHOWN_REJECTED || r.index === target);
    board.append(el("div", { class: "rejected-moves" }, ...shown.map((r) => renderRejected(r, hl, r.index === target)),
      bad.length > shown.length ? el("p", { class: "muted", text: `and ${bad.length - shown.length} more rejected move${bad.length - shown.length === 1 ? "" : "s"}` }) : null));
    if (target !== null) {
      const r = bad.find((x) => x.index === target);
      if (r) $("rp-label").textContent = `Record move #${r.index}, rejected: ${r.words ?? r.move} \u2014 ${r.message}`;
    }
  }
  const special = HIGHLIGHT_KEYS.filter((k) => view[k] !== undefined && view[k] !== null);
  if (special.length) {
    board.append(el("div", { class: "specials" }, ...special.map((k) =>
      el("div", { class: "special" }, el("span", { class: "k", text: label(k) }), renderValue(view[k], hl)))));
  }
  const spoken = lastMoves(current);
  const hands = Array.isArray(view.hands) ? view.hands : [];
  const seats = el("div", { class: "seats" });
  hands.forEach((hand, s) => {
    const cls = ["seat"];
    if (current > 0 && step.seat === s) cls.push("moved");
    if (step.to_move === s) cls.push("to-move");
    const box = el("div", { class: cls.join(" "), "data-seat": s },
      el("div", { class: "who" }, el("b", { text: data.players[s] ?? `seat ${s}` }),
        el("span", { class: "muted", text: ` seat ${s} · ${hand.length} cards${step.to_move === s ? " · to move" : ""}` })),
      cardRow(hand, { highlight: hl, cls: "hand" }));
    const shown = Array.isArray(view.shown) ? view.shown[s] : null;
    if (Array.isArray(shown) && shown.length) {
      box.append(el("div", { class: "shown" }, el("span", { class: "k", text: "shown" }), renderValue(shown, hl)));
    }
    if (spoken[s]) box.append(renderMove(spoken[s], hl));
    seats.append(box);
  });
  board.append(seats);
  const piles = Object.keys(view).filter((k) => k !== "hands" && k !== "shown" && !special.includes(k));
  if (piles.length) {
    const box = el("div", { class: "piles" });
    for (const k of piles) {
      const v = view[k];
      let body;
      if (isCards(v) && TOP_LAST.test(k)) {
        // a discard / open pile: its top is the last card, drawn rightmost
        const top = v.slice(-6);
        body = el("span", {}, v.length > top.length ? el("span", { class: "muted", text: `${v.length - top.length} more … ` }) : null,
          cardRow(top, { highlight: hl, cls: "small" }), el("span", { class: "muted", text: " \u2190 top" }));
      } else if (isCards(v) && v.length > 6) {
        // a stock / closed pile: its top is the first card
        body = el("span", {}, el("span", { class: "muted", text: "top \u2192 " }), cardRow(v.slice(0, 3), { highlight: hl, cls: "small" }),
          el("span", { class: "muted", text: ` … ${v.length} cards` }));
      } else body = renderValue(v, hl);
      box.append(el("div", { class: "pile", "data-pile": k }, el("span", { class: "k", text: label(k) }), body));
    }
    board.append(box);
  }

  const final = $("rp-final");
  if (current === steps.length - 1 && data.outcome) {
    const pts = data.outcome.points;
    final.dataset.finalPoints = JSON.stringify(pts);
    final.replaceChildren(el("h3", { text: "Final" }),
      el("ul", { class: "plain final-list" }, ...pts.map((p, s) => el("li", { "data-seat": s },
        el("b", { text: data.players[s] ?? `seat ${s}` }),
        el("span", { text: ` ${p} point${p === 1 ? "" : "s"} · net ${data.outcome.net_points[s] >= 0 ? "+" : ""}${data.outcome.net_points[s]}` +
          (data.settlement ? ` · ${data.settlement.nets[s]} HT` : "") + (data.outcome.winner === s ? " · winner" : "") })))));
    final.hidden = false;
  } else {
    final.hidden = true;
  }
  if (data.faults.length && current === steps.length - 1) {
    final.hidden = false;
    final.append(el("p", { class: "fault", text: `${data.faults.length} move${data.faults.length === 1 ? "" : "s"} could not be replayed: see the verdict above.` }));
  }
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  $("rp-play").textContent = "\u25B6 Play";
}

function play() {
  if (timer) return stop();
  if (current === steps.length - 1) render(0);
  $("rp-play").textContent = "\u275A\u275A Pause";
  timer = setInterval(() => {
    if (current >= steps.length - 1) return stop();
    render(current + 1);
  }, 900);
}

function jumpToHash() {
  const m = /^#move-(\d+)$/.exec(location.hash);
  if (!m) return;
  const want = Number(m[1]);
  let k = 0;
  steps.forEach((s, i) => { if (s.index <= want) k = i; });
  const isRejected = rejected.some((r) => r.index === want);
  render(k, isRejected ? want : null);
  (isRejected ? $(`bad-move-${want}`) : root).scrollIntoView();
}

$("rp-first").addEventListener("click", () => { stop(); render(0); });
$("rp-prev").addEventListener("click", () => { stop(); render(current - 1); });
$("rp-next").addEventListener("click", () => { stop(); render(current + 1); });
$("rp-last").addEventListener("click", () => { stop(); render(steps.length - 1); });
$("rp-play").addEventListener("click", play);
$("rp-range").addEventListener("input", (e) => { stop(); render(Number(e.target.value)); });
root.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement) return;
  if (e.key === "ArrowRight") render(current + 1);
  else if (e.key === "ArrowLeft") render(current - 1);
  else if (e.key === "Home") render(0);
  else if (e.key === "End") render(steps.length - 1);
  else return;
  e.preventDefault();
});
root.tabIndex = -1;
window.addEventListener("hashchange", jumpToHash);
render(0);
jumpToHash();
