/**
 * Counting maal, the points a player's cards are worth at the end of a round: the port of
 * replay/marriage/maal.py (its docstring has the items and who scores what).
 *
 * Counted: the hand plus every card the player laid (MN-29).  Items, valued by the ruleset's
 * maal_table: multiples of one role (MN-23..MN-26, MN-30, MC-25), the marriage -- tiplu,
 * poplu and jhiplu together (MN-27, MC-25, MC-26) -- and a tunnela laid at the deal, once its
 * owner has seen (MN-19, MN-22, MN-31, MC-13, MC-27).  nepal: a player who has not seen
 * scores only putali and master (MN-28, MN-34); classic: only a player who has seen scores
 * (MC-25, MC-27).  Each card counts for one item; the assignment is the one worth most to
 * the holder (MC-26, D-8), found exactly: every choice of tunnela items and number of
 * marriages, each remaining kind split into its best groups (bestGroups).
 *
 * countMaal returns {points, items: [{item, cards: [code], points}]}, items in the order
 * Python lists them (tunnelas and marriages first, then by role, name and card codes).
 */
import { cardText } from "../../cards.mjs";
import { ReplayError } from "../errors.mjs";
import { isNepal, jhipluRank, jokerTable, popluRank, roleTable } from "./jokers.mjs";
import { cardOf, rankOf, suitOf } from "./melds.mjs";

const ROLE_ORDER = Object.freeze({
  tiplu: 0, poplu: 1, jhiplu: 2, alter: 3, man: 4, ordinary_joker: 5, putali: 6, master: 7, none: 8,
});
const malformed = (reason) => new ReplayError("malformed", reason);

/** Lexicographic comparison of two arrays of numbers (Python's tuple order). */
function compareTuples(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * The best split of `count` identical cards into groups scored values[k-1] for k cards:
 * [points, group sizes (largest first)].  A card may stay out of every item; ties go to
 * the larger groups (maal.best_groups).
 */
export function bestGroups(values, count) {
  const best = [[0, []]];
  for (let c = 1; c <= count; c++) {
    let top = best[c - 1];
    for (let k = 1; k <= Math.min(c, values.length); k++) {
      const [pts, sizes] = best[c - k];
      const option = [pts + values[k - 1], [...sizes, k].sort((x, y) => y - x)];
      if (option[0] > top[0] || (option[0] === top[0] && compareTuples(option[1], top[1]) > 0)) top = option;
    }
    best.push(top);
  }
  return best[count];
}

const itemName = (base, k) => (k === 1 ? base : `${base} x${k}`);

/** The listing order of an item (maal._sort_key). */
function sortKey(item, roles) {
  const first = item.item.startsWith("marriage") || item.item.startsWith("putali tunnela")
    || item.item.startsWith("tunnela");
  return [first ? 0 : 1, ROLE_ORDER[roles[item.cards[0]]], item.item, item.cards];
}

function compareKeys(a, b) {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[1] !== b[1]) return a[1] - b[1];
  if (a[2] !== b[2]) return a[2] < b[2] ? -1 : 1;
  return compareTuples(a[3], b[3]);
}

/** What one ruleset's shoe and maal table say: the copies of each code, the values. */
class Rules {
  constructor(ruleset) {
    const shoe = ruleset.get("shoe");
    this.ruleset = ruleset;
    this.nepal = isNepal(ruleset);
    this.decks = shoe.decks;
    this.jokers = shoe.jokers;
    this.masters = shoe.masters;
    this.limits = [...new Array(52).fill(shoe.decks), shoe.jokers, shoe.masters];
    this.tableValues = ruleset.get("maal_table");
    this.marriageValues = [...this.tableValues.marriage];
    this.scorers = new Map();
  }

  scorer(known) {
    let scorer = this.scorers.get(known);
    if (scorer === undefined) {
      scorer = new Scorer(this, known);
      this.scorers.set(known, scorer);
    }
    return scorer;
  }
}

