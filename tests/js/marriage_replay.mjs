// Replay Marriage hand records with the browser verifier's engine (games/marriage.mjs), one
// JSON request a line on stdin, one answer a line on stdout (tests/js/test_js_marriage.py):
//   {"record": <hand record>}  ->  {"moves_applied", "fault": {kind, index, rule} | null, "outcome",
//                                  "settlement"}: replay.mjs's replayRecord, strict
//   {"maal": {...countMaal args, cards as texts}}  ->  the maal as Python's Maal.to_json
//   {"nets": {scores, winner, seen, dublee_finish, preset}}  ->  {nets, pairwise}: MC-31 / D-10 and MC-30
import { createInterface } from "node:readline";
import { parseCards } from "../../web/static/verifier/cards.mjs";
import { parseRecord } from "../../web/static/verifier/record.mjs";
import { replayRecord, settlementJson } from "../../web/static/verifier/replay.mjs";
import { resolve } from "../../web/static/verifier/rulesets.mjs";
import { countMaal, itemJson } from "../../web/static/verifier/games/marriage/maal.mjs";
import { netsStreamlined, pairwiseNets, voidNets } from "../../web/static/verifier/games/marriage/payments.mjs";

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

async function maal(req) {
  const ruleset = await resolve(req.preset, req.overrides || {});
  const m = countMaal({
    hand: parseCards(req.hand), table: parseCards(req.table || []),
    tunnelasAtDeal: (req.tunnelas_at_deal || []).map(parseCards),
    tiplu: req.tiplu ? parseCards([req.tiplu])[0] : null, seen: req.seen, ruleset,
  });
  return { maal: m.points, items: m.items.map(itemJson) };
}

async function nets(req) {
  const ruleset = await resolve(req.preset);
  const options = { winner: req.winner, seen: req.seen, dubleeFinish: req.dublee_finish, ruleset };
  return {
    nets: req.winner === null ? voidNets(req.scores) : netsStreamlined(req.scores, options),
    pairwise: pairwiseNets(req.scores, options),
  };
}

async function answer(req) {
  try {
    if (req.record) return await replay(req.record);
    if (req.maal) return await maal(req.maal);
    if (req.nets) return await nets(req.nets);
    return { error: "unknown request" };
  } catch (err) {
    return { error: `${err.name}: ${err.message}`, kind: err.kind ?? err.code ?? null };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  process.stdout.write(JSON.stringify(await answer(JSON.parse(line))) + "\n");
}
