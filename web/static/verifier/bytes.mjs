/**
 * Byte helpers: hex, UTF-8, concatenation, the length prefix `enc`, big-endian integers
 * and SHA-256 (WebCrypto).  The byte layouts follow replay/stream.py.
 */
import { VerifyError, subtle } from "./errors.mjs";

const HEX_DIGITS = "0123456789abcdef";
const UTF8 = new TextEncoder();

/** Lower-case hex of bytes. */
export function toHex(bytes) {
  let out = "";
  for (const b of bytes) out += HEX_DIGITS[b >> 4] + HEX_DIGITS[b & 15];
  return out;
}

/**
 * Bytes from lower-case hex with an even number of digits (as replay.fairness.parse_hex);
 * VerifyError("malformed") otherwise.  The message never echoes the value.
 */
export function fromHex(text, { what = "value", size = null, minSize = null, maxSize = null } = {}) {
  if (typeof text !== "string" || text.length % 2 !== 0 || !/^[0-9a-f]*$/.test(text)) {
    throw new VerifyError("malformed", `${what} must be lower-case hex with an even number of digits`);
  }
  const n = text.length / 2;
  if (size !== null && n !== size) {
    throw new VerifyError("malformed", `${what} must be exactly ${size} bytes (${2 * size} hex digits), got ${n}`);
  }
  if (minSize !== null && n < minSize) throw new VerifyError("malformed", `${what} must be at least ${minSize} bytes, got ${n}`);
  if (maxSize !== null && n > maxSize) throw new VerifyError("malformed", `${what} must be at most ${maxSize} bytes, got ${n}`);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = parseInt(text.substr(2 * i, 2), 16);
  return out;
}

/** True when a JS string is valid Unicode (no lone surrogate), so it has a UTF-8 form. */
export function isWellFormed(text) {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** The UTF-8 bytes of a string; VerifyError("malformed") for a lone surrogate. */
export function utf8(text, what = "text") {
  if (typeof text !== "string") throw new VerifyError("malformed", `${what} must be a string`);
  if (!isWellFormed(text)) throw new VerifyError("malformed", `${what} is not valid Unicode (a lone surrogate)`);
  return UTF8.encode(text);
}

/** One Uint8Array of several. */
export function concatBytes(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** 4-byte big-endian unsigned integer. */
export function u32(n) {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new VerifyError("malformed", `u32 out of range: ${n}`);
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, false);
  return out;
}

/** 8-byte big-endian unsigned integer (n below 2**53). */
export function u64(n) {
  if (!Number.isSafeInteger(n) || n < 0) throw new VerifyError("malformed", `u64 out of range: ${n}`);
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint32(0, Math.floor(n / 0x100000000), false);
  view.setUint32(4, n >>> 0, false);
  return out;
}

/** enc(b): 4-byte big-endian length, then the bytes (unambiguous concatenation). */
export function enc(bytes) {
  return concatBytes(u32(bytes.length), bytes);
}

/** SHA-256 of bytes (a Promise of a 32-byte Uint8Array). */
export async function sha256(bytes) {
  return new Uint8Array(await subtle().digest("SHA-256", bytes));
}

/** Compare two strings in full (no early exit), true when equal. */
export function equalStrings(a, b) {
  if (typeof a !== "string" || typeof b !== "string" || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
