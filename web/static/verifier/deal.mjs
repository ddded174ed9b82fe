/**
 * Who sits where, and how a shuffled shoe becomes hands, a turned-up card and a stock;
 * exactly as replay/deal.py.
 *
 * Seats are 0 .. n-1.  Clockwise (D-4): seat i+1 is on seat i's left.  Dealing starts
 * with the player on the dealer's left (the dealer's right when a Marriage table plays
 * anticlockwise, MC-33) and gives one card at a time round the table until every hand is
 * full (MN-2, MC-13, K-1, R-4).  Position 0 of the shuffled shoe is its top.  Then, as the
 * game's deal layout says (gamedata.mjs, generated from replay.game.DealLayout): the
 * wild-card indicator if it has one, set aside face up and never drawn (Rummy, R-5); the
 * card turned up to start the discard or open pile if it has one (Marriage MN-3, MC-13;
 * Rummy D-19); the rest is the stock, top first (MN-4; Rummy's closed pile; Kitti's
 * undealt cards, never used).
 */
import { VerifyError } from "./errors.mjs";
import { cardText } from "./cards.mjs";
import { GAME_DATA } from "./gamedata.mjs";

/** The next seat in the direction of play. */
export function leftOf(seat, nSeats, direction = "clockwise") {
  return direction === "clockwise" ? (seat + 1) % nSeats : (seat - 1 + nSeats) % nSeats;
}

/** Seats in the order they receive cards: the dealer's left first, the dealer last. */
export function seatOrder(dealer, nSeats, direction = "clockwise") {
  if (!Number.isInteger(dealer) || dealer < 0 || dealer >= nSeats) {
    throw new VerifyError("ruleset", `dealer seat ${dealer} is not at a table of ${nSeats}`);
  }
  const order = [];
  let seat = dealer;
  for (let i = 0; i < nSeats; i++) {
    seat = leftOf(seat, nSeats, direction);
    order.push(seat);
  }
  return order;
}

/** Deal one card at a time: {hands (by seat), next (the next shoe position)}. */
export function dealHands(shoe, nSeats, dealer, handSize, direction = "clockwise") {
  const order = seatOrder(dealer, nSeats, direction);
  if (handSize * nSeats > shoe.length) {
    throw new VerifyError("ruleset", `a shoe of ${shoe.length} cannot deal ${handSize} to ${nSeats} seats`);
  }
  const hands = Array.from({ length: nSeats }, () => []);
  let pos = 0;
  for (let r = 0; r < handSize; r++) {
    for (const seat of order) hands[seat].push(shoe[pos++]);
  }
  return { hands, next: pos };
}

/**
 * A shuffled shoe dealt the way the ruleset's game deals it:
 * {hands: code[][], turnedUp: code|null, indicator: code|null, stock: code[]}.
 */
export function deal(ruleset, shoe, nSeats, dealer) {
  const direction = Object.hasOwn(ruleset.settings, "direction") ? ruleset.settings.direction : "clockwise";
  const { hands, next } = dealHands(shoe, nSeats, dealer, ruleset.get("hand_size"), direction);
  const layout = Object.hasOwn(GAME_DATA, ruleset.game) ? GAME_DATA[ruleset.game].deal_layout : undefined;
  if (layout === undefined) throw new VerifyError("ruleset", `no deal layout for game '${ruleset.game}'`);
  const need = Number(layout.indicator) + Number(layout.turned_up);
  if (next + need > shoe.length) throw new VerifyError("ruleset", `a shoe of ${shoe.length} leaves no card to turn up`);
  let pos = next;
  const indicator = layout.indicator ? shoe[pos++] : null;
  const turnedUp = layout.turned_up ? shoe[pos++] : null;
  return { hands, turnedUp, indicator, stock: shoe.slice(pos) };
}

/** A deal in the record form of replay.deal.Deal.to_json: card texts, null when absent. */
export function dealToJson(d) {
  return {
    hands: d.hands.map((h) => h.map(cardText)),
    turned_up: d.turnedUp === null ? null : cardText(d.turnedUp),
    indicator: d.indicator === null ? null : cardText(d.indicator),
    stock: d.stock.map(cardText),
  };
}
