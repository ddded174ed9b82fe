/**
 * The 13-card Rummy engine (game "rummy13") for the browser verifier's move replay, exactly
 * as replay/rummy/engine.py (the contract: games/index.mjs; the rules: rules/rummy13.md).
 *
 *   deal      13 cards each from the dealer's left; the next card is the indicator (the
 *             wild rank, R-5; never drawn), the next starts the open pile, the rest is the
 *             closed pile, top first (R-4, D-19).  The dealer's left plays first (D-4).
 *   turn      pick the top of the closed or the open pile (a joker from the open pile only
 *             if joker_pickup, D-24), then discard -- or declare: one card face down, the
 *             other 13 shown in groups (R-6, R-7, D-21).  An empty closed pile at the end
 *             of a turn is refilled from the open pile but its top card, reshuffled by the
 *             stream "reshuffle:k" (D-20, D-3).
 *   leaving   first drop, middle drop, wrong declaration, dropped by
 *             the table after max_missed_turns automatic turns in a row (R-19, D-23).
 *   end       a valid declaration scores 0 and everyone still in counts the least points
 *             of their 13 cards (R-8, R-12..R-15, D-22: solver.mjs); or the last player left wins.
 *
 * The state is one mutable object that apply changes in place (Python's WorkingRummy);
 * a refused move throws before it changes anything.
 */
import { VerifyError } from "../errors.mjs";
import { allowedPlayers } from "../rulesets.mjs";
import { cardText } from "../cards.mjs";
import { ReplayError } from "./errors.mjs";
import { checkDeclaration, isJoker, wildRankOf } from "./rummy13/groups.mjs";
import { parseMove } from "./rummy13/moves.mjs";
import { solve, NO_PURE } from "./rummy13/solver.mjs";

const PLAYING = "playing";
const PICK = "pick";
const DISCARD = "discard";
const TIMEOUT = "timeout_drop";
const OVER = "over";
// How a seat's deal ended (the breakdown's "left").
const DECLARED = "declared";
const COUNTED = "counted";
const LAST_LEFT = "last_left";
const FIRST_DROP = "first_drop";
const MIDDLE_DROP = "middle_drop";
const WRONG = "wrong_declaration";
const TIMEOUT_DROP = "timeout_drop";

const illegal = (reason, rule = null) => new ReplayError("illegal_move", reason, rule);
const texts = (codes) => codes.map(cardText);

class RummyEngine {
  constructor(ruleset) {
    if (ruleset.game !== "rummy13") throw new VerifyError("ruleset", `the rummy13 engine plays rummy13, not ${ruleset.game}`);
    this.ruleset = ruleset;
    this.settings = ruleset.settings;
  }

  async start(randomness, { dealer }) {
    const n = randomness.nSeats;
    const allowed = allowedPlayers(this.ruleset);
    if (!allowed.includes(n)) throw new ReplayError("malformed", `rummy13 is played by ${allowed.join(", ")} players, not ${n}`);
    let d;
    try {
      d = await randomness.deal(dealer);
    } catch (err) {
      if (err instanceof VerifyError) throw new ReplayError("malformed", err.message);
      throw err;
    }
    return {
      randomness, dealer, indicator: d.indicator, wild: wildRankOf(d.indicator),
      hands: d.hands.map((h) => h.slice()), closed: d.stock.slice(), openPile: [d.turnedUp],
      turn: (dealer + 1) % n, phase: PICK, picked: null, pickedAuto: false,
      hasPicked: new Array(n).fill(false), missed: new Array(n).fill(0), status: new Array(n).fill(PLAYING),
      shown: new Array(n).fill(null), finish: new Array(n).fill(null), reshuffles: 0, turns: 0, winner: null,
    };
  }

  parseMove(json) {
    return parseMove(json);
  }

  isOver(state) {
    return state.phase === OVER;
  }

