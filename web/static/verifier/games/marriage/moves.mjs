/**
 * The moves of a Marriage round from their record JSON: the port of parse_move in
 * replay/marriage/moves.py (the table of moves and their rules is its docstring).
 *
 *   {"type": "tunnela", "seat", "cards"}       one dealt tunnela before the first draw (MN-19, MC-13)
 *   {"type": "dealt_show", "seat", "sets"}     a show from the dealt hand (MN-20, MN-21)
 *   {"type": "draw", "seat", "source", "card"?} stock top (card optional) or latest discard (MC-14)
 *   {"type": "show", "seat", "sets"}           three pure sets less the tunnelas, or seven dublees
 *   {"type": "finish", "seat", "groups", "discard"}  D-7, MC-20, MC-21
 *   {"type": "discard", "seat", "card"}        ends the turn (MC-14)
 *
 * Every move may carry "auto": true|false; a record move may carry the envelope field
 * "time", which the replay does not read.  Anything else throws ReplayError("malformed").
 * A parsed move is {type, seat, auto, ...} with cards as codes.
 */
import { parseCard } from "../../cards.mjs";
import { ReplayError } from "../errors.mjs";

export const STOCK = "stock";
export const DISCARD = "discard";
const SOURCES = [STOCK, DISCARD];

const KEYS = new Map([
  ["tunnela", ["cards"]], ["dealt_show", ["sets"]], ["show", ["sets"]], ["draw", ["source", "card"]],
  ["discard", ["card"]], ["finish", ["groups", "discard"]],
]);
const ALLOWED = new Map([...KEYS].map(([kind, keys]) => [kind, new Set([...keys, "type", "seat", "auto", "time"])]));

function malformed(reason, location = null) {
  return new ReplayError("malformed", location ? `${location}: ${reason}` : reason);
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

function field(data, name) {
  if (!Object.hasOwn(data, name)) throw malformed(`a ${data.type} move needs '${name}'`, name);
  return data[name];
}

function card(value, where) {
  try {
    return parseCard(value);
  } catch {
    const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 12)) : typeof value;
    throw malformed(`not a card: ${shown} (expected e.g. 7H, TS, JK, MC)`, where);
  }
}

function group(value, where) {
  if (!Array.isArray(value)) throw malformed("expected a list of cards", where);
  return value.map((v, i) => card(v, `${where}/${i}`));
}

function groups(value, where) {
  if (!Array.isArray(value)) throw malformed("expected a list of card lists", where);
  return value.map((v, i) => group(v, `${where}/${i}`));
}

/** A move from its record JSON (envelope "time" allowed and ignored). */
export function parseMove(data) {
  if (!isObject(data)) throw malformed("a move must be a JSON object");
  const kind = data.type;
  if (typeof kind !== "string" || !KEYS.has(kind)) {
    throw malformed(`unknown move ${JSON.stringify(kind ?? null)}; known: ${[...KEYS.keys()].join(", ")}`, "type");
  }
  const allowed = ALLOWED.get(kind);
  const extra = Object.keys(data).filter((k) => !allowed.has(k)).sort();
  if (extra.length) throw malformed(`a ${kind} move has no field '${extra[0]}'`, extra[0]);
  const seat = field(data, "seat");
  if (typeof seat !== "number" || !Number.isInteger(seat) || seat < 0) {
    throw malformed("seat must be a non-negative integer", "seat");
  }
  const auto = Object.hasOwn(data, "auto") ? data.auto : false;
  if (auto !== false && auto !== true) throw malformed("auto must be true or false", "auto");
  const move = { type: kind, seat, auto };
  if (kind === "discard") {
    move.card = card(field(data, "card"), "card");
  } else if (kind === "draw") {
    const source = field(data, "source");
    if (typeof source !== "string" || !SOURCES.includes(source)) {
      throw malformed(`source must be one of ${SOURCES.join(", ")}`, "source");
    }
    move.source = source;
    const text = data.card;
    move.card = text === undefined || text === null ? null : card(text, "card");
  } else if (kind === "tunnela") {
    move.cards = group(field(data, "cards"), "cards");
  } else if (kind === "dealt_show" || kind === "show") {
    move.sets = groups(field(data, "sets"), "sets");
  } else {
    move.groups = groups(field(data, "groups"), "groups");
    move.discard = card(field(data, "discard"), "discard");
  }
  return Object.freeze(move);
}
