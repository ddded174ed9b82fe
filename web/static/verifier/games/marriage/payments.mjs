/**
 * From maal points to net points: the port of replay/marriage/payments.py (the nets a
 * replay reports; money is the driver's settlement).
 *
 *   w            what one opponent pays the winner on top of the maal differences:
 *                seen_points (3) if they have seen, unseen_points (10) if not, plus
 *                dublee_bonus (5) when the winner finished on dublees (MC-28, MC-29, D-9)
 *   streamlined  seat i pays the winner T + w_i - n*S_i (MC-31): T the sum of all maal
 *                scores, S_i seat i's, n the number of seats; the winner gains the sum
 *   void round   no winner, no seen payments: net_i = n*S_i - T (D-10)
 */
import { ReplayError } from "../errors.mjs";

function check(scores, winner, seen) {
  if (scores.length < 2) throw new ReplayError("malformed", `a settlement needs at least two seats, got ${scores.length}`);
  if (winner !== null && seen !== null && !seen[winner]) {
    throw new ReplayError("malformed", "the winner has shown, so has seen the tiplu");
  }
}

/** w: what one opponent pays the winner on top of the maal differences (D-9). */
export function seenPayment(hasSeen, dubleeFinish, ruleset) {
  const w = hasSeen ? ruleset.get("seen_points") : ruleset.get("unseen_points");
  return w + (dubleeFinish ? ruleset.get("dublee_bonus") : 0);
}

/** Each seat's payment TO the winner, T + w - n*S (MC-31); the winner's entry is 0. */
export function streamlined(scores, { winner, seen, dubleeFinish, ruleset }) {
  check(scores, winner, seen);
  const n = scores.length;
  const total = scores.reduce((a, b) => a + b, 0);
  return scores.map((s, i) => (i === winner ? 0 : total + seenPayment(seen[i], dubleeFinish, ruleset) - n * s));
}

/** Per-seat nets from streamlined: opponents lose what they pay, the winner gains it all. */
export function netsStreamlined(scores, options) {
  const pay = streamlined(scores, options);
  const sum = pay.reduce((a, b) => a + b, 0);
  return pay.map((p, i) => (i === options.winner ? sum : -p));
}

/** Nets of a void round (D-10): net_i = n*S_i - T. */
export function voidNets(scores) {
  check(scores, null, null);
  const n = scores.length;
  const total = scores.reduce((a, b) => a + b, 0);
  return scores.map((s) => n * s - total);
}

/**
 * Nets by the basic method (MC-30): each pair settles its maal difference, then each
 * opponent pays the winner w (MC-28, MC-29); winner null: a void round (D-10).  The same
 * nets as netsStreamlined / voidNets, computed the long way.
 */
export function pairwiseNets(scores, { winner, seen, dubleeFinish, ruleset }) {
  check(scores, winner, seen);
  const n = scores.length;
  const nets = new Array(n).fill(0);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const diff = scores[j] - scores[i]; // i pays j the difference (negative: j pays i)
      nets[i] -= diff;
      nets[j] += diff;
    }
  }
  if (winner !== null) {
    for (let i = 0; i < n; i++) {
      if (i === winner) continue;
      const w = seenPayment(seen[i], dubleeFinish, ruleset);
      nets[i] -= w;
      nets[winner] += w;
    }
  }
  return nets;
}
