/**
 * The in-browser verifier of one hand: everything it needs is the inputs; it
 * trusts nothing else from the server.
 *
 *   verifyHand(input)          -> Promise of a report {ok, complete, checks, shoe, deal, ...}
 *   handInputFromRecord(json)  -> the verifyHand input found in a pasted JSON object
 *
 * The input: {preset | ruleset, overrides?, ruleset_hash?, hand_id, n_seats?, dealer,
 * server_seed, player_seeds, server_commitment?, player_commitments?} with seeds and
 * commitments in lower-case hex and player seeds in seat order; optionally a claimed
 * deal to compare against: {shoe?, hands?, turned_up?, indicator?, stock?} (card texts).
 *
 * Input that cannot be read throws a VerifyError (code "malformed", "ruleset", "card",
 * "no_webcrypto").  A mismatch does not throw: it is a failed check in the report.
 */
import { VerifyError } from "./errors.mjs";
import { cardText, parseCard } from "./cards.mjs";
import { canonicalText } from "./canonical.mjs";
import { resolve, rulesetFromJson } from "./rulesets.mjs";
import { canonicalShoe } from "./shoes.mjs";
import { deal, dealToJson, seatOrder } from "./deal.mjs";
import {
  HandRandomness, commitPlayerSeed, commitServerSeed, parseDigest, parsePlayerSeed,
  parseServerSeed, verifyPlayerSeed, verifyServerSeed,
} from "./fairness.mjs";
import { toHex } from "./bytes.mjs";

export { VerifyError } from "./errors.mjs";

/** The input fields verifyHand reads, and where handInputFromRecord looks for them. */
export const INPUT_FIELDS = Object.freeze([
  "preset", "ruleset", "overrides", "ruleset_hash", "hand_id", "n_seats", "dealer",
  "server_seed", "player_seeds", "server_commitment", "player_commitments",
  "shoe", "hands", "turned_up", "indicator", "stock",
]);
export const RECORD_PLACES = Object.freeze(["", "fairness", "table", "commitments", "deal", "expect"]);

function isPlainObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * The verifyHand input held by a JSON object: each field is taken from the first place
 * that has it -- the top level, then "fairness", "table", "commitments", "deal" and
 * "expect" (the known-answer vectors keep their commitments and deal there).  A hand
 * record's fairness.seat_commitments are its player_commitments.
 */
export function handInputFromRecord(record) {
  if (!isPlainObject(record)) throw new VerifyError("malformed", "a hand record must be a JSON object");
  const input = {};
  for (const place of RECORD_PLACES) {
    const src = place === "" ? record : record[place];
    if (!isPlainObject(src)) continue;
    for (const f of INPUT_FIELDS) {
      if (!(f in input) && Object.hasOwn(src, f) && src[f] !== null && src[f] !== undefined) input[f] = src[f];
    }
  }
  // a hand record (docs/records.md) names the seats' commitments fairness.seat_commitments
  const seatCommitments = isPlainObject(record.fairness) ? record.fairness.seat_commitments : undefined;
  if (!("player_commitments" in input) && Array.isArray(seatCommitments)) input.player_commitments = seatCommitments;
  if (typeof input.ruleset === "string" && !("preset" in input)) {
    input.preset = input.ruleset;
    delete input.ruleset;
  }
  return input;
}

function need(input, name, type) {
  const v = input[name];
  const ok = type === "integer" ? Number.isInteger(v) : type === "array" ? Array.isArray(v) : typeof v === type;
  if (!ok) throw new VerifyError("malformed", `${name} is missing or not ${type === "integer" ? "an" : "a"} ${type}`, { location: name });
  return v;
}

async function rulesetOf(input) {
  if (input.ruleset !== undefined && input.ruleset !== null) {
    const rs = await rulesetFromJson(input.ruleset);
    if (input.preset !== undefined && input.preset !== rs.preset) {
      throw new VerifyError("ruleset", `the ruleset is preset '${rs.preset}', not ${JSON.stringify(input.preset)}`);
    }
    if (input.overrides !== undefined) throw new VerifyError("ruleset", "give a resolved ruleset or overrides, not both");
    return rs;
  }
  if (input.preset === undefined) throw new VerifyError("malformed", "a preset or a ruleset is needed", { location: "preset" });
  return resolve(input.preset, input.overrides ?? {});
}

