/**
 * The outcome of a finished Marriage round, as replay/marriage/outcome.py: each player's
 * maal (countMaal, MN-29, D-8), the net points (streamlined through the winner, MC-31, or
 * D-10 when void) and the detail -- equal as JSON to Python's Outcome.to_json().
 */
import { cardText } from "../../cards.mjs";
import { ReplayError } from "../errors.mjs";
import { countMaal, itemJson } from "./maal.mjs";
import { netsStreamlined, voidNets } from "./payments.mjs";
import { tableCards } from "./state.mjs";

const texts = (cards) => cards.map(cardText);

/** {points, net_points, winner, breakdown, pot_delta_points, detail} of a round that is over. */
export function roundOutcome(state, ruleset) {
  const counts = state.seats.map((s) => countMaal({
    hand: s.hand, table: tableCards(s), tunnelasAtDeal: s.tunnelasAtDeal, tiplu: state.tiplu, seen: s.hasShown,
    ruleset,
  }));
  const scores = counts.map((m) => m.points);
  const seen = state.seats.map((s) => s.hasShown);
  const nets = state.winner !== null
    ? netsStreamlined(scores, { winner: state.winner, seen, dubleeFinish: state.finish.dublee, ruleset })
    : voidNets(scores);
  if (![...scores, ...nets].every(Number.isSafeInteger)) {
    // a table's overridden values beyond 2**53: Python counts them exactly, then refuses to
    // settle them (replay/settlement.py settles points up to 10**12); here they are refused
    // before a rounded number is shown
    throw new ReplayError("malformed", "the hand's points cannot be counted exactly here (beyond 2**53)");
  }
  const breakdown = state.seats.map((s, i) => ({
    maal: counts[i].items.map(itemJson), points: counts[i].points, seen: s.hasShown, dublee: s.dublee,
    tunnelas_at_deal: s.tunnelasAtDeal.map(texts), shown: s.shown.map(texts), hand: texts(s.hand),
  }));
  const detail = {
    tiplu: state.tiplu === null ? null : cardText(state.tiplu), turns: state.turns, reshuffles: state.reshuffles,
    void_reason: state.voidReason, dealer: state.dealer,
  };
  if (state.finish !== null) {
    detail.finish = { groups: state.finish.groups.map(texts), discard: cardText(state.finish.discard),
      dublee: state.finish.dublee };
  }
  return { points: scores, net_points: nets, winner: state.winner, breakdown, pot_delta_points: 0, detail };
}
