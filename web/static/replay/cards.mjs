/**
 * Cards drawn as SVG (the same drawing as the server's `card` macro in
 * web/templates/_macros.html): `cardSvg("7H")` -> an <svg class="card red" data-card="7H">.
 * Texts: rank A 2..9 T J Q K then suit S H D C; "JK" a printed joker (putali), "MC" the master card.
 */
const SVG = "http://www.w3.org/2000/svg";
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
export const CARD_RE = /^(?:[A2-9TJQK][SHDC]|JK|MC)$/;

export function isCard(v) {
  return typeof v === "string" && CARD_RE.test(v);
}

export function isCards(v) {
  return Array.isArray(v) && v.length > 0 && v.every(isCard);
}

function svgEl(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

export function cardKind(text) {
  if (text === "JK") return "joker";
  if (text === "MC") return "master";
  return "HD".includes(text.at(-1)) ? "red" : "black";
}

/** One card as an <svg> element; `extra` is added to its class list. */
export function cardSvg(text, extra = "") {
  const kind = cardKind(text);
  const svg = svgEl("svg", { class: `card ${kind} ${extra}`.trim(), "data-card": text, viewBox: "0 0 50 70",
    role: "img", "aria-label": text });
  svg.append(svgEl("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5 }));
  if (kind === "joker" || kind === "master") {
    svg.append(svgEl("text", { x: 25, y: 44, class: "pip", "text-anchor": "middle" }, kind === "joker" ? "\u2605" : "\u265B"),
      svgEl("text", { x: 25, y: 63, class: "tag", "text-anchor": "middle" }, kind));
  } else {
    const suit = SUITS[text.at(-1)];
    svg.append(svgEl("text", { x: 5, y: 17, class: "rk" }, text[0] === "T" ? "10" : text[0]),
      svgEl("text", { x: 5, y: 30, class: "st" }, suit),
      svgEl("text", { x: 30, y: 58, class: "pip", "text-anchor": "middle" }, suit));
  }
  return svg;
}

/** A row of cards; `highlight(text)` may return a class to add (e.g. "hl" for the tiplu). */
export function cardRow(texts, { cls = "", highlight = () => "" } = {}) {
  const row = document.createElement("span");
  row.className = `cards ${cls}`.trim();
  for (const t of texts) row.append(cardSvg(t, highlight(t)));
  return row;
}
