/**
 * The moves of a Marriage turn applied: every check of a move, then its changes; the port
 * of replay/marriage/turns.py.  `applyMove(rules, state, move)` returns a new state and never
 * changes `state`; a refused move throws ReplayError("illegal_move" | "deck_mismatch",
 * reason, rule) naming the rule of the preset's own text.
 *
 * A turn: before the first draw a player may lay dealt tunnelas one at a time (MN-19,
 * MC-13) and show from the dealt hand (MN-20, MN-21); then draw the stock top or the
 * latest discard (MC-14); then show (MN-14, MN-16, MC-15, MC-18), finish (D-7) or discard.
 * A discard ends the turn; an empty stock is refilled from the discards (D-6); the turn cap
 * ends the round void (D-10).  The first show draws the tiplu from the stock at the
 * position the hand's "tiplu" stream picks (D-5).
 */
import { cardText } from "../../cards.mjs";
import { leftOf } from "../../deal.mjs";
import { ReplayError } from "../errors.mjs";
import { SHOW_DUBLEES, SHOW_SETS, checkDubleeShow, checkShow, checkTunnelaAtDeal } from "./combos.mjs";
import { checkFinish } from "./finish.mjs";
import { isJoker, isNepal } from "./jokers.mjs";
import { DRAW, OVER, PLAY, VOID_STOCK, VOID_TURN_CAP, copyRound, insertCard, removeCards } from "./state.mjs";
import { DISCARD, STOCK } from "./moves.mjs";

const illegal = (reason, rule = null) => new ReplayError("illegal_move", reason, rule);

/** What one resolved ruleset says about turns, read once. */
export class TurnRules {
  constructor(ruleset) {
    this.ruleset = ruleset;
    this.nepal = isNepal(ruleset);
    this.tipluOutOfPlay = ruleset.get("tiplu_placement") === "out_of_play"; // D-5
    this.direction = ruleset.get("direction");
    this.sevenDublees = Boolean(ruleset.get("seven_dublees"));
    this.seesAtShow = ruleset.get("see_maal") === "immediately"; // MN-17
    this.jokerPickupAfterSeeing = ruleset.get("joker_pickup_after_seeing");
    this.turnCap = ruleset.get("turn_cap");
  }

  rule(nepal, classic) {
    return this.nepal ? nepal : classic;
  }
}

const HANDLERS = {
  tunnela: tunnela, dealt_show: dealtShow, draw: draw, show: show, finish: finish, discard: discard,
};

/** The state after `move` (a new one); throws ReplayError naming the rule otherwise. */
export async function applyMove(rules, state, move) {
  if (state.phase === OVER) throw illegal("the round is over", "D-7");
  const handler = HANDLERS[move.type];
  if (handler === undefined) throw illegal(`not a marriage move: ${move.type}`);
  if (move.seat !== state.turnSeat) {
    throw illegal(`it is seat ${state.turnSeat}'s turn, not seat ${move.seat}'s`, rules.rule("MN-6", "MC-14"));
  }
  const next = copyRound(state);
  await handler(rules, next, next.seats[move.seat], move);
  next.moves += 1;
  return next;
}

/** Why `me` may not take `card` from the discards (D-11, MC-17, MC-19), or null. */
export function pickupError(rules, state, me, card) {
  if (!me.seesMaal) return null;
  if (me.dublee) {
    if (!me.hand.includes(card)) {
      return illegal("after seeing, a dublee player takes a discard only to complete the eighth dublee and finish",
        "MC-19");
    }
    return null;
  }
  if (!rules.jokerPickupAfterSeeing && isJoker(card, state.tiplu, rules.ruleset)) {
    return illegal(`${cardText(card)} is a joker: a player who has seen may not take it from the discards`,
      rules.rule("D-11", "MC-17"));
  }
  return null;
}

// --- before the first draw ------------------------------------------------------------