function check(name, title, ok, detail) {
  return { name, title, ok, detail };
}

function sameCards(claimed, actual) {
  return canonicalText(claimed) === canonicalText(actual);
}

function firstDifference(claimed, actual) {
  if (!Array.isArray(claimed)) return "not a list of cards";
  for (let i = 0; i < Math.max(claimed.length, actual.length); i++) {
    if (claimed[i] !== actual[i]) return `card ${i + 1}: record says ${claimed[i] ?? "nothing"}, the deal gives ${actual[i] ?? "nothing"}`;
  }
  return "differs";
}

/**
 * Recompute and check one hand.  Resolves to
 * {ok, complete, checks: [{name, title, ok (true | false | null = not checked), detail}],
 *  preset, game, ruleset (record form), ruleset_hash, hand_id, n_seats, dealer, direction,
 *  seat_order, material (hex), server_commitment, player_commitments (as computed),
 *  shoe (card texts, top first), deal: {hands, turned_up, indicator, stock}}.
 * `ok` is false when any check failed; `complete` is true when the ruleset hash, the
 * server seed and every player seed were checked against their commitments.
 */
export async function verifyHand(input) {
  if (!isPlainObject(input)) throw new VerifyError("malformed", "verifyHand needs an object");
  const handId = need(input, "hand_id", "string");
  const dealer = need(input, "dealer", "integer");
  const seedTexts = need(input, "player_seeds", "array");
  const serverSeed = parseServerSeed(need(input, "server_seed", "string"));
  const seeds = seedTexts.map((s, i) => {
    try {
      return parsePlayerSeed(s);
    } catch (e) {
      throw new VerifyError(e.code ?? "malformed", `seat ${i}: ${e.message}`, { location: "player_seeds" });
    }
  });
  if (seeds.length === 0) throw new VerifyError("malformed", "a hand needs at least one player seed", { location: "player_seeds" });
  if (input.n_seats !== undefined && input.n_seats !== seeds.length) {
    throw new VerifyError("malformed", `n_seats is ${input.n_seats} but ${seeds.length} player seeds were given`, { location: "n_seats" });
  }
  const n = seeds.length;
  const rs = await rulesetOf(input);
  const canonical = canonicalShoe(rs, n); // throws for a table size the ruleset does not allow
  const direction = Object.hasOwn(rs.settings, "direction") ? rs.settings.direction : "clockwise";
  const order = seatOrder(dealer, n, direction);

  // The seed commitments do not cover the rules: the committed ruleset hash does (D-1).
  // Without it, other rules would give another deal from the very same seeds.
  const checks = [];
  const rsTitle = "Ruleset matches its committed hash";
  if (input.ruleset_hash !== undefined) {
    parseDigest(input.ruleset_hash, "ruleset hash");
    const same = input.ruleset_hash === rs.hash;
    checks.push(check("ruleset_hash", rsTitle, same,
      same ? `the resolved ruleset hashes to ${rs.hash}` : `committed ${input.ruleset_hash}, the resolved ruleset hashes to ${rs.hash}`));
  } else {
    checks.push(check("ruleset_hash", rsTitle, null, `no ruleset hash given; the resolved ruleset hashes to ${rs.hash}`));
  }

  const serverCommitment = await commitServerSeed(serverSeed);
  if (input.server_commitment !== undefined) {
    parseDigest(input.server_commitment, "server commitment");
    try {
      await verifyServerSeed(serverSeed, input.server_commitment);
      checks.push(check("server_commitment", "Server seed matches its commitment", true, `SHA-256(server seed) = ${serverCommitment}`));
    } catch (e) {
      if (!(e instanceof VerifyError)) throw e;
      checks.push(check("server_commitment", "Server seed matches its commitment", false,
        `${e.message}: SHA-256(server seed) = ${serverCommitment}, committed ${input.server_commitment}`));
    }
  } else {
    checks.push(check("server_commitment", "Server seed matches its commitment", null,
      `no commitment given; SHA-256(server seed) = ${serverCommitment}`));
  }

  const playerCommitments = [];
  const given = input.player_commitments;
  if (given !== undefined && (!Array.isArray(given) || given.length !== n)) {
    throw new VerifyError("malformed", `player_commitments must list one commitment per seat (${n})`, { location: "player_commitments" });
  }
  for (let seat = 0; seat < n; seat++) {
    const mine = await commitPlayerSeed(handId, seat, seeds[seat]);
    playerCommitments.push(mine);
    const name = `player_commitment:${seat}`;
    const title = `Seat ${seat}'s seed matches its commitment`;
    if (given === undefined || given[seat] === null) {
      checks.push(check(name, title, null, `no commitment given; computed ${mine}`));
      continue;
    }
    parseDigest(given[seat], `seat ${seat}'s commitment`);
    try {
      await verifyPlayerSeed(handId, seat, seeds[seat], given[seat]);
      checks.push(check(name, title, true, `computed ${mine}`));
    } catch (e) {
      if (!(e instanceof VerifyError)) throw e;
      checks.push(check(name, title, false, `${e.message}: computed ${mine}, committed ${given[seat]}`));
    }
  }

  const hr = await HandRandomness.create(serverSeed, handId, rs, seeds);
  const shoeCodes = await hr.shoe();
  const sortedA = [...shoeCodes].sort((a, b) => a - b).join(",");
  const sortedB = [...canonical].sort((a, b) => a - b).join(",");
  checks.push(check("shoe", "The shuffled shoe is the whole canonical shoe", sortedA === sortedB,
    `${shoeCodes.length} cards shuffled with the hand's "deal" stream`));
  const dealt = deal(rs, shoeCodes, n, dealer);
  const dealJson = dealToJson(dealt);
  const shoe = shoeCodes.map(cardText);

  const claimed = ["shoe", "hands", "turned_up", "indicator", "stock"].filter((f) => input[f] !== undefined);
  for (const f of claimed) {
    const actual = f === "shoe" ? shoe : dealJson[f];
    if (f === "hands") {
      if (!Array.isArray(input.hands) || input.hands.length !== n) {
        checks.push(check("claimed:hands", "Dealt hands match the record", false, `the record lists ${Array.isArray(input.hands) ? input.hands.length : "no"} hands for ${n} seats`));
        continue;
      }
      input.hands.forEach((h, seat) => {
        const same = sameCards(h, actual[seat]);
        checks.push(check(`claimed:hands:${seat}`, `Seat ${seat}'s hand matches the record`, same,
          same ? `${actual[seat].length} cards` : firstDifference(h, actual[seat])));
      });
      continue;
    }
    if (Array.isArray(input[f])) input[f].forEach((t) => parseCard(t));
    const same = sameCards(input[f], actual);
    const title = { shoe: "Shoe", turned_up: "Turned-up card", indicator: "Wild-card indicator", stock: "Stock" }[f] + " matches the record";
    const detail = Array.isArray(actual)
      ? (same ? `${actual.length} cards` : firstDifference(input[f], actual))
      : `record ${JSON.stringify(input[f])}, deal ${JSON.stringify(actual)}`;
    checks.push(check(`claimed:${f}`, title, same, detail));
  }

  const ok = checks.every((c) => c.ok !== false);
  const complete = checks.filter((c) => c.name === "ruleset_hash" || c.name === "server_commitment" ||
    c.name.startsWith("player_commitment:")).every((c) => c.ok === true);
  return {
    ok,
    complete,
    checks,
    preset: rs.preset,
    game: rs.game,
    ruleset: rs.json,
    ruleset_hash: rs.hash,
    hand_id: handId,
    n_seats: n,
    dealer,
    direction,
    seat_order: order,
    material: toHex(hr.material),
    server_commitment: serverCommitment,
    player_commitments: playerCommitments,
    shoe,
    deal: dealJson,
  };
}
