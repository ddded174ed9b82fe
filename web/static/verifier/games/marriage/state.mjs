/**
 * The state of a Marriage round, as replay/marriage/state.py's RoundState (its docstring
 * has the words): a plain object the engine copies for every move, never changing the old
 * one.
 *
 *   nSeats, dealer, turnSeat
 *   seats[i]      {hand (codes, sorted), tunnelasAtDeal [[c,c,c]], shown [[...]], dublee,
 *                  hasShown (the "seen" mark, MN-17), seesMaal (knows the tiplu), hasDrawn (MN-18)}
 *   stock         top first; the tiplu is never in it (MN-15; classic: under it, MC-15, MC-24)
 *   discards      oldest first; only the latest may be taken (MC-14)
 *   phase         "draw" | "play" | "over"
 *   tiplu         code | null; tipluUnderStock (classic)
 *   taken, drawn  this turn's card taken from the discards / drawn (MC-14)
 *   autoTurn, shownThisTurn, mustFinish (MC-19)
 *   turns (completed turns), reshuffles (D-6), winner, finish {groups, discard, dublee},
 *   voidReason ("stock" D-6 | "turn_cap" D-10), moves (applied), randomness
 */
export const DRAW = "draw";
export const PLAY = "play";
export const OVER = "over";
export const VOID_STOCK = "stock";        // D-6: even a reshuffle leaves no card to draw
export const VOID_TURN_CAP = "turn_cap";  // D-10: the table's turn cap was reached

const byCode = (a, b) => a - b;

/** A seat right after the deal: its hand sorted by code. */
export function dealtSeat(hand) {
  return {
    hand: [...hand].sort(byCode), tunnelasAtDeal: [], shown: [], dublee: false, hasShown: false,
    seesMaal: false, hasDrawn: false,
  };
}

/** The round right after the deal. */
export function dealtRound({ nSeats, dealer, hands, stock, turnedUp, turnSeat, randomness }) {
  return {
    nSeats, dealer, seats: hands.map(dealtSeat), stock: [...stock], discards: [turnedUp], turnSeat,
    phase: DRAW, tiplu: null, tipluUnderStock: false, taken: null, drawn: null, autoTurn: false,
    shownThisTurn: false, mustFinish: false, turns: 0, reshuffles: 0, winner: null, finish: null,
    voidReason: null, moves: 0, randomness,
  };
}

/** A copy of `state` a move may change (its lists copied; laid groups are never changed). */
export function copyRound(state) {
  return {
    ...state,
    seats: state.seats.map((s) => ({ ...s, hand: [...s.hand] })),
    stock: [...state.stock],
    discards: [...state.discards],
  };
}

/** Every card a seat has laid on the table (tunnelas at the deal included). */
export function tableCards(seat) {
  return [...seat.tunnelasAtDeal.flat(), ...seat.shown.flat()];
}

/** `hand` (sorted) less `cards` as multisets, sorted, or null if the hand lacks one of them. */
export function removeCards(hand, cards) {
  const rest = [...hand];
  for (const c of cards) {
    const i = rest.indexOf(c);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}

/** `hand` (sorted) with `card` put in its place. */
export function insertCard(hand, card) {
  let i = 0;
  while (i < hand.length && hand[i] <= card) i++;
  return [...hand.slice(0, i), card, ...hand.slice(i)];
}
