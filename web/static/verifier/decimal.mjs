/**
 * Exact decimal money in the browser, as replay/settlement.py: no floats anywhere.  An amount
 * is a BigInt count of hundredths (cents of an HT, or hundredths of a percent).
 *
 *   parseAmount(text, {what, allowNegative}) -> BigInt hundredths
 *                                    a decimal string with at most two places ("0.25", "5"),
 *                                    as settlement.parse_amount; throws VerifyError("malformed")
 *   parsePointValue(text), parseCommissionPct(text) -> BigInt hundredths: a table's money by its
 *                                    one rule (replay/settlement.py; docs/records.md, "Table money"):
 *                                    a point value more than 0, a commission at least 0 and below 100
 *   checkPointValue(h), checkCommissionPct(h) -> h, or throws VerifyError("malformed")
 *   formatAmount(hundredths)        -> "-1.50" (settlement.format_amount of a 2-place amount)
 *   claimedAmount(value)            -> {m, e} exact value of a claimed amount (as Decimal(str(x))
 *                                    for a string or an integer), or null when it is none
 *   sameAmount(claimed, hundredths) -> whether a claimed amount equals an exact one
 *   settle(netPoints, {pointValue, commissionPct, potDeltaPoints}) -> {gross, nets, commission, pot_delta}
 *                                    (BigInt hundredths), as settlement.settle (D-2): gross =
 *                                    points x point value; each winner's fee is gross x pct / 100
 *                                    rounded half up to 0.01; the nets, the commission and the
 *                                    pot change sum to zero
 */
import { VerifyError } from "./errors.mjs";

// the one amount spelling: replay.settlement.AMOUNT_PATTERN, character for character (tests/js/test_js_audit.py)
export const AMOUNT = /^-?[0-9]{1,15}(\.[0-9]{1,2})?$/;
export const MAX_POINTS = 10n ** 12n;

export function parseAmount(text, { what = "amount", allowNegative = false } = {}) {
  if (Number.isInteger(text)) text = String(text);
  if (typeof text !== "string") throw new VerifyError("malformed", `${what} must be a decimal string such as "0.25"`);
  if (!AMOUNT.test(text)) {
    if (/^-?[0-9]+\.[0-9]{3,}$/.test(text)) throw new VerifyError("malformed", `${what} has more than two decimal places`);
    throw new VerifyError("malformed", `${what} must be a decimal string such as "0.25" (at most 15 digits before the point)`);
  }
  const negative = text.startsWith("-");
  if (negative && !allowNegative) throw new VerifyError("malformed", `${what} must not be negative (or carry a sign)`);
  const [whole, frac = ""] = text.replace("-", "").split(".");
  const value = (negative ? -1n : 1n) * (BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0")));
  if (negative && value === 0n) throw new VerifyError("malformed", `${what} must not be a negative zero`);
  return value;
}

/** A table's point value (hundredths) if more than 0 (D-2), as settlement.check_point_value. */
export function checkPointValue(hundredths) {
  if (hundredths <= 0n) throw new VerifyError("malformed", "point_value must be more than 0");
  return hundredths;
}

/** A table's commission (hundredths of a percent) if at least 0 and below 100 (D-2, R-2), as settlement.check_commission_pct. */
export function checkCommissionPct(hundredths) {
  if (hundredths < 0n || hundredths >= 10000n) throw new VerifyError("malformed", "commission_pct must be at least 0 and less than 100");
  return hundredths;
}

export const parsePointValue = (text) => checkPointValue(parseAmount(text, { what: "point_value" }));
export const parseCommissionPct = (text) => checkCommissionPct(parseAmount(text, { what: "commission_pct" }));

export function formatAmount(hundredths) {
  const neg = hundredths < 0n;
  const a = neg ? -hundredths : hundredths;
  return `${neg ? "-" : ""}${a / 100n}.${String(a % 100n).padStart(2, "0")}`;
}

// Python's Decimal(str(x)) reads a sign, digits, a point, an exponent and blanks around them
const LOOSE = /^\s*([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?\s*$/;

/** The exact value {m: BigInt, e: exponent} of a claimed amount, or null (not a string or integer, or no number). */
export function claimedAmount(value) {
  if (typeof value === "boolean") return null;
  if (Number.isInteger(value)) return { m: BigInt(value), e: 0 };
  if (typeof value !== "string") return null;
  const m = LOOSE.exec(value);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return null;
  const digits = `${m[2]}${m[3] ?? ""}` || "0";
  return { m: (m[1] === "-" ? -1n : 1n) * BigInt(digits), e: Number(m[4] ?? 0) - (m[3] ?? "").length };
}

/** Whether the claimed amount (a JSON value) is exactly `hundredths` / 100. */
export function sameAmount(claimed, hundredths) {
  const c = claimedAmount(claimed);
  if (c === null) return false;
  // compare c.m * 10^c.e with hundredths * 10^-2
  const shift = c.e + 2;
  if (Math.abs(shift) > 4000) return c.m === 0n && hundredths === 0n;
  return shift >= 0 ? c.m * 10n ** BigInt(shift) === hundredths : c.m === hundredths * 10n ** BigInt(-shift);
}

function points(p) {
  if (typeof p === "bigint") return p;
  if (!Number.isSafeInteger(p)) throw new VerifyError("malformed", `a seat's points must be a number of at most ${MAX_POINTS} in size`);
  return BigInt(p);
}

/** D-2 settlement in hundredths (module doc); throws VerifyError("malformed") like settle's MalformedError. */
export function settle(netPoints, { pointValue, commissionPct, potDeltaPoints = 0 }) {
  const nets0 = netPoints.map(points);
  const pot = points(potDeltaPoints);
  for (const p of [...nets0, pot]) {
    if (p > MAX_POINTS || p < -MAX_POINTS) throw new VerifyError("malformed", `a seat's points must be a number of at most ${MAX_POINTS} in size`);
  }
  if (nets0.reduce((a, b) => a + b, 0n) + pot !== 0n) {
    throw new VerifyError("malformed", `net points [${nets0.join(", ")}] with pot change ${pot} do not sum to zero`);
  }
  checkPointValue(pointValue);
  checkCommissionPct(commissionPct);
  const gross = nets0.map((p) => p * pointValue); // cents
  // fee = round_half_up(gross * pct / 100, 0.01): in cents, gross_c * pct_h / 10000, half up (gross > 0)
  const fees = gross.map((g) => (g > 0n ? (2n * g * commissionPct + 10000n) / 20000n : 0n));
  const nets = gross.map((g, i) => g - fees[i]);
  const commission = fees.reduce((a, b) => a + b, 0n);
  const potDelta = pot * pointValue;
  if (nets.reduce((a, b) => a + b, 0n) + commission + potDelta !== 0n) throw new Error("settlement does not sum to zero");
  return { gross, nets, commission, pot_delta: potDelta };
}
