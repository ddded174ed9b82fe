/**
 * The verify page's DOM helpers (verify.mjs): an element by id, a new element (text only,
 * never HTML: nothing pasted becomes markup), a card face and a row of them.
 */
import { cardInfo, parseCard } from "./verifier/cards.mjs";

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
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

export function cardRow(texts, { sorted = false, small = false, cls = "cards hand" } = {}) {
  const list = sorted ? [...texts].sort((a, b) => sortKey(a) - sortKey(b)) : texts;
  return el("div", { class: cls }, ...list.map((t) => cardFace(t, { small })));
}
