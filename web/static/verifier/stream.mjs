/**
 * The v1 random stream, byte for byte as replay/stream.py (docs/fairness.md specifies it):
 *
 *   enc(b)        4-byte big-endian length, then the bytes
 *   key material  SHA-256(enc("tiplu/v1/material") || enc(hand_id) || enc(ruleset_hash)
 *                 || u32(n_seats) || enc(seed_0) || ... || enc(seed_{n-1}))
 *   block i of the stream labelled L
 *                 HMAC-SHA256(key = server_seed,
 *                             enc("tiplu/v1/stream") || material || enc(L) || u64(i))
 *   the stream    the blocks concatenated, read as big-endian unsigned 32-bit words
 *   randbelow(n)  limit = 2**32 - (2**32 % n); read words until one is < limit; word % n
 *   shuffle(xs)   Fisher-Yates from the end: for i = len-1 .. 1, j = randbelow(i + 1),
 *                 swap xs[i] and xs[j]  (position 0 is the top)
 *
 * WebCrypto's HMAC is asynchronous, so a Stream fetches the blocks it is about to need
 * in one batch (all signed in parallel) instead of awaiting them one at a time
 * (bench/browser_verifier.py compares the two).  Which blocks are fetched ahead never
 * changes which words are read.
 */
import { VerifyError, subtle } from "./errors.mjs";
import { concatBytes, enc, sha256, u32, u64, utf8 } from "./bytes.mjs";

export const VERSION = "v1";
export const MATERIAL_TAG = utf8("tiplu/v1/material");
export const STREAM_TAG = utf8("tiplu/v1/stream");
export const SEAT_TAG = utf8("tiplu/v1/seat");
const TWO32 = 2 ** 32;
const WORDS_PER_BLOCK = 8;
const MAX_BATCH = 64;

/** The 32-byte combined key material of a hand (seeds in seat order); a Promise. */
export async function keyMaterial(handId, rulesetHash, playerSeeds) {
  const parts = [enc(MATERIAL_TAG), enc(utf8(handId, "hand id")), enc(rulesetHash), u32(playerSeeds.length)];
  for (const s of playerSeeds) parts.push(enc(s));
  return sha256(concatBytes(...parts));
}

/** The server seed as a WebCrypto HMAC-SHA256 key (a Promise of a CryptoKey). */
export function hmacKey(serverSeed) {
  return subtle().importKey("raw", serverSeed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** The labelled stream of one hand.  Deterministic; holds only its read position. */
export class Stream {
  /**
   * @param {CryptoKey} key the server seed imported by hmacKey
   * @param {Uint8Array} material the hand's key material
   * @param {string} label "deal", "tiplu", "reshuffle:1", "redeal:1" ...
   */
  constructor(key, material, label) {
    this.key = key;
    this.label = label;
    this.prefix = concatBytes(enc(STREAM_TAG), material, enc(utf8(label, "stream label")));
    this.words = [];      // words fetched so far, from block 0
    this.fetched = 0;     // blocks fetched so far
    this.pos = 0;         // the next word to read
  }

  /** Blocks whose words have been read (as blocks_used in Python). */
  get blocksUsed() {
    return Math.ceil(this.pos / WORDS_PER_BLOCK);
  }

  /** Block i of this stream, 32 bytes (does not move the read position). */
  async block(i) {
    const sig = await subtle().sign("HMAC", this.key, concatBytes(this.prefix, u64(i)));
    return new Uint8Array(sig);
  }

  /** Fetch the next `count` blocks (in parallel) and append their words. */
  async fetch(count) {
    const first = this.fetched;
    const blocks = await Promise.all(Array.from({ length: count }, (_, k) => this.block(first + k)));
    for (const b of blocks) {
      const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      for (let w = 0; w < WORDS_PER_BLOCK; w++) this.words.push(view.getUint32(4 * w, false));
    }
    this.fetched += count;
  }

  /** Make sure `n` more words can be read, fetching whole blocks. */
  async ensure(n) {
    const missing = this.pos + n - this.words.length;
    if (missing > 0) await this.fetch(Math.min(MAX_BATCH, Math.ceil(missing / WORDS_PER_BLOCK)));
  }

  /** The next 32-bit word of the stream. */
  async nextU32() {
    await this.ensure(1);
    return this.words[this.pos++];
  }

  /** An unbiased integer in [0, n) by rejection sampling. */
  async randbelow(n) {
    if (!Number.isInteger(n) || n < 1 || n > TWO32) {
      throw new VerifyError("malformed", `randbelow needs 1 <= n <= 2**32, got ${n}`);
    }
    const limit = TWO32 - (TWO32 % n);
    for (;;) {
      const word = await this.nextU32();
      if (word < limit) return word % n;
    }
  }

  /** A new array: Fisher-Yates over `items` (position 0 is the top). */
  async shuffle(items) {
    const out = Array.from(items);
    for (let i = out.length - 1; i > 0; i--) {
      const n = i + 1;
      const limit = TWO32 - (TWO32 % n);
      let word;
      do {
        // i swaps remain: fetch enough blocks for all of them at once (rejections are rare).
        if (this.pos >= this.words.length) await this.ensure(i);
        word = this.words[this.pos++];
      } while (word >= limit);
      const j = word % n;
      const t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }
}