/** What scores under one tiplu as a player knows it (null: putali and master only). */
class Scorer {
  constructor(rules, known) {
    const ruleset = rules.ruleset;
    const roles = this.roles = roleTable(known, ruleset);
    const scoring = jokerTable(known, ruleset);
    this.codes = [];
    for (let code = 0; code < 54; code++) if (scoring[code]) this.codes.push(code);
    this.missing = new Map();
    this.values = new Map();
    this.best = new Map();
    this.items = new Map();
    for (const code of this.codes) {
      const role = roles[code];
      if (!Object.hasOwn(rules.tableValues, role)) {
        this.missing.set(code, role);
        continue;
      }
      const values = [...rules.tableValues[role]];
      this.values.set(code, values);
      const splits = [];
      for (let n = 0; n <= rules.limits[code]; n++) splits.push(bestGroups(values, n));
      this.best.set(code, splits.map(([pts]) => pts));
      this.items.set(code, splits.map(([, sizes]) => keyed(
        sizes.map((k) => ({ item: itemName(role, k), cards: new Array(k).fill(code), points: values[k - 1] })), roles)));
    }
    this.trio = null;
    this.marriageBest = [0];
    this.marriageItems = [[]];
    if (known !== null && known < 52) {
      const trio = this.trio = marriageCodes(known);
      const values = rules.marriageValues;
      const splits = [];
      for (let m = 0; m <= Math.min(...trio.map((c) => rules.limits[c])); m++) splits.push(bestGroups(values, m));
      this.marriageBest = splits.map(([pts], m) => (m ? pts : 0));
      this.marriageItems = splits.map(([, sizes], m) => (m === 0 ? [] : keyed(
        sizes.map((k) => ({ item: itemName("marriage", k), cards: [].concat(...new Array(k).fill(trio)),
          points: values[k - 1] })), roles)));
    }
  }
}

/** Items with their sort keys, those worth nothing left out. */
function keyed(items, roles) {
  return items.filter((i) => i.points).map((i) => [sortKey(i, roles), i]);
}

/** The codes of the tiplu, the poplu and the jhiplu of a standard tiplu (MN-27, MC-25). */
function marriageCodes(tiplu) {
  const rank = rankOf(tiplu);
  const suit = suitOf(tiplu);
  return [tiplu, cardOf(popluRank(rank), suit), cardOf(jhipluRank(rank), suit)];
}

const RULES = new Map();

function rulesOf(ruleset) {
  let rules = RULES.get(ruleset.hash);
  if (rules === undefined) {
    if (RULES.size >= 64) RULES.clear();
    rules = new Rules(ruleset);
    RULES.set(ruleset.hash, rules);
  }
  return rules;
}

/** Counts by card code of the counted cards, and the codes of the tunnelas at the deal. */
function poolOf(hand, table, tunnelas, rules) {
  const pool = new Array(54).fill(0);
  for (const c of hand) pool[c] += 1;
  for (const c of table) pool[c] += 1;
  const tunnelaCodes = [];
  if (tunnelas.length) {
    const onTable = new Array(54).fill(0);
    for (const c of table) onTable[c] += 1;
    for (const t of tunnelas) {
      if (t.length !== 3 || !(t[0] === t[1] && t[1] === t[2]) || t[0] === 53) {
        throw malformed(`a tunnela laid at the deal is three identical cards, not ${t.map(cardText).join(" ")}`);
      }
      const code = t[0];
      if (tunnelaCodes.includes(code)) throw malformed(`tunnela ${cardText(code)} listed twice`);
      tunnelaCodes.push(code);
      if (pool[code] === 0) pool[code] = 3;
      else if (onTable[code] < 3) throw malformed(`tunnela ${cardText(code)} laid at the deal but not all three on the table`);
    }
  }
  const code = pool.findIndex((n, c) => n > rules.limits[c]);
  if (code >= 0) throw malformed(`${pool[code]} copies of ${cardText(code)}, but the shoe holds ${rules.limits[code]}`);
  return [pool, [...tunnelaCodes].sort((a, b) => a - b)];
}

const NOTHING = Object.freeze({ points: 0, items: Object.freeze([]) });

/**
 * A player's maal over hand plus table (MN-29), the best assignment for the holder (D-8).
 * `table`: every card laid (tunnelas at the deal included); `tiplu`: the round's tiplu
 * code, null if nobody showed; `seen`: whether this player saw it.
 */
