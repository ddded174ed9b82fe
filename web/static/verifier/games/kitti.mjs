/**
 * Kitti in the browser verifier: nine cards, three sets, one decision (rules K-1 ... K-22,
 * D-12 ... D-17), move for move as replay/kitti/engine.py (docs/kitti.md).
 *
 *   const engine = GAME.engine(ruleset);
 *   let state = await engine.start(randomness, {dealer, pot_before});
 *   for (const raw of moves) state = await engine.apply(state, engine.parseMove(raw));
 *   engine.isOver(state) && engine.outcome(state)   // == Python's Outcome.to_json()
 *
 * Decisions (the Python engine's):
 * - order (K-4): from the dealer's right, going on to the right; the dealer speaks last;
 * - four of a kind (K-20) is shown at once: such a deal is over right after the deal;
 * - four pairs (K-21, when on): the k-th redeal deals randomness.redeal(k) (D-3), the same
 *   dealer deals again and every seat stakes again; after MAX_REDEALS the hand is void;
 * - uncontested (D-15): the hand ends as soon as all but one seat have folded;
 * - a timed-out seat plays the default arrangement, recorded `auto` (strategy.mjs).
 * A table carries its pot from hand to hand: table.carry = {pot_before} (D-14).
 */
import { cardText } from "../cards.mjs";
import { deal } from "../deal.mjs";
import { allowedPlayers } from "../rulesets.mjs";
import { ReplayError } from "./errors.mjs";
import { checkArrangement, countPairs, fourOfAKind } from "./kitti/arrangement.mjs";
import { parseMove } from "./kitti/moves.mjs";
import { rankerFor } from "./kitti/ranking.mjs";
import { settleDeal, speakingOrder } from "./kitti/showdown.mjs";
import { defaultSplit } from "./kitti/strategy.mjs";

export const MAX_REDEALS = 20;
const CARRY = Object.freeze({ pot_before: 0 });
// Points are JavaScript numbers: past 2**53 they are not exact, and this verifier says so
// instead of settling (Python's integers have no such limit: docs/kitti.md).
const UNSAFE = "points beyond 2**53 cannot be counted exactly here";

function cannotStart(reason) {
  return new ReplayError("malformed", `cannot start the hand: ${reason}`);
}

function sameShoe(shoe) {
  return shoe.decks === 1 && shoe.jokers === 0 && shoe.masters === 0 && Object.keys(shoe).length === 3;
}

/** A partition of nine codes into sets, as one comparable string (the order of sets and cards ignored). */
function partition(sets) {
  return sets.map((s) => [...s].sort((x, y) => x - y).join(",")).sort().join("/");
}

class KittiEngine {
  constructor(ruleset) {
    this.ruleset = ruleset;
    this.ranker = null;
  }

  /** The ruleset checks of KittiEngine.__init__ (a RulesetError there: the hand cannot start). */
  _checkRuleset() {
    const rs = this.ruleset;
    if (rs.game !== "kitti") throw cannotStart(`KittiEngine needs a kitti ruleset, not '${rs.game}'`);
    if (rs.get("hand_size") !== 9) throw cannotStart(`Kitti deals nine cards (K-1), not ${rs.get("hand_size")}`);
    if (!sameShoe(rs.get("shoe"))) throw cannotStart("Kitti is played with one 52-card deck (D-12)");
    if (this.ranker === null) this.ranker = rankerFor(rs);
  }

  _isVoid(hands) {
    if (!this.ruleset.get("four_pairs_void")) return false;
    if (hands.some((h) => fourOfAKind(h) !== null)) return false; // D-17: K-20 comes first
    return hands.some((h) => countPairs(h) >= 4);
  }

  /** Stakes in (K-1), nine cards each from the dealer's left (K-4), K-21 redeals. */
  async start(randomness, { dealer, ...table } = {}) {
    this._checkRuleset();
    const unknown = Object.keys(table).filter((k) => !Object.hasOwn(CARRY, k)).sort();
    if (unknown.length) throw cannotStart(`kitti carries only ["pot_before"] between hands, got ${JSON.stringify(unknown)}`);
    const potBefore = Object.hasOwn(table, "pot_before") ? table.pot_before : 0;
    const n = randomness.nSeats;
    if (!allowedPlayers(this.ruleset).includes(n)) throw cannotStart(`Kitti is played by 2-5 players, not ${n} (D-12)`);
    if (typeof potBefore !== "number" || !Number.isInteger(potBefore) || potBefore < 0) {
      throw cannotStart("pot_before must be a non-negative whole number of points");
    }
    if (!Number.isSafeInteger(potBefore)) throw cannotStart(UNSAFE);
    if (!Number.isInteger(dealer) || dealer < 0 || dealer >= n) {
      throw cannotStart(`dealer seat ${dealer} is not at a table of ${n}`);
    }
    let hands = (await randomness.deal(dealer)).hands;
    const voided = [];
    let redeals = 0;
    while (this._isVoid(hands)) {
      if (redeals === MAX_REDEALS) break;
      voided.push({ deal: redeals + 1, hands: hands.map((h) => h.map(cardText)),
        four_pairs: hands.flatMap((h, i) => (countPairs(h) >= 4 ? [i] : [])) });
      redeals += 1;
      hands = deal(this.ruleset, await randomness.redeal(redeals), n, dealer).hands;
    }
    return Object.freeze({
      nSeats: n, dealer, potBefore, hands, order: speakingOrder(dealer, n), redeals, voided,
      moves: Object.freeze([]), four: hands.some((h) => fourOfAKind(h) !== null), void: this._isVoid(hands),
    });
  }

