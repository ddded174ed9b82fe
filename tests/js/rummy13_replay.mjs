// Replay Rummy hand records in the browser verifier (replay.mjs's replayRecord, strict, with
// the engine games/rummy13.mjs), for tests/js/test_js_rummy.py.  One JSON request a line on
// stdin, one answer a line on stdout:
//   {"record": <hand record>}  -> {moves_applied, fault: {kind, index, rule} | null, outcome, settlement}
//   {"solve": {cards, indicator, high?}} -> the solver's {points, case, groups, loose}
// `fault` is the first fault (strict mode stops there), `outcome` the engine's (as Python's
// Outcome.to_json()), `settlement` the payouts in decimal strings (as Settlement.to_json()).
import { createInterface } from "node:readline";
import { cardText, parseCard } from "../../web/static/verifier/cards.mjs";
import { parseRecord } from "../../web/static/verifier/record.mjs";
import { replayRecord, settlementJson } from "../../web/static/verifier/replay.mjs";
import { wildRankOf } from "../../web/static/verifier/games/rummy13/groups.mjs";
import { solve } from "../../web/static/verifier/games/rummy13/solver.mjs";

async function replay(raw) {
  const result = await replayRecord(await parseRecord(raw), { strict: true, require: true });
  const first = result.faults[0];
  return {
    moves_applied: result.moves_applied,
    fault: first === undefined ? null : { kind: first.reason, index: first.move_index ?? null, rule: first.rule ?? null },
    outcome: result.outcome,
    settlement: result.settlement === null ? null : settlementJson(result.settlement),
  };
}

function solveRequest({ cards, indicator, high = 10 }) {
  const sol = solve(cards.map(parseCard), wildRankOf(parseCard(indicator)), high);
  const texts = (codes) => codes.map(cardText);
  return { points: sol.points, case: sol.case, groups: sol.groups.map(texts), loose: texts(sol.loose) };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  const answer = request.solve ? solveRequest(request.solve) : await replay(request.record);
  process.stdout.write(JSON.stringify(answer) + "\n");
}
