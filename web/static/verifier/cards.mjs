/**
 * Cards and their text notation, exactly as replay/cards.py.
 *
 * Every card is a small integer `code`:
 *   0..51  the standard 52: code = 13 * suit + (rank - 1), suits S=0 H=1 D=2 C=3,
 *          ranks A=1 .. K=13
 *   52     the printed joker "JK" (the putali of Marriage, the printed joker of Rummy)
 *   53     the master card "MC" (marriage/nepal only, MN-1)
 *
 * Text: rank then suit, "A23456789TJQK" x "SHDC" ("7H", "TS"), "JK", "MC".  parseCard
 * accepts exactly these (upper case; "10" is an alias of "T") and cardText writes them
 * back, so parseCard(cardText(c)) === c for every code.
 */
import { VerifyError } from "./errors.mjs";

export const RANK_CHARS = "A23456789TJQK";
export const SUIT_CHARS = "SHDC";
export const SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663"; // ♠ ♥ ♦ ♣
export const SUIT_NAMES = Object.freeze(["spades", "hearts", "diamonds", "clubs"]);
export const RANK_LABELS = Object.freeze(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]);
export const JOKER_CODE = 52;
export const MASTER_CODE = 53;
export const STANDARD = Object.freeze(Array.from({ length: 52 }, (_, i) => i));

const BY_TEXT = new Map();
for (let code = 0; code <= MASTER_CODE; code++) BY_TEXT.set(cardText(code), code);
for (const s of SUIT_CHARS) BY_TEXT.set("10" + s, BY_TEXT.get("T" + s));

function checkCode(code) {
  if (!Number.isInteger(code) || code < 0 || code > MASTER_CODE) {
    throw new VerifyError("card", `no card has code ${String(code)}`);
  }
}

/** The canonical text of a card code: "7H", "TS", "JK", "MC". */
export function cardText(code) {
  checkCode(code);
  if (code === JOKER_CODE) return "JK";
  if (code === MASTER_CODE) return "MC";
  return RANK_CHARS[code % 13] + SUIT_CHARS[Math.floor(code / 13)];
}

/** The code of one card in the canonical notation; VerifyError("card") otherwise. */
export function parseCard(text) {
  if (typeof text === "string" && BY_TEXT.has(text)) return BY_TEXT.get(text);
  const shown = typeof text === "string" ? JSON.stringify(text.slice(0, 12)) : typeof text;
  throw new VerifyError("card", `not a card: ${shown} (expected e.g. 7H, TS, JK, MC)`);
}

/** Codes from a list of card texts, or from one space-separated string. */
export function parseCards(texts) {
  if (typeof texts === "string") texts = texts.split(/\s+/).filter(Boolean);
  if (!Array.isArray(texts)) throw new VerifyError("card", "expected a list of cards");
  return texts.map(parseCard);
}

/** Card codes as one space-separated string (parseCards reads it back). */
export function formatCards(codes) {
  return codes.map(cardText).join(" ");
}

/**
 * What a card face needs: {code, text, rank (1..13 | null), suit (0..3 | null),
 * rankLabel ("10", "Q" ...), suitSymbol, suitName, isRed, isJoker, isMaster}.
 */
export function cardInfo(code) {
  checkCode(code);
  const standard = code < JOKER_CODE;
  const suit = standard ? Math.floor(code / 13) : null;
  return Object.freeze({
    code,
    text: cardText(code),
    rank: standard ? (code % 13) + 1 : null,
    suit,
    rankLabel: standard ? RANK_LABELS[code % 13] : cardText(code),
    suitSymbol: standard ? SUIT_SYMBOLS[suit] : "",
    suitName: standard ? SUIT_NAMES[suit] : "",
    isRed: suit === 1 || suit === 2,
    isJoker: code === JOKER_CODE,
    isMaster: code === MASTER_CODE,
  });
}