async function tunnela(rules, state, me, move) {
  if (state.phase !== DRAW || me.hasDrawn) {
    throw illegal("a tunnela may be laid only before the player's first draw", rules.rule("MN-18", "MC-13"));
  }
  if (me.hasShown) throw illegal("the player has already shown", "MN-19");
  if (me.tunnelasAtDeal.length >= SHOW_SETS) {
    throw illegal("three tunnelas are a complete show: show instead of laying a fourth", "MN-21");
  }
  checkTunnelaAtDeal(move.cards, rules.ruleset); // one tunnela per action (MN-19)
  const hand = removeCards(me.hand, move.cards);
  if (hand === null) {
    throw illegal(`seat ${move.seat} does not hold ${cardText(move.cards[0])} three times`, rules.rule("MN-19", "MC-13"));
  }
  me.hand = hand;
  me.tunnelasAtDeal = [...me.tunnelasAtDeal, [...move.cards]];
}

/** Validate the sets of a show; returns whether it is a dublee show. */
function checkShowSets(rules, me, sets, dealt) {
  if (sets.length && sets.every((s) => s.length === 2)) {
    if (!rules.sevenDublees) throw illegal("this table does not allow showing seven dublees", "MN-16");
    if (sets.length !== SHOW_DUBLEES) {
      throw illegal(`a dublee show lays exactly seven dublees, not ${sets.length}`, rules.rule("MN-16", "MC-18"));
    }
    checkDubleeShow(sets, rules.ruleset);
    return true;
  }
  const laid = me.tunnelasAtDeal.length;
  const need = SHOW_SETS - laid;
  if (sets.length !== need || sets.some((s) => s.length !== 3)) {
    throw illegal(`a show lays exactly three 3-card pure sets, counting the ${laid} tunnela(s) laid at the deal: `
      + `${need} set(s) of three needed`, rules.rule(laid ? "MN-19" : dealt ? "MN-20" : "MN-14", "MC-15"));
  }
  checkShow(sets, rules.ruleset, laid);
  return false;
}

async function dealtShow(rules, state, me, move) {
  if (state.phase !== DRAW || me.hasDrawn) throw illegal("a dealt-hand show comes before the player's first draw", "MN-18");
  if (me.hasShown) throw illegal("the player has already shown", "MN-20");
  const dublee = checkShowSets(rules, me, move.sets, true);
  const hand = removeCards(me.hand, move.sets.flat());
  if (hand === null) throw illegal("the dealt hand does not hold those sets", "MN-20");
  me.hand = hand;
  layShow(me, move.sets, dublee, true); // MN-20: maal is seen at once, whatever see_maal says
  await revealTiplu(rules, state);
}

// --- the turn ---------------------------------------------------------------------------

async function draw(rules, state, me, move) {
  if (state.phase !== DRAW) throw illegal("the player has already drawn this turn", "MC-14");
  let card;
  if (move.source === STOCK) {
    if (!state.stock.length) throw illegal("the stock is empty", "D-6");
    card = state.stock[0];
    if (move.card !== null && move.card !== card) {
      throw new ReplayError("deck_mismatch",
        `the record lists ${cardText(move.card)} for a stock draw the deck makes ${cardText(card)}`, "D-3");
    }
    state.stock.shift();
    state.taken = null;
    state.mustFinish = false;
  } else if (move.source === DISCARD) {
    if (!state.discards.length) throw illegal("there is no discard to take", "MC-14");
    card = state.discards[state.discards.length - 1];
    if (move.card !== null && move.card !== card) {
      throw illegal(`only the latest discard (${cardText(card)}) may be taken, not ${cardText(move.card)}`, "MC-14");
    }
    const err = pickupError(rules, state, me, card);
    if (err !== null) throw err;
    state.discards.pop();
    state.taken = card;
    state.mustFinish = me.dublee && me.seesMaal; // MC-19
  } else {
    throw illegal(`unknown draw source ${move.source}`, "MC-14");
  }
  me.hand = insertCard(me.hand, card);
  me.hasDrawn = true;
  state.phase = PLAY;
  state.drawn = card;
  state.autoTurn = move.auto;
}

