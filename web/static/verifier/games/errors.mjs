/**
 * Why a replay refuses a move or a record: the JavaScript form of replay/errors.py's
 * MalformedError, IllegalMoveError and DeckMismatchError.  `kind` is the verdict reason the
 * replay reports ("malformed", "illegal_move", "deck_mismatch"), `rule` the rule ID the
 * refusal rests on (or null).
 */
export const REPLAY_ERROR_KINDS = Object.freeze(["malformed", "illegal_move", "deck_mismatch"]);

export class ReplayError extends Error {
  constructor(kind, reason, rule = null) {
    if (!REPLAY_ERROR_KINDS.includes(kind)) throw new TypeError(`unknown replay error kind ${kind}`);
    super(reason);
    this.name = "ReplayError";
    this.kind = kind;
    this.reason = reason;
    this.rule = rule;
  }
}