export function countMaal({ hand, table = [], tunnelasAtDeal = [], tiplu, seen, ruleset }) {
  const rules = rulesOf(ruleset);
  const [pool, tunnelaCodes] = poolOf(hand, table, tunnelasAtDeal, rules);
  const nepal = rules.nepal;
  if (!seen && !nepal) return NOTHING; // classic: only a player who has seen scores (MC-25, MC-27)
  const known = seen ? tiplu : null; // unseen nepal: putali and master only (MN-34, MN-28)
  if (tiplu !== null) {
    const copies = rules.limits[tiplu];
    if (pool[tiplu] > copies - 1) throw malformed(`at most ${copies - 1} copies of the tiplu ${cardText(tiplu)} can be held`);
  }
  const scorer = rules.scorer(known);
  const held = scorer.codes.filter((code) => pool[code]);
  if (!held.length && !tunnelaCodes.length) return NOTHING;
  for (const code of held) {
    if (scorer.missing.has(code)) throw malformed(`${ruleset.preset} has no ${scorer.missing.get(code)} in its maal table`);
  }
  const { best, trio } = scorer;
  const inTrio = (code) => trio !== null && trio.includes(code);
  const maxMarriages = trio !== null ? Math.min(...trio.map((c) => pool[c])) : 0;
  if (!tunnelaCodes.length || known === null) { // no tunnela item competes for cards: the usual case
    let mBest = 0;
    let totalBest = null;
    for (let m = 0; m <= maxMarriages; m++) {
      let total = scorer.marriageBest[m];
      for (const code of held) total += best.get(code)[m && inTrio(code) ? pool[code] - m : pool[code]];
      if (totalBest === null || total > totalBest) {
        totalBest = total;
        mBest = m;
      }
    }
    return listMaal(scorer, held, [], mBest, pool, totalBest);
  }
  // Candidate items that compete for cards: tunnelas at the deal, marriages.
  const { roles } = scorer;
  const tableValues = rules.tableValues;
  const tunnelaItems = [];
  for (const code of tunnelaCodes) { // seen (MN-22, MC-27), whatever card the tiplu is
    const role = roles[code];
    if (nepal) {
      if (role === "putali") {
        tunnelaItems.push([code, tableValues.putali_tunnela_at_deal, "putali tunnela at deal"]);
      } else {
        const own = role !== "none" ? bestGroups(scorer.values.get(code), 3)[0] : 0;
        tunnelaItems.push([code, own + tableValues.tunnela_at_deal_bonus, "tunnela at deal"]);
      }
    } else {
      const key = role === "none" ? "ordinary" : role;
      if (Object.hasOwn(tableValues.tunnela_at_deal, key)) {
        tunnelaItems.push([code, tableValues.tunnela_at_deal[key], "tunnela at deal"]);
      }
    }
  }
  let bestPoints = null;
  let bestPlan = null;
  const n = tunnelaItems.length;
  for (let mask = 0; mask < 1 << n; mask++) {
    // itertools.product((False, True), repeat=n): the first item is the most significant bit
    const chosen = tunnelaItems.map((_, i) => Boolean(mask >> (n - 1 - i) & 1));
    const counts = [...pool];
    let base = 0;
    const taken = [];
    chosen.forEach((take, i) => {
      if (!take) return;
      const item = tunnelaItems[i];
      counts[item[0]] -= 3;
      base += item[1];
      taken.push(item);
    });
    for (let m = 0; m <= maxMarriages; m++) {
      if (m && trio.some((c) => counts[c] < m)) break;
      let total = base + scorer.marriageBest[m];
      for (const code of held) {
        const left = counts[code] - (m && inTrio(code) ? m : 0);
        if (left > 0) total += best.get(code)[left];
      }
      if (bestPoints === null || total > bestPoints) {
        bestPoints = total;
        bestPlan = [taken, m, counts];
      }
    }
  }
  const [taken, m, counts] = bestPlan;
  return listMaal(scorer, held, taken, m, counts, bestPoints);
}

/** The maal of one plan: the tunnela items taken, m marriages, the best split of the rest. */
function listMaal(scorer, held, taken, m, counts, points) {
  let items = keyed(taken.map(([code, value, name]) => ({ item: name, cards: [code, code, code], points: value })),
    scorer.roles);
  if (m) items = items.concat(scorer.marriageItems[m]);
  for (const code of held) {
    const left = counts[code] - (m && scorer.trio !== null && scorer.trio.includes(code) ? m : 0);
    if (left > 0) items = items.concat(scorer.items.get(code)[left]);
  }
  if (items.length > 1) items.sort((a, b) => compareKeys(a[0], b[0]));
  return { points: points || 0, items: items.map(([, i]) => i) };
}

/** An item as Python's Item.to_json: {item, cards (texts), points}. */
export function itemJson(item) {
  return { item: item.item, cards: item.cards.map(cardText), points: item.points };
}
