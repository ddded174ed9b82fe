/**
 * Kitti moves from their JSON form, exactly as replay/kitti/moves.py's parse_move:
 *
 *   {"type": "fold", "seat": 2}                                        K-2 / K-5
 *   {"type": "arrange", "seat": 0, "sets": [["AS","AH","AD"], ...]}    K-2 / K-6
 *   {"type": "arrange", "seat": 1, "sets": [...], "auto": true}        a timeout
 *
 * As values: {type: "fold", seat} and {type: "arrange", seat, sets (lists of card codes,
 * counts unchecked here), auto}.  Anything else is ReplayError("malformed").
 */
import { parseCard } from "../../cards.mjs";
import { ReplayError } from "../errors.mjs";

const FOLD_FIELDS = new Set(["type", "seat"]);
const ARRANGE_FIELDS = new Set(["type", "seat", "sets", "auto"]);

function malformed(reason) {
  return new ReplayError("malformed", reason);
}

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function parseSeat(data) {
  const seat = data.seat;
  if (typeof seat !== "number" || !Number.isInteger(seat) || seat < 0) {
    throw malformed("a move needs a 'seat' (a non-negative integer)");
  }
  return seat;
}

function parseSets(raw) {
  if (!Array.isArray(raw)) throw malformed("'sets' must be a list of three lists of cards");
  return raw.map((s) => {
    if (!Array.isArray(s)) throw malformed("'sets' must be a list of three lists of cards");
    return s.map((text) => {
      try {
        return parseCard(text);
      } catch (err) {
        throw malformed(err.message);
      }
    });
  });
}

/** A move from its JSON form (without the record's envelope field `time`). */
export function parseMove(data) {
  if (!isObject(data)) throw malformed("a move must be a JSON object");
  const fields = Object.keys(data);
  if (data.type === "fold") {
    if (!fields.every((k) => FOLD_FIELDS.has(k))) {
      throw malformed(`a fold has only 'type' and 'seat', got ${JSON.stringify(fields.sort())}`);
    }
    return Object.freeze({ type: "fold", seat: parseSeat(data) });
  }
  if (data.type === "arrange") {
    const unknown = fields.filter((k) => !ARRANGE_FIELDS.has(k));
    if (unknown.length) throw malformed(`unknown fields in an arrange move: ${JSON.stringify(unknown.sort())}`);
    const auto = Object.hasOwn(data, "auto") ? data.auto : false;
    if (typeof auto !== "boolean") throw malformed("'auto' must be true or false");
    const seat = parseSeat(data);
    return Object.freeze({ type: "arrange", seat, sets: parseSets(data.sets), auto });
  }
  const shown = typeof data.type === "string" ? JSON.stringify(data.type.slice(0, 40)) : String(data.type);
  throw malformed(`a Kitti move's type is 'fold' or 'arrange', not ${shown}`);
}
