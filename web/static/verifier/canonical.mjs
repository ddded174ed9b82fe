/**
 * Canonical JSON, byte for byte as replay/canonical.py:
 * UTF-8; object keys sorted by Unicode code point; no white space (separators "," and
 * ":"); non-ASCII characters written as themselves; strings escaped as JSON.stringify
 * and Python's json.dumps(ensure_ascii=False) both do (\" \\ \b \f \n \r \t, other
 * control characters as \u00xx); integers only -- no floats anywhere.
 *
 * Two JavaScript traps are handled: Array.prototype.sort compares UTF-16 code units,
 * which orders "\uFF5E" after "\u{1F600}" where Python (code points) puts it before; and a
 * lone surrogate, which has no UTF-8 form (Python refuses it, so do we).  A value parsed
 * from JSON text cannot tell 1.0 from 1: both are the integer 1 here.
 */
import { VerifyError } from "./errors.mjs";
import { isWellFormed, sha256, toHex, utf8 } from "./bytes.mjs";

/** Compare two strings by Unicode code point (the order Python's sorted() uses). */
export function compareCodePoints(a, b) {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return (x.done ? 0 : 1) - (y.done ? 0 : 1);
    const cx = x.value.codePointAt(0);
    const cy = y.value.codePointAt(0);
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

function text(value, path) {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isInteger(value)) {
        throw new VerifyError("malformed", "floats are not allowed in canonical JSON; use a decimal string", { location: path });
      }
      if (!Number.isSafeInteger(value)) {
        throw new VerifyError("malformed", "integers beyond 2**53 cannot be read exactly here", { location: path });
      }
      return String(value);
    case "string":
      if (!isWellFormed(value)) throw new VerifyError("malformed", "a string holds a lone surrogate", { location: path });
      return JSON.stringify(value);
    case "object":
      if (Array.isArray(value)) return "[" + value.map((v, i) => text(v, `${path}[${i}]`)).join(",") + "]";
      if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) {
        const keys = Object.keys(value).sort(compareCodePoints);
        return "{" + keys.map((k) => {
          if (!isWellFormed(k)) throw new VerifyError("malformed", "a key holds a lone surrogate", { location: path });
          return JSON.stringify(k) + ":" + text(value[k], `${path}.${k}`);
        }).join(",") + "}";
      }
      break;
    default:
      break;
  }
  throw new VerifyError("malformed", `not a JSON value: ${typeof value}`, { location: path });
}

/** The canonical JSON text of a value (a string; canonicalJson gives its UTF-8 bytes). */
export function canonicalText(value) {
  return text(value, "$");
}

/** The canonical bytes of a JSON value. */
export function canonicalJson(value) {
  return utf8(canonicalText(value));
}

/** Lower-case hex SHA-256 of canonicalJson(value) (a Promise). */
export async function canonicalHash(value) {
  return toHex(await sha256(canonicalJson(value)));
}
