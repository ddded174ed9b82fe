/**
 * Settling one Kitti deal in points (K-3, K-17 ... K-22, D-13 ... D-17), exactly as
 * replay/kitti/showdown.py.  Order of the checks:
 *
 * 1. stakes (K-1): every seat pays `stake` for every deal dealt in the hand (a K-21
 *    redeal makes everyone stake again, D-14);
 * 2. four of a kind (K-20, D-17) wins outright, the higher rank between two holders;
 * 3. four pairs (K-21, setting four_pairs_void): the deal is void, the pot stays;
 * 4. folds (K-2, K-5, D-15): one seat left takes the pot without showing;
 * 5. the show (K-17, K-18): round by round the strongest set wins, a tie among the
 *    strongest gives the round to nobody;
 * 6. the pot (D-13, setting win_rule): two round wins, or two consecutive; three round
 *    wins are a salami (every other seat still in pays salami_stakes x stake more); no
 *    winner leaves the pot, a kitti (D-14).
 * sum(net_points) + pot_delta == 0 always.
 */
import { countPairs, fourOfAKind } from "./arrangement.mjs";

export const ROUNDS = 3;

/** K-4: from the dealer's right (seat dealer - 1) going on to the right; the dealer speaks last. */
export function speakingOrder(dealer, nSeats) {
  const out = [];
  for (let k = 1; k <= nSeats; k++) out.push((((dealer - k) % nSeats) + nSeats) % nSeats);
  return out;
}

/** D-13: who meets the winning condition, or null. */
function potWinner(winRule, roundWinners) {
  if (winRule === "consecutive") {
    for (let i = 0; i + 1 < roundWinners.length; i++) {
      if (roundWinners[i] !== null && roundWinners[i] === roundWinners[i + 1]) return roundWinners[i];
    }
    return null;
  }
  for (const seat of roundWinners) {
    if (seat !== null && roundWinners.filter((w) => w === seat).length >= 2) return seat;
  }
  return null;
}

/**
 * The deal settled: {reason, winner, roundsWon, netPoints, potBefore, potAfter,
 * stakesPaid, salami, rounds, fourOfAKind, fourPairs}.  `arranged[i]`: seat i's checked
 * sets (codes) or null; `folded[i]`; `hands[i]`: its cards when K-20 / K-21 must be looked at.
 */
export function settleDeal(ruleset, ranker, { hands, arranged, folded, potBefore, dealer, deals }) {
  const n = arranged.length;
  const stake = ruleset.get("stake");
  const paid = new Array(n).fill(stake * deals);
  const pot = potBefore + paid.reduce((x, y) => x + y, 0);
  const zero = new Array(n).fill(0);
  const finish = (reason, winner, { roundsWon = zero, salami = zero, rounds = [], four = null, fourPairs = [] } = {}) => {
    const taken = winner !== null ? pot : 0;
    const nets = paid.map((p, i) => -p + salami[i] + (i === winner ? taken : 0));
    return { reason, winner, roundsWon, netPoints: nets, potBefore, potAfter: pot - taken, stakesPaid: paid,
      salami, rounds, fourOfAKind: four, fourPairs };
  };
  // K-20 / D-17: four of a kind wins at once (the higher rank, then the higher seat, as max() of (rank, seat))
  let quad = null;
  hands.forEach((h, i) => {
    const rank = h === null ? null : fourOfAKind(h);
    if (rank !== null && (quad === null || rank > quad.rank || (rank === quad.rank && i > quad.seat))) {
      quad = { seat: i, rank };
    }
  });
  if (quad !== null) return finish("four_of_a_kind", quad.seat, { four: quad });
  // K-21: four pairs void the deal when the table switches it on
  if (ruleset.get("four_pairs_void")) {
    const pairs = [];
    hands.forEach((h, i) => {
      if (h !== null && countPairs(h) >= 4) pairs.push(i);
    });
    if (pairs.length) return finish("void", null, { fourPairs: pairs });
  }
  const active = [];
  for (let i = 0; i < n; i++) if (!folded[i]) active.push(i);
  if (active.length === 1) return finish("uncontested", active[0]); // D-15
  if (active.length === 0) return finish("all_folded", null); // D-15, D-14
  const keys = new Array(n).fill(null);
  for (const i of active) keys[i] = arranged[i].map((s) => ranker.key(s[0], s[1], s[2]));
  const ring = speakingOrder(dealer, n).filter((s) => active.includes(s)); // K-17
  const won = new Array(n).fill(0);
  const roundWinners = [];
  const rounds = [];
  let first = ring[0]; // round 1 is shown in speaking order
  for (let r = 0; r < ROUNDS; r++) {
    const at = ring.indexOf(first);
    const shown = [...ring.slice(at), ...ring.slice(0, at)];
    const best = Math.max(...active.map((i) => keys[i][r]));
    const top = shown.filter((i) => keys[i][r] === best);
    const winner = top.length === 1 ? top[0] : null; // K-18: a tie counts for no one
    if (winner !== null) {
      won[winner] += 1;
      first = winner; // K-17: the round's winner shows first next round
    }
    roundWinners.push(winner);
    rounds.push({ round: r + 1, winner, tied: winner === null ? [...top].sort((x, y) => x - y) : [], show_order: shown });
  }
  const winner = potWinner(ruleset.get("win_rule"), roundWinners);
  const salami = new Array(n).fill(0);
  if (winner !== null && won[winner] === ROUNDS) { // D-13 salami
    const extra = ruleset.get("salami_stakes") * stake;
    for (const i of active) {
      if (i !== winner) {
        salami[i] -= extra;
        salami[winner] += extra;
      }
    }
  }
  return finish(winner !== null ? "rounds" : "kitti", winner, { roundsWon: won, salami, rounds });
}
