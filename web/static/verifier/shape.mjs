/**
 * A record's shape, checked in the browser as the Python audit checks it (audit/schema.py):
 * against the record's JSON Schema, generated from the record model (replay/record_model.py)
 * into ./recordschema.mjs by tools/build_offline_verifier.py -- one definition, read here too.
 *
 *   shapeFault(value, schema = RECORD_SCHEMA, at = "$", {required = true}) -> null, or {message,
 *                        location} for the first violation found ($.table.public_key); with
 *                        required: false, a missing field is none (a value there is wrong or
 *                        not: what a partial record is judged by); only the keywords the generated
 *                        schema uses (type, enum, pattern, minLength/maxLength in code points,
 *                        minItems/maxItems, minimum, required, properties, items), with
 *                        JSON Schema's meaning
 *   checkShape(value)  -> throws VerifyError("malformed") with that location
 */
import { VerifyError } from "./errors.mjs";
import { RECORD_SCHEMA } from "./recordschema.mjs";

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const TYPES = {
  string: (v) => typeof v === "string",
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  null: (v) => v === null,
  object: isObject,
  array: Array.isArray,
};
const patterns = new Map();
const regex = (p) => { if (!patterns.has(p)) patterns.set(p, new RegExp(p)); return patterns.get(p); };
const key = (k) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);

export function shapeFault(value, schema = RECORD_SCHEMA, at = "$", options = {}) {
  const required = options.required ?? true;
  const bad = (message) => ({ message, location: at });
  if (schema.type !== undefined) {
    const kinds = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!kinds.some((t) => TYPES[t](value))) return bad(`${JSON.stringify(value)} is not of type ${kinds.join(" or ")}`);
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    return bad(`${JSON.stringify(value)} is not one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`);
  }
  if (typeof value === "string") {
    const n = [...value].length;
    if (schema.minLength !== undefined && n < schema.minLength) return bad(`is shorter than ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && n > schema.maxLength) return bad(`is longer than ${schema.maxLength} characters`);
    if (schema.pattern !== undefined && !regex(schema.pattern).test(value)) {
      const shown = JSON.stringify(n > 40 ? `${[...value].slice(0, 40).join("")}...` : value);
      return bad(schema.description ? `${shown} is not ${schema.description}` : `${shown} does not match ${schema.pattern}`);
    }
  }
  if (typeof value === "number" && schema.minimum !== undefined && value < schema.minimum) {
    return bad(`${value} is less than the minimum of ${schema.minimum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return bad(`should have at least ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return bad(`should have at most ${schema.maxItems} items`);
    if (schema.items !== undefined) {
      for (const [i, v] of value.entries()) {
        const f = shapeFault(v, schema.items, `${at}[${i}]`, options);
        if (f) return f;
      }
    }
  }
  if (isObject(value)) {
    for (const name of required ? schema.required ?? [] : []) {
      if (!Object.hasOwn(value, name)) return bad(`${JSON.stringify(name)} is a required property`);
    }
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      if (Object.hasOwn(value, name)) {
        const f = shapeFault(value[name], sub, `${at}${key(name)}`, options);
        if (f) return f;
      }
    }
  }
  return null;
}

/** Throws VerifyError("malformed") at the first violation of the record's schema (module doc). */
export function checkShape(value) {
  const f = shapeFault(value);
  if (f) throw new VerifyError("malformed", f.message, { location: f.location });
}
