/**
 * Rulesets as data (D-1), as replay/rulesets.py: a preset's defaults with a table's
 * overrides applied and validated.  The resolved ruleset's canonical JSON hash is bound
 * into the hand's key material, so a deal recomputed under other rules comes out different.
 *
 * The preset declarations come from presets.mjs, generated from replay/<game>/presets/*.json by
 * tools/build_offline_verifier.py (a test checks that it is current).
 */
import { VerifyError } from "./errors.mjs";
import { canonicalHash, canonicalText } from "./canonical.mjs";
import { PRESET_SPECS } from "./presets.mjs";

export const RULESET_FORMAT = "tiplu.ruleset/1";
export const PRESETS = Object.freeze(Object.keys(PRESET_SPECS));

/** The declaration of a preset (title, game, settings with default/rule/doc). */
export function presetSpec(preset) {
  if (typeof preset !== "string" || !Object.hasOwn(PRESET_SPECS, preset)) {
    const name = typeof preset === "string" ? JSON.stringify(preset.slice(0, 40)) : String(preset);
    throw new VerifyError("ruleset", `unknown preset ${name}; known: ${PRESETS.join(", ")}`);
  }
  return PRESET_SPECS[preset];
}

function isPlainObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function jsonType(v) {
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "float";
  if (typeof v === "string") return "string";
  if (Array.isArray(v)) return "array";
  if (isPlainObject(v)) return "object";
  return v === null ? "null" : typeof v;
}

function checkValue(name, spec, value) {
  const def = spec.default;
  if (jsonType(value) !== jsonType(def)) {
    throw new VerifyError("ruleset", `setting '${name}' must be a JSON ${jsonType(def)}, got ${jsonType(value)}`);
  }
  if (spec.choices && !spec.choices.some((c) => canonicalText(c) === canonicalText(value))) {
    throw new VerifyError("ruleset", `setting '${name}' must be one of ${JSON.stringify(spec.choices)}, got ${JSON.stringify(value)}`);
  }
  if ("min" in spec && value < spec.min) throw new VerifyError("ruleset", `setting '${name}' must be at least ${spec.min}, got ${value}`);
  if ("max" in spec && value > spec.max) throw new VerifyError("ruleset", `setting '${name}' must be at most ${spec.max}, got ${value}`);
  checkShape(name, def, value);
  canonicalText(value); // no floats, no lone surrogates
  if (!safeIntegers(value)) {
    throw new VerifyError("ruleset", `setting '${name}': integers must lie within +-(2**53 - 1) (JavaScript reads them exactly)`);
  }
}

/**
 * A nested setting has its default's shape: the same keys in every object, and array
 * elements of the default's first element's shape (replay/rulesets.py _check_shape), so an
 * engine never meets a missing key or a number where it reads a list.
 */
function checkShape(name, def, value, path = "") {
  const where = `setting '${name}'` + (path ? ` at ${path}` : "");
  if (jsonType(value) !== jsonType(def)) {
    throw new VerifyError("ruleset", `${where} must be a JSON ${jsonType(def)}, got ${jsonType(value)}`);
  }
  if (isPlainObject(def)) {
    const a = Object.keys(value).sort().join("\n");
    const b = Object.keys(def).sort().join("\n");
    if (a !== b) throw new VerifyError("ruleset", `${where} must have exactly the keys ${JSON.stringify(Object.keys(def).sort())}`);
    for (const k of Object.keys(def)) checkShape(name, def[k], value[k], `${path}.${k}`);
  } else if (Array.isArray(def) && def.length) {
    value.forEach((v, i) => checkShape(name, def[0], v, `${path}[${i}]`));
  }
}

/** Every integer in the value within +-(2**53 - 1) (replay/rulesets.py _safe_integers). */
function safeIntegers(value) {
  if (typeof value === "number") return Number.isSafeInteger(value);
  if (Array.isArray(value)) return value.every(safeIntegers);
  if (isPlainObject(value)) return Object.values(value).every(safeIntegers);
  return true;
}

function deepFreeze(v) {
  if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) deepFreeze(v[k]);
    Object.freeze(v);
  }
  return v;
}

/**
 * A resolved ruleset: {preset, game, settings, hash, json}.  `json` is the record form
 * {format, preset, game, settings} and `hash` the hex SHA-256 of its canonical JSON.
 */
export class Ruleset {
  constructor(preset, game, settings, hash) {
    this.preset = preset;
    this.game = game;
    this.settings = settings;
    this.hash = hash;
    Object.freeze(this);
  }

  get(name) {
    if (!Object.hasOwn(this.settings, name)) throw new VerifyError("ruleset", `ruleset has no setting '${name}'`);
    return this.settings[name];
  }

  get json() {
    return { format: RULESET_FORMAT, preset: this.preset, game: this.game, settings: JSON.parse(JSON.stringify(this.settings)) };
  }
}

/** The preset's defaults with `overrides` applied and validated (a Promise of a Ruleset). */
export async function resolve(preset, overrides = {}) {
  const spec = presetSpec(preset);
  if (overrides === null || overrides === undefined) overrides = {};
  if (!isPlainObject(overrides)) throw new VerifyError("ruleset", "settings overrides must be a JSON object");
  const settings = {};
  for (const [name, s] of Object.entries(spec.settings)) settings[name] = s.default;
  for (const [name, value] of Object.entries(overrides)) {
    if (!Object.hasOwn(settings, name)) throw new VerifyError("ruleset", `preset '${preset}' has no setting '${name}'`);
    checkValue(name, spec.settings[name], value);
    settings[name] = value;
  }
  const frozen = deepFreeze(JSON.parse(JSON.stringify(settings)));
  const json = { format: RULESET_FORMAT, preset, game: spec.game, settings: frozen };
  return new Ruleset(preset, spec.game, frozen, await canonicalHash(json));
}

/** Validate a resolved ruleset as found in a hand record (a Promise of a Ruleset). */
export async function rulesetFromJson(data) {
  if (!isPlainObject(data) || data.format !== RULESET_FORMAT) {
    throw new VerifyError("ruleset", `a ruleset must be an object with format '${RULESET_FORMAT}'`);
  }
  const spec = presetSpec(data.preset);
  if (data.game !== spec.game) {
    throw new VerifyError("ruleset", `preset '${data.preset}' is game '${spec.game}', not ${JSON.stringify(data.game)}`);
  }
  const settings = data.settings;
  const want = Object.keys(spec.settings).sort().join("\n");
  if (!isPlainObject(settings) || Object.keys(settings).sort().join("\n") !== want) {
    throw new VerifyError("ruleset", `a ruleset must give every setting of '${data.preset}' and no other`);
  }
  return resolve(data.preset, settings);
}

/** The table sizes a ruleset allows (ascending). */
export function allowedPlayers(ruleset) {
  const p = ruleset.get("players");
  if ("allowed" in p) return [...p.allowed].sort((a, b) => a - b);
  const out = [];
  for (let n = p.min; n <= p.max; n++) out.push(n);
  return out;
}
