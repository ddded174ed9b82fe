// Replay Kitti hand records with the browser verifier's engine (web/static/verifier/games/kitti.mjs),
// for tests/js/test_js_kitti.py.  One JSON request a line on stdin:
//   {"record": <hand record>}              -> {moves_applied, fault: {kind, index} | null, outcome}
//   {"ranks": [[preset settings, [card texts x3]], ...]} -> {keys: [...], labels: [...]}
// The loop is replay/replayer.py's strict replay_record: start, every move (parsed
// without its `time`, refused after the hand is over), incomplete, the outcome.
import { createInterface } from "node:readline";
import { parseCards } from "../../web/static/verifier/cards.mjs";
import { HandRandomness, parsePlayerSeed, parseServerSeed } from "../../web/static/verifier/fairness.mjs";
import { resolve, rulesetFromJson } from "../../web/static/verifier/rulesets.mjs";
import { ReplayError, gameFor } from "../../web/static/verifier/games/index.mjs";
import { rankerFor } from "../../web/static/verifier/games/kitti/ranking.mjs";

async function replay(record) {
  const ruleset = await rulesetFromJson(record.ruleset);
  const game = gameFor(ruleset.game);
  const engine = game.engine(ruleset);
  const randomness = await HandRandomness.create(parseServerSeed(record.fairness.server_seed), record.hand_id, ruleset,
    record.fairness.player_seeds.map(parsePlayerSeed));
  let state;
  try {
    state = await engine.start(randomness, { dealer: record.table.dealer, ...(record.table.carry || {}) });
  } catch (err) {
    if (err instanceof ReplayError) return { moves_applied: 0, fault: { kind: err.kind, index: null }, outcome: null };
    throw err;
  }
  const moves = record.moves;
  let applied = 0;
  for (let i = 0; i < moves.length; i++) {
    try {
      const { time, ...raw } = moves[i];
      const move = engine.parseMove(raw);
      if (engine.isOver(state)) throw new ReplayError("illegal_move", "a move after the hand is over");
      state = await engine.apply(state, move);
      applied += 1;
    } catch (err) {
      if (!(err instanceof ReplayError)) throw err;
      return { moves_applied: applied, fault: { kind: err.kind, index: i, rule: err.rule }, outcome: null };
    }
  }
  if (!engine.isOver(state)) return { moves_applied: applied, fault: { kind: "incomplete", index: moves.length }, outcome: null };
  return { moves_applied: applied, fault: null, outcome: engine.outcome(state) };
}

async function ranks(cases) {
  const out = [];
  for (const [settings, cards] of cases) {
    const ranker = rankerFor(await resolve("kitti", settings));
    const [a, b, c] = parseCards(cards);
    const key = ranker.key(a, b, c);
    out.push([key, ranker.labelOfKey(key)]);
  }
  return { ranks: out };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  const answer = "record" in req ? await replay(req.record) : await ranks(req.ranks);
  process.stdout.write(JSON.stringify(answer) + "\n");
}
