/**
 * Marriage's settlement terms worked out (MC-28..MC-31, D-9, D-10), as
 * replay/marriage/worked.py's work_points: each opponent i of the winner pays the winner
 * T + w_i - n*S_i (MC-31) -- T the sum of all scores, n the seats, S_i its score, w_i = 3 if
 * it saw the tiplu, 10 if not, + 5 when the winner finished on dublees (MC-28, MC-29, D-9)
 * -- beside the pairwise payments of the basic method (MC-30) that must come to the same
 * net.  A void round (D-10): n*S - T.  The JSON is Python's key for key, its sums' text
 * character for character.
 */
import { ReplayError } from "../errors.mjs";
import { pairwiseNets, seenPayment, streamlined, voidNets } from "./payments.mjs";

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** The worked point terms of a Marriage outcome (Outcome JSON) under `ruleset`. */
export function workPoints(outcome, ruleset) {
  const scores = [...outcome.points];
  const n = scores.length;
  const total = sum(scores);
  const winner = outcome.winner;
  const seen = outcome.breakdown.map((b) => Boolean(b.seen));
  const dublee = Boolean((outcome.detail.finish || {}).dublee);
  const base = { method: "MC-31", n, T: total, S: scores, winner, seen, dublee_finish: dublee,
    T_sum: `${scores.join(" + ")} = ${total}` };
  if (winner === null) {
    const nets = voidNets(scores);
    const rows = scores.map((s, i) => ({ seat: i, S: s, net_points: nets[i],
      sum: `n·S − T = ${n}·${s} − ${total} = ${nets[i]}` }));
    return { ...base, method: "D-10", rows, net_points: nets };
  }
  const options = { winner, seen, dubleeFinish: dublee, ruleset };
  const pay = streamlined(scores, options);
  const pairwise = pairwiseNets(scores, options);
  const nets = pay.map((p, i) => (i === winner ? sum(pay) : -p));
  const wOf = seen.map((hasSeen) => seenPayment(hasSeen, dublee, ruleset));
  const others = (i) => scores.map((_, j) => j).filter((j) => j !== i);
  const rows = scores.map((s, i) => {
    const row = { seat: i, S: s, net_points: nets[i], pairwise_net: pairwise[i],
      pairwise: others(i).map((j) => ({ to: j, points: scores[j] - s })) };
    if (i === winner) {
      row.pairwise.push(...others(i).map((j) => ({ to: j, points: -wOf[j], w: true })));
      row.receives = sum(pay);
      row.sum = `receives ${pay.filter((_, k) => k !== winner).join(" + ")} = ${sum(pay)}`;
    } else {
      const w = wOf[i];
      Object.assign(row, { w, w_seen: seen[i] ? ruleset.get("seen_points") : ruleset.get("unseen_points"),
        w_dublee: dublee ? ruleset.get("dublee_bonus") : 0, pays_winner: pay[i],
        sum: `T + w − n·S = ${total} + ${w} − ${n}·${s} = ${pay[i]}` });
      row.pairwise.push({ to: winner, points: w, w: true });
    }
    return row;
  });
  if (pairwise.some((x, i) => x !== nets[i])) { // MC-31: the streamlined nets are the basic method's
    throw new ReplayError("malformed", `streamlined nets ${nets} differ from the pairwise ones ${pairwise}`);
  }
  return { ...base, rows, net_points: nets };
}
