// Replay Marriage hand records with the browser verifier's engine (games/marriage.mjs), one
// JSON request a line on stdin, one answer a line on stdout (tests/js/test_js_marriage.py):
//   {"record": <hand record>}  ->  {"moves_applied", "fault": {kind, index, rule} | null, "outcome"}
//   {"maal": {...countMaal args, cards as texts}}  ->  the maal as Python's Maal.to_json
//   {"nets": {scores, winner, seen, dublee_finish, preset}}  ->  {streamlined, pairwise}
// The loop is the replay driver's (replay/replayer.py in strict mode): parse each move
// (without its envelope "time"), refuse a move after the hand is over, apply.
import { createInterface } from "node:readline";
import { parseCards } from "../../web/static/verifier/cards.mjs";
import { HandRandomness, parsePlayerSeed, parseServerSeed } from "../../web/static/verifier/fairness.mjs";
import { resolve, rulesetFromJson } from "../../web/static/verifier/rulesets.mjs";
import { ReplayError, gameFor } from "../../web/static/verifier/games/index.mjs";
import { countMaal, itemJson } from "../../web/static/verifier/games/marriage/maal.mjs";
import { netsStreamlined, pairwiseNets, voidNets } from "../../web/static/verifier/games/marriage/payments.mjs";

async function replay(record) {
  const ruleset = await rulesetFromJson(record.ruleset);
  const randomness = await HandRandomness.create(parseServerSeed(record.fairness.server_seed), record.hand_id, ruleset,
    record.fairness.player_seeds.map(parsePlayerSeed));
  const engine = gameFor(ruleset.game).engine(ruleset);
  let state = await engine.start(randomness, { dealer: record.table.dealer, ...(record.table.carry || {}) });
  let applied = 0;
  for (let i = 0; i < record.moves.length; i++) {
    try {
      const { time, ...raw } = record.moves[i];
      const move = engine.parseMove(raw);
      if (engine.isOver(state)) throw new ReplayError("illegal_move", "a move after the hand is over");
      state = await engine.apply(state, move);
      applied += 1;
    } catch (err) {
      if (!(err instanceof ReplayError)) throw err;
      return { moves_applied: applied, fault: { kind: err.kind, index: i, rule: err.rule }, outcome: null };
    }
  }
  if (!engine.isOver(state)) {
    return { moves_applied: applied, fault: { kind: "incomplete", index: record.moves.length, rule: null }, outcome: null };
  }
  return { moves_applied: applied, fault: null, outcome: engine.outcome(state) };
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