async function show(rules, state, me, move) {
  if (state.phase !== PLAY) {
    if (!me.hasDrawn) throw illegal("before the first draw a show is a dealt-hand show (dealt_show)", "MN-20");
    throw illegal("draw first: the show comes after drawing", rules.rule("MN-14", "MC-15"));
  }
  if (me.hasShown) throw illegal("the player has already shown", rules.rule("MN-15", "MC-16"));
  const dublee = checkShowSets(rules, me, move.sets, false);
  const hand = removeCards(me.hand, move.sets.flat());
  if (hand === null) throw illegal("the hand does not hold those sets", rules.rule("MN-14", "MC-15"));
  me.hand = hand;
  layShow(me, move.sets, dublee, rules.seesAtShow);
  state.shownThisTurn = true;
  await revealTiplu(rules, state);
}

/** The show's marks on a seat whose hand the shown cards have left. */
function layShow(me, sets, dublee, sees) {
  me.shown = sets.map((s) => [...s]);
  me.dublee = dublee;
  me.hasShown = true;
  me.seesMaal = sees;
}

/** D-5: the first show draws the tiplu from the stock; later shows only see it. */
async function revealTiplu(rules, state) {
  if (state.tiplu !== null) return;
  if (!state.stock.length) {
    // Rare: the stock ran dry within this turn.  Refill it first (D-6), then pick.
    await refill(state);
    if (state.phase === OVER) return;
  }
  const pos = await state.randomness.tipluPosition(state.stock.length);
  state.tiplu = state.stock[pos];
  state.stock.splice(pos, 1);
  state.tipluUnderStock = !rules.tipluOutOfPlay;
}

async function finish(rules, state, me, move) {
  if (state.phase !== PLAY) throw illegal("a finish comes after drawing", "D-7");
  if (!me.hasShown) throw illegal("only a player who has shown may finish", rules.rule("D-7", "MC-20"));
  if (state.taken !== null && move.discard === state.taken) {
    throw illegal(`${cardText(move.discard)} was just taken from the discards and may not be discarded this turn`,
      "MC-14");
  }
  checkFinish(move.groups, move.discard, me.hand,
    { tiplu: me.seesMaal ? state.tiplu : null, ruleset: rules.ruleset, dublee: me.dublee });
  me.hand = removeCards(me.hand, [move.discard]); // checkFinish found it in the hand
  state.discards.push(move.discard);
  state.phase = OVER;
  state.winner = move.seat;
  state.finish = { groups: move.groups.map((g) => [...g]), discard: move.discard, dublee: me.dublee };
  state.turns += 1;
  state.taken = state.drawn = null;
  state.autoTurn = state.mustFinish = state.shownThisTurn = false;
}

async function discard(rules, state, me, move) {
  if (state.phase !== PLAY) throw illegal("draw before discarding", "MC-14");
  if (state.mustFinish) throw illegal("a dublee player who took a discard must finish with it", "MC-19");
  const card = move.card;
  if (state.taken !== null && card === state.taken) {
    throw illegal(`${cardText(card)} was just taken from the discards and may not be discarded this turn`, "MC-14");
  }
  const hand = removeCards(me.hand, [card]);
  if (hand === null) throw illegal(`seat ${move.seat} does not hold ${cardText(card)}`, "MC-14");
  const next = leftOf(move.seat, state.nSeats, rules.direction); // D-4
  me.hand = hand;
  if (state.shownThisTurn) me.seesMaal = true; // MN-17: seen after the discard that follows the show
  state.discards.push(card);
  state.taken = state.drawn = null;
  state.shownThisTurn = state.autoTurn = false;
  state.turns += 1;
  state.phase = DRAW;
  state.turnSeat = next;
  // the end of the turn
  if (state.turns >= rules.turnCap) {
    state.phase = OVER; // D-10
    state.voidReason = VOID_TURN_CAP;
  } else if (!state.stock.length) {
    await refill(state);
  }
}

/** D-6 / MC-24: all discards but the latest, shuffled from the stream, become the stock. */
async function refill(state) {
  const old = state.discards.slice(0, -1);
  const latest = state.discards.slice(-1);
  if (!old.length) {
    state.phase = OVER; // D-10
    state.voidReason = VOID_STOCK;
    return;
  }
  const k = state.reshuffles + 1;
  state.stock = [...await state.randomness.reshuffle(k, old)];
  state.discards = latest;
  state.reshuffles = k;
}
