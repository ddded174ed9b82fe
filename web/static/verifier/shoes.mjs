/**
 * The canonical shoe of each preset, as replay/shoes.py: the card order the v1 shuffle
 * starts from.  Deck 1 then deck 2 ...; within a deck codes 0..51 (suits S H D C, ranks
 * A..K); then every printed joker (JK), then every master card (MC).
 *
 *   marriage/nepal    2-5 seats  3 decks + 3 putali + 1 master card = 160   MN-1
 *   marriage/classic  2-5 seats  3 decks = 156                              MC-1
 *   kitti             2-5 seats  1 deck = 52                                D-12
 *   rummy13           2-6 seats  2 decks + 2 printed jokers = 106           D-18
 *   rummy13           7-8 seats  3 decks + 3 printed jokers = 159           D-18
 *
 * The counts come from the ruleset (settings "shoe" or "shoe_by_players"), never from code.
 */
import { VerifyError } from "./errors.mjs";
import { JOKER_CODE, MASTER_CODE, STANDARD } from "./cards.mjs";
import { allowedPlayers } from "./rulesets.mjs";

/** A shoe in canonical order (an array of card codes). */
export function buildShoe(decks, jokers = 0, masters = 0) {
  const shoe = [];
  for (let d = 0; d < decks; d++) shoe.push(...STANDARD);
  for (let j = 0; j < jokers; j++) shoe.push(JOKER_CODE);
  for (let m = 0; m < masters; m++) shoe.push(MASTER_CODE);
  return shoe;
}

/** {decks, jokers, masters} for this ruleset at this table size. */
export function shoeSpec(ruleset, nSeats) {
  const allowed = allowedPlayers(ruleset);
  if (!allowed.includes(nSeats)) {
    throw new VerifyError("ruleset", `${ruleset.preset} is played by ${allowed.join(", ")} players, not ${nSeats}`);
  }
  if (Object.hasOwn(ruleset.settings, "shoe")) {
    const s = ruleset.settings.shoe;
    return { decks: s.decks, jokers: s.jokers, masters: s.masters };
  }
  for (const entry of ruleset.get("shoe_by_players")) {
    if (nSeats <= entry.max_players) return { decks: entry.decks, jokers: entry.jokers, masters: entry.masters };
  }
  throw new VerifyError("ruleset", `${ruleset.preset} has no shoe for ${nSeats} players`);
}

/** The canonical (unshuffled) shoe for this ruleset and table size. */
export function canonicalShoe(ruleset, nSeats) {
  const { decks, jokers, masters } = shoeSpec(ruleset, nSeats);
  return buildShoe(decks, jokers, masters);
}