  parseMove(json) {
    return parseMove(json);
  }

  isOver(state) {
    if (state.four || state.void) return true; // K-20; K-21 after MAX_REDEALS
    const folds = state.moves.filter((m) => m.type === "fold").length;
    return state.moves.length === state.nSeats || folds >= state.nSeats - 1;
  }

  /** The seat to speak, or null: the moves were made in speaking order. */
  toMove(state) {
    return this.isOver(state) ? null : state.order[state.moves.length];
  }

  async apply(state, move) {
    this._checkRuleset();
    if (move === null || typeof move !== "object" || (move.type !== "fold" && move.type !== "arrange")) {
      throw new ReplayError("illegal_move", "a Kitti move is Fold or Arrange", "K-2");
    }
    const seat = this.toMove(state);
    if (seat === null) {
      if (state.four) throw new ReplayError("illegal_move", "four of a kind was shown at once: the deal is decided", "K-20");
      if (state.void) throw new ReplayError("illegal_move", "the deal is void (four pairs)", "K-21");
      throw new ReplayError("illegal_move", "the deal is over: everyone has spoken", "K-19");
    }
    if (move.seat !== seat) throw new ReplayError("illegal_move", `seat ${seat} speaks now, not seat ${move.seat}`, "K-4");
    if (move.type === "arrange") {
      checkArrangement(move.sets, this.ranker, state.hands[seat]); // K-2, K-6
      if (move.auto && partition(move.sets) !== partition(defaultSplit(state.hands[seat], this.ranker))) {
        throw new ReplayError("illegal_move", "a timed-out seat plays the default arrangement (docs/kitti.md)");
      }
    }
    return Object.freeze({ ...state, moves: Object.freeze([...state.moves, move]) });
  }

  /** The hand's Outcome.to_json(): points, net_points, winner, breakdown, pot_delta_points, detail. */
  outcome(state) {
    this._checkRuleset();
    if (!this.isOver(state)) throw new ReplayError("illegal_move", "the deal is not over yet", "K-4");
    const n = state.nSeats;
    const spoken = new Map(state.moves.map((m) => [m.seat, m]));
    const arranged = [];
    const folded = [];
    for (let i = 0; i < n; i++) {
      const m = spoken.get(i);
      arranged.push(m !== undefined && m.type === "arrange" ? m.sets : null);
      folded.push(m !== undefined && m.type === "fold");
    }
    const res = settleDeal(this.ruleset, this.ranker, {
      hands: state.four || state.void ? state.hands : new Array(n).fill(null),
      arranged, folded, potBefore: state.potBefore, dealer: state.dealer, deals: 1 + state.redeals,
    });
    const totals = [res.potBefore, res.potAfter, ...res.netPoints, ...res.salami, ...res.stakesPaid];
    if (!totals.every(Number.isSafeInteger)) throw new ReplayError("malformed", `cannot settle the hand: ${UNSAFE}`);
    const won = Array.from({ length: n }, () => []);
    for (const r of res.rounds) if (r.winner !== null) won[r.winner].push(r.round);
    const breakdown = [];
    for (let i = 0; i < n; i++) {
      const sets = arranged[i];
      const m = spoken.get(i);
      breakdown.push({
        hand: state.hands[i].map(cardText),
        folded: folded[i],
        sets: sets === null ? null : sets.map((s) => s.map(cardText)),
        classes: sets === null ? null : sets.map((s) => this.ranker.labelOfKey(this.ranker.key(s[0], s[1], s[2]))),
        auto: sets !== null && m.auto,
        rounds: won[i],
        stakes: res.stakesPaid[i],
        salami: res.salami[i],
      });
    }
    return {
      points: [...res.roundsWon],
      net_points: [...res.netPoints],
      winner: res.winner,
      breakdown,
      pot_delta_points: res.potAfter - res.potBefore,
      detail: {
        reason: res.reason,
        rounds: res.rounds,
        four_of_a_kind: res.fourOfAKind === null ? null : { seat: res.fourOfAKind.seat, rank: res.fourOfAKind.rank },
        void: res.reason === "void",
        four_pairs: [...res.fourPairs],
        salami: res.salami.some((s) => s > 0),
        pot_before: res.potBefore,
        pot_after: res.potAfter,
        redeals: state.redeals,
        voided_deals: state.voided.map((v) => ({ ...v })),
        dealer: state.dealer,
      },
    };
  }
}

/** D-14: the pot the next hand starts with is this hand's pot plus its change. */
export function carryAfter(carry, outcome) {
  return { pot_before: carry.pot_before + outcome.pot_delta_points };
}

export const GAME = Object.freeze({
  name: "kitti",
  engine: (ruleset) => new KittiEngine(ruleset),
  carry: CARRY,
  carryAfter,
});
