/**
 * The verify page's DOM helpers (verify.mjs): an element by id and a new element (text only,
 * never HTML; from dom.mjs, which the hand page's viewer shares), a card face and a row of them.
 */
import { cardInfo, parseCard } from "./verifier/cards.mjs";
import { el } from "./dom.mjs";

export { $, el } from "./dom.mjs";

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