  async apply(w, move) {
    if (w.phase === OVER) throw illegal("the deal is over", "R-7");
    if (move.seat !== w.turn) throw illegal(`it is seat ${w.turn}'s turn, not seat ${move.seat}'s`, "R-6");
    if (w.phase === TIMEOUT) {
      if (!(move.type === "drop" && move.auto)) {
        throw illegal(`seat ${move.seat} missed ${this.settings.max_missed_turns} turns in a row: the table drops it`, "D-23");
      }
      await this.leave(w, move.seat, TIMEOUT_DROP);
      return w;
    }
    if (move.type === "pick") {
      this.pick(w, move);
      return w;
    }
    if (move.type === "drop") {
      if (move.auto) throw illegal("the table drops a chair only after missed turns", "D-23");
      if (w.phase !== PICK) throw illegal("a player drops at the start of a turn, before picking", "R-17");
      await this.leave(w, move.seat, w.hasPicked[move.seat] ? MIDDLE_DROP : FIRST_DROP);
      return w;
    }
    if (w.phase !== DISCARD) throw illegal("pick a card first", "R-6");
    if (move.type === "discard") await this.discard(w, move);
    else await this.declare(w, move);
    return w;
  }

  /** D-24: whether the open pile's top card may be picked now. */
  canPickOpen(w) {
    if (!w.openPile.length) return false;
    return this.settings.joker_pickup || !isJoker(w.openPile[w.openPile.length - 1], w.wild);
  }

  /** D-23: the pile the table picks from for a chair whose clock ran out (null: none). */
  autoSource(w) {
    if (w.closed.length) return "closed";
    if (this.canPickOpen(w)) return "open";
    return null;
  }

  pick(w, move) {
    if (w.phase !== PICK) throw illegal("one pick per turn; now discard or declare", "R-6");
    if (move.auto) {
      const expected = this.autoSource(w);
      if (expected === null || move.source !== expected) throw illegal("a timed-out turn picks from the closed pile", "D-23");
    }
    const closed = move.source === "closed";
    let card;
    if (closed) {
      if (!w.closed.length) throw illegal("the closed pile is empty", "D-20");
      card = w.closed[0];
    } else {
      if (!w.openPile.length) throw illegal("the open pile is empty", "R-6");
      card = w.openPile[w.openPile.length - 1];
      if (!this.canPickOpen(w)) {
        throw illegal(`${cardText(card)} is a joker and this table forbids picking jokers from the open pile`, "D-24");
      }
    }
    if (move.card !== null && move.card !== card) {
      if (closed) { // the deck decides a closed pick (D-3)
        throw new ReplayError("deck_mismatch",
          `the record lists ${cardText(move.card)} for a closed pick the deck makes ${cardText(card)}`, "D-3");
      }
      throw illegal(`the ${move.source} pile's top card is ${cardText(card)}, not ${cardText(move.card)}`, "R-6");
    }
    if (closed) w.closed.shift();
    else w.openPile.pop();
    w.hands[move.seat].push(card);
    w.phase = DISCARD;
    w.picked = card;
    w.pickedAuto = move.auto;
    w.hasPicked[move.seat] = true;
  }

  async discard(w, move) {
    const seat = move.seat;
    const hand = w.hands[seat];
    const i = hand.indexOf(move.card);
    if (i < 0) throw illegal(`seat ${seat} does not hold ${cardText(move.card)}`, "R-6");
    if (move.auto && move.card !== w.picked) throw illegal("a timed-out turn discards the card it picked", "D-23");
    if (w.pickedAuto && !move.auto) throw illegal("a turn picked automatically is discarded automatically", "D-23");
    const missed = move.auto ? w.missed[seat] + 1 : 0;
    hand.splice(i, 1);
    w.openPile.push(move.card);
    w.missed[seat] = missed;
    if (move.auto && missed >= this.settings.max_missed_turns) { // R-19, D-23: the table must drop it
      await this.refill(w);
      w.phase = TIMEOUT;
      w.picked = null;
      w.pickedAuto = false;
      w.turns += 1;
      return;
    }
    await this.endTurn(w);
  }

