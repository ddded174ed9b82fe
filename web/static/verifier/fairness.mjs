/**
 * The v1 fair-shuffle protocol in the browser, as replay/fairness.py: commitments, key
 * material, the shoe, the deal and the labelled sub-streams.
 *
 *   commitServerSeed(seed)            hex SHA-256(server_seed)
 *   commitPlayerSeed(hand, seat, s)   hex SHA-256(enc("tiplu/v1/seat") || enc(hand_id)
 *                                     || u32(seat) || enc(seed))
 *   verifyServerSeed / verifyPlayerSeed  return nothing or throw
 *                                     VerifyError("commitment_mismatch")
 *   HandRandomness                    everything random in one hand: the shoe (label
 *                                     "deal"), and the sub-streams of D-3: "tiplu" (the
 *                                     tiplu pick, D-5), "reshuffle:k" (D-6, D-20) and
 *                                     "redeal:k" (K-21), k = 1, 2 ...
 *
 * Seeds are bytes (Uint8Array); parseServerSeed / parsePlayerSeed read them from hex.
 * Nothing here creates a seed.
 */
import { VerifyError } from "./errors.mjs";
import { concatBytes, enc, equalStrings, fromHex, sha256, toHex, u32, utf8 } from "./bytes.mjs";
import { SEAT_TAG, Stream, hmacKey, keyMaterial } from "./stream.mjs";
import { canonicalShoe } from "./shoes.mjs";
import { deal } from "./deal.mjs";

export const SERVER_SEED_BYTES = 32;
export const PLAYER_SEED_MIN = 16;
export const PLAYER_SEED_MAX = 64;
export const LABEL_DEAL = "deal";
export const LABEL_TIPLU = "tiplu";

/** A server seed from hex: exactly 32 bytes. */
export function parseServerSeed(text) {
  return fromHex(text, { what: "server seed", size: SERVER_SEED_BYTES });
}

/** A player seed from hex: 16 to 64 bytes. */
export function parsePlayerSeed(text) {
  return fromHex(text, { what: "player seed", minSize: PLAYER_SEED_MIN, maxSize: PLAYER_SEED_MAX });
}

/** A SHA-256 digest (a commitment, a ruleset hash) from hex: 32 bytes. */
export function parseDigest(text, what = "commitment") {
  return fromHex(text, { what, size: 32 });
}

/** The public commitment to a server seed: hex SHA-256(server_seed). */
export async function commitServerSeed(serverSeed) {
  return toHex(await sha256(serverSeed));
}

/** Throw VerifyError("commitment_mismatch") unless the seed hashes to the commitment. */
export async function verifyServerSeed(serverSeed, commitment) {
  if (!equalStrings(await commitServerSeed(serverSeed), String(commitment).toLowerCase())) {
    throw new VerifyError("commitment_mismatch", "the revealed server seed does not match its commitment");
  }
}

/** A seat's seed commitment, bound to the hand id and the seat number. */
export async function commitPlayerSeed(handId, seat, seed) {
  const msg = concatBytes(enc(SEAT_TAG), enc(utf8(handId, "hand id")), u32(seat), enc(seed));
  return toHex(await sha256(msg));
}

/** Throw VerifyError("commitment_mismatch") unless the seat's seed matches its commitment. */
export async function verifyPlayerSeed(handId, seat, seed, commitment) {
  if (!equalStrings(await commitPlayerSeed(handId, seat, seed), String(commitment).toLowerCase())) {
    throw new VerifyError("commitment_mismatch", `seat ${seat}'s revealed seed does not match its commitment`);
  }
}

/** All the randomness of one hand; build it with HandRandomness.create (async). */
export class HandRandomness {
  constructor(serverSeed, handId, ruleset, playerSeeds, material, key) {
    this.serverSeed = serverSeed;
    this.handId = handId;
    this.ruleset = ruleset;
    this.playerSeeds = playerSeeds;
    this.material = material;
    this.key = key;
    Object.freeze(this);
  }

  /**
   * @param {Uint8Array} serverSeed 32 bytes
   * @param {string} handId
   * @param {Ruleset} ruleset a resolved ruleset (rulesets.mjs)
   * @param {Uint8Array[]} playerSeeds in seat order, one per seat
   */
  static async create(serverSeed, handId, ruleset, playerSeeds) {
    if (!(serverSeed instanceof Uint8Array) || serverSeed.length !== SERVER_SEED_BYTES) {
      throw new VerifyError("malformed", `server seed must be ${SERVER_SEED_BYTES} bytes`);
    }
    if (!Array.isArray(playerSeeds) || playerSeeds.length === 0) {
      throw new VerifyError("malformed", "a hand needs at least one player seed");
    }
    if (typeof handId !== "string") throw new VerifyError("malformed", "the hand id must be a string");
    const seeds = playerSeeds.map((s) => Uint8Array.from(s));
    const material = await keyMaterial(handId, fromHex(ruleset.hash, { what: "ruleset hash", size: 32 }), seeds);
    return new HandRandomness(Uint8Array.from(serverSeed), handId, ruleset, Object.freeze(seeds), material,
      await hmacKey(serverSeed));
  }

  get nSeats() {
    return this.playerSeeds.length;
  }

  /** A fresh reader of the stream labelled `label`. */
  stream(label) {
    return new Stream(this.key, this.material, label);
  }

  /** The shuffled shoe (card codes): Fisher-Yates of the canonical shoe over the stream. */
  async shoe(label = LABEL_DEAL) {
    return this.stream(label).shuffle(canonicalShoe(this.ruleset, this.nSeats));
  }

  /** The shuffled shoe dealt as the game deals it (see deal.mjs). */
  async deal(dealer) {
    return deal(this.ruleset, await this.shoe(), this.nSeats, dealer);
  }

  /** D-5: the stock position (0 = top) of the tiplu, uniform over the stock. */
  async tipluPosition(stockSize) {
    return this.stream(LABEL_TIPLU).randbelow(stockSize);
  }

  /** D-6 / D-20: the k-th reshuffle (k = 1, 2 ...) of `cards` (listed oldest first). */
  async reshuffle(k, cards) {
    if (!Number.isInteger(k) || k < 1) throw new VerifyError("malformed", "reshuffles are numbered from 1");
    return this.stream(`reshuffle:${k}`).shuffle(cards);
  }

  /** K-21: the shoe of the k-th redeal (k = 1, 2 ...). */
  async redeal(k) {
    if (!Number.isInteger(k) || k < 1) throw new VerifyError("malformed", "redeals are numbered from 1");
    return this.shoe(`redeal:${k}`);
  }
}
