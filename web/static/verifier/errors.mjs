/**
 * The one error type of the in-browser verifier.
 *
 * Every failure the verifier raises on purpose is a `VerifyError` whose `code` says what
 * went wrong (the Python library's error classes in brackets):
 *
 *   "malformed"           input that does not parse: hex, a seed, a hand id   [MalformedError]
 *   "card"                a card's text is not a canonical spelling           [CardParseError]
 *   "ruleset"             unknown preset, bad setting, table size, dealer      [RulesetError]
 *   "commitment_mismatch" a revealed seed does not hash to its commitment      [CommitmentMismatchError]
 *   "ruleset_mismatch"    the resolved ruleset does not hash to the stated hash
 *   "deal_mismatch"       the recomputed deal differs from the one a record claims
 *   "no_webcrypto"        this page has no WebCrypto (crypto.subtle); open it over
 *                         https, from http://localhost, or from a file on disk
 *
 * Messages never echo a seed: it may be a secret.
 */
export const ERROR_CODES = Object.freeze([
  "malformed", "card", "ruleset", "commitment_mismatch", "ruleset_mismatch",
  "deal_mismatch", "no_webcrypto",
]);

export class VerifyError extends Error {
  /**
   * @param {string} code one of ERROR_CODES
   * @param {string} message a human sentence
   * @param {{location?: string}} [options] where in the input, when known
   */
  constructor(code, message, options = {}) {
    super(options.location ? `${options.location}: ${message}` : message);
    this.name = "VerifyError";
    this.code = code;
    this.location = options.location ?? null;
  }
}

/** WebCrypto's SubtleCrypto, or a VerifyError("no_webcrypto") that says why it is missing. */
export function subtle() {
  const c = globalThis.crypto;
  if (!c || !c.subtle) {
    throw new VerifyError("no_webcrypto",
      "this page has no WebCrypto (crypto.subtle): browsers offer it only to https pages, " +
      "http://localhost and files opened from disk");
  }
  return c.subtle;
}
