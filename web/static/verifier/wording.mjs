/**
 * How a failed check is named.  Every check's title says what holds when it passes
 * ("Seat 1's seed matches its commitment"); a failed check must never be listed under
 * those words, so failedTitle() turns the title into what was found instead
 * ("Seat 1's seed does NOT match its commitment").  A title that already says NOT is
 * kept; one no rule below knows is prefixed "Failed: ".
 */
const RULES = [
  [/ matches /, " does NOT match "],
  [/ match /, " do NOT match "],
  [/ is the whole /, " is NOT the whole "],
  [/ is in the log/, " is NOT in the log"],
  [/ were logged in /, " were NOT logged in "],
  [/ cosigned by /, " NOT cosigned by "],
  [/ signed by /, " NOT signed by "],
  [/ trusted$/, " NOT trusted"],
  [/ holds all /, " does NOT hold all "],
];

export function failedTitle(title) {
  const text = String(title);
  if (/\bNOT\b/.test(text)) return text; // already says what was found
  for (const [re, by] of RULES) {
    if (re.test(text)) return text.replace(re, by);
  }
  return `Failed: ${text}`;
}
