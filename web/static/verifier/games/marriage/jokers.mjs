/**
 * The role of each card once the tiplu is known, and which cards are jokers: the port of
 * replay/marriage/jokers.py (its docstring has the words, with tiplu ♥7 as the example).
 *
 *   tiplu (MN-23, MC-15)   the card drawn at the first show, and its other copies
 *   poplu / jhiplu         same suit, one rank up / down; ranks wrap K -> A (MN-24, MC-3)
 *   alter (nepal)          same rank, the other suit of the same colour (MN-25)
 *   man (nepal)            same rank, the suits of the other colour (MN-26)
 *   ordinary_joker         every other-suit card of the tiplu's rank (classic, MC-3)
 *   putali, master         the printed joker and the master card (MN-28)
 *
 * Every card with a role is a joker (MN-32, MN-26, MC-3).  With no tiplu (not drawn, or not
 * seen by the holder) only putali and master have roles.  A tiplu that is itself the putali
 * or the master card (nepal's stock holds them) names no rank or suit: no standard card gets
 * a role.  Cards are codes (cards.mjs).
 */
import { JOKER_CODE, MASTER_CODE } from "../../cards.mjs";
import { rankOf, suitOf } from "./melds.mjs";

export const ROLES = Object.freeze(["tiplu", "poplu", "jhiplu", "alter", "man", "ordinary_joker", "putali",
  "master", "none"]);

/** Whether the ruleset follows the Nepali table (alter/man, putali, master). */
export function isNepal(ruleset) {
  return ruleset.preset === "marriage/nepal";
}

/** One rank up, the King wrapping to the Ace (MN-24, MC-3). */
export const popluRank = (rank) => (rank % 13) + 1;
/** One rank down, the Ace wrapping to the King (MN-24, MC-3). */
export const jhipluRank = (rank) => ((rank - 2 + 13) % 13) + 1;

const isRedSuit = (suit) => suit === 1 || suit === 2;

function computeRole(code, tiplu, nepal) {
  if (code === JOKER_CODE) return "putali";
  if (code === MASTER_CODE) return "master";
  if (tiplu === null || tiplu >= 52) return "none";
  const tRank = rankOf(tiplu);
  const tSuit = suitOf(tiplu);
  const rank = rankOf(code);
  const suit = suitOf(code);
  if (suit === tSuit) {
    if (rank === tRank) return "tiplu";
    if (rank === popluRank(tRank)) return "poplu";
    if (rank === jhipluRank(tRank)) return "jhiplu";
    return "none";
  }
  if (rank !== tRank) return "none";
  if (!nepal) return "ordinary_joker";
  return isRedSuit(suit) === isRedSuit(tSuit) ? "alter" : "man";
}

const ROLE_TABLES = new Map();

/** The role of every card code (0..53) under `tiplu` (a code, or null: not drawn / not seen). */
export function roleTable(tiplu, ruleset) {
  const nepal = isNepal(ruleset);
  const key = `${tiplu}/${nepal}`;
  let table = ROLE_TABLES.get(key);
  if (table === undefined) {
    table = Object.freeze(Array.from({ length: 54 }, (_, code) => computeRole(code, tiplu, nepal)));
    ROLE_TABLES.set(key, table);
  }
  return table;
}

/** Whether each card code is a joker under `tiplu`: exactly "the card has a role". */
const JOKER_TABLES = new Map();

export function jokerTable(tiplu, ruleset) {
  const key = `${tiplu}/${isNepal(ruleset)}`;
  let table = JOKER_TABLES.get(key);
  if (table === undefined) {
    table = Object.freeze(roleTable(tiplu, ruleset).map((role) => role !== "none"));
    JOKER_TABLES.set(key, table);
  }
  return table;
}

/** Whether `code` may stand in for another card (MN-32, MN-26, MC-3, MN-28). */
export function isJoker(code, tiplu, ruleset) {
  return jokerTable(tiplu, ruleset)[code];
}