  async declare(w, move) {
    const seat = move.seat;
    const hand = w.hands[seat];
    const i = hand.indexOf(move.finishCard);
    if (i < 0) throw illegal(`seat ${seat} does not hold the finish card ${cardText(move.finishCard)}`, "R-7");
    const rest = hand.filter((_, j) => j !== i).sort((a, b) => a - b);
    const shown = move.groups.flat().sort((a, b) => a - b);
    if (shown.length !== rest.length || shown.some((c, j) => c !== rest[j])) {
      throw illegal("a declaration shows exactly the 13 cards held besides the finish card", "R-7");
    }
    const verdict = checkDeclaration(move.groups, w.wild, this.settings.hand_size); // D-21
    w.shown[seat] = move.groups;
    w.finish[seat] = move.finishCard;
    if (verdict.valid) {
      w.status[seat] = DECLARED;
      w.winner = seat;
      w.phase = OVER;
      w.picked = null;
      w.pickedAuto = false;
      w.turns += 1;
      return;
    }
    await this.leave(w, seat, WRONG);
  }

  async leave(w, seat, how) {
    w.status[seat] = how;
    const left = [];
    w.status.forEach((st, s) => { if (st === PLAYING) left.push(s); });
    if (left.length === 1) { // D-21: the last player left wins
      w.winner = left[0];
      w.phase = OVER;
      w.picked = null;
      w.pickedAuto = false;
      return;
    }
    await this.endTurn(w);
  }

  /** D-20: an empty closed pile is refilled from the open pile but its top card. */
  async refill(w) {
    if (w.closed.length || w.openPile.length < 2) return;
    const k = w.reshuffles + 1;
    w.closed = await w.randomness.reshuffle(k, w.openPile.slice(0, -1));
    w.openPile = w.openPile.slice(-1);
    w.reshuffles = k;
  }

  async endTurn(w) {
    if (!w.closed.length) await this.refill(w);
    const n = w.hands.length;
    let seat = (w.turn + 1) % n; // D-4: clockwise
    while (w.status[seat] !== PLAYING) seat = (seat + 1) % n;
    w.turn = seat;
    w.phase = PICK;
    w.picked = null;
    w.pickedAuto = false;
    w.turns += 1;
  }

  /** Python's Outcome.to_json() of the deal (R-8, R-12..R-18, D-22). */
  outcome(state) {
    if (state.phase !== OVER) throw illegal("the deal is not over", "R-8");
    const s = this.settings;
    const fixed = { [FIRST_DROP]: s.first_drop, [MIDDLE_DROP]: s.middle_drop, [TIMEOUT_DROP]: s.middle_drop,
      [WRONG]: s.wrong_declaration };
    const points = [];
    const breakdown = [];
    state.status.forEach((status, seat) => {
      let how = status;
      const hand = state.hands[seat];
      const item = { seat, hand: texts(hand) };
      let pts;
      if (seat === state.winner) {
        how = how === DECLARED ? DECLARED : LAST_LEFT;
        pts = 0;
        if (state.shown[seat] !== null) {
          item.groups = state.shown[seat].map(texts);
          item.finish_card = cardText(state.finish[seat]);
        }
        item.counted = [];
      } else if (how === PLAYING) {
        how = COUNTED;
        const sol = solve(hand, state.wild, s.high_card_points); // R-12..R-15
        pts = sol.points;
        item.groups = sol.groups.map(texts);
        item.counted = sol.case !== NO_PURE ? texts(sol.loose) : item.hand;
        item.case = sol.case;
      } else {
        pts = fixed[how];
        if (how === WRONG) {
          item.groups = state.shown[seat].map(texts);
          item.finish_card = cardText(state.finish[seat]);
        }
      }
      item.left = how;
      item.points = pts;
      points.push(pts);
      breakdown.push(item);
    });
    const total = points.reduce((a, p) => a + p, 0);
    const net = points.map((p, seat) => (seat === state.winner ? total : -p));
    const detail = {
      indicator: cardText(state.indicator),
      wild_rank: state.wild === null ? null : "A23456789TJQK"[state.wild - 1],
      ended: state.status[state.winner] === DECLARED ? "declared" : "last_left",
      turns: state.turns,
      reshuffles: state.reshuffles,
    };
    return { points, net_points: net, winner: state.winner, breakdown, pot_delta_points: 0, detail };
  }
}

export const GAME = Object.freeze({
  name: "rummy13",
  carry: Object.freeze({}),
  engine: (ruleset) => new RummyEngine(ruleset),
});
