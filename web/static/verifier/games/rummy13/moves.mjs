/**
 * Rummy moves from their record JSON, exactly as replay/rummy/moves.py's parse_record_move
 * (the envelope field `time` allowed and ignored):
 *
 *   {"type":"pick","seat":1,"source":"closed"}          {"type":"pick","seat":1,"source":"open","card":"7H"}
 *   {"type":"discard","seat":1,"card":"KS"}             {"type":"drop","seat":1}
 *   {"type":"declare","seat":1,"finish_card":"KS","groups":[["2H","3H","4H"], ...]}
 *
 * "auto": true marks a move the table played for a chair whose clock ran out (R-3, D-23).
 * The parsed move: {type, seat, source, card, auto} / {type: "declare", seat, finishCard,
 * groups}, cards as codes (card null: a closed pick that does not name its card).
 * Anything else is ReplayError("malformed") (Python's MalformedError).
 */
import { parseCard } from "../../cards.mjs";
import { ReplayError } from "../errors.mjs";

const FIELDS = {
  pick: ["source", "card", "auto"], discard: ["card", "auto"], declare: ["finish_card", "groups"], drop: ["auto"],
};
const KEYS = Object.fromEntries(Object.entries(FIELDS).map(([k, f]) => [k, new Set([...f, "type", "seat", "time"])]));

function malformed(reason) {
  return new ReplayError("malformed", reason);
}

function card(text) {
  try {
    return parseCard(text);
  } catch (err) {
    throw malformed(err.message);
  }
}

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The move of one record entry; ReplayError("malformed") if it does not parse. */
export function parseMove(data) {
  if (!isObject(data)) throw malformed("a move must be a JSON object");
  const seat = data.seat;
  if (!Number.isInteger(seat) || seat < 0) throw malformed("seat: a move needs a non-negative integer 'seat'");
  const kind = data.type;
  const keys = typeof kind === "string" && Object.hasOwn(KEYS, kind) ? KEYS[kind] : null;
  if (keys === null) throw malformed(`type: unknown move type ${JSON.stringify(kind)}`);
  const extra = Object.keys(data).filter((k) => !keys.has(k));
  if (extra.length) throw malformed(`unexpected fields ${JSON.stringify(extra.sort())} in a ${kind} move`);
  if (kind === "declare") {
    const groups = data.groups;
    if (!Object.hasOwn(data, "finish_card") || !Array.isArray(groups) || !groups.every(Array.isArray)) {
      throw malformed("a declare needs 'finish_card' and 'groups' (a list of lists of cards)");
    }
    return { type: "declare", seat, finishCard: card(data.finish_card), groups: groups.map((g) => g.map(card)) };
  }
  let source = null;
  let text = null;
  if (kind === "pick") {
    source = Object.hasOwn(data, "source") ? data.source : "closed";
    if (source !== "closed" && source !== "open") throw malformed("source: source must be 'closed' or 'open'");
    text = Object.hasOwn(data, "card") ? data.card : null;
  } else if (kind === "discard") {
    if (!Object.hasOwn(data, "card")) throw malformed("card: a discard needs a 'card'");
    text = data.card;
  }
  const code = text !== null || kind === "discard" ? card(text) : null; // a discard needs its card
  const auto = Object.hasOwn(data, "auto") ? data.auto : false;
  if (typeof auto !== "boolean") throw malformed("auto: 'auto' must be true or false");
  return { type: kind, seat, source, card: code, auto };
}
