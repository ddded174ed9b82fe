// Replay Rummy hand records with the browser verifier's engine (games/rummy13.mjs), for
// tests/js/test_js_rummy.py: one JSON request a line on stdin, {"record": <hand record>},
// one answer a line on stdout: {moves_applied, fault: {kind, index} | null, outcome}.
// {"solve": {cards, indicator, high?}} answers the solver's {points, case, groups, loose}.
// The loop is replay/replayer.py's replay_record in strict mode (the first refused move
// stops the replay); `outcome` is the engine's, as Python's Outcome.to_json().
import { createInterface } from "node:readline";
import { HandRandomness, parsePlayerSeed, parseServerSeed } from "../../web/static/verifier/fairness.mjs";
import { rulesetFromJson } from "../../web/static/verifier/rulesets.mjs";
import { gameFor } from "../../web/static/verifier/games/index.mjs";
import { ReplayError } from "../../web/static/verifier/games/errors.mjs";
import { cardText, parseCard } from "../../web/static/verifier/cards.mjs";
import { wildRankOf } from "../../web/static/verifier/games/rummy13/groups.mjs";
import { solve } from "../../web/static/verifier/games/rummy13/solver.mjs";

function solveRequest({ cards, indicator, high = 10 }) {
  const sol = solve(cards.map(parseCard), wildRankOf(parseCard(indicator)), high);
  const texts = (codes) => codes.map(cardText);
  return { points: sol.points, case: sol.case, groups: sol.groups.map(texts), loose: texts(sol.loose) };
}

async function replay(record) {
  const ruleset = await rulesetFromJson(record.ruleset);
  const game = gameFor(ruleset.game);
  const engine = game.engine(ruleset);
  const randomness = await HandRandomness.create(parseServerSeed(record.fairness.server_seed), record.hand_id,
    ruleset, record.fairness.player_seeds.map(parsePlayerSeed));
  let state;
  try {
    state = await engine.start(randomness, { dealer: record.table.dealer, ...record.table.carry });
  } catch (err) {
    if (err instanceof ReplayError) return { moves_applied: 0, fault: { kind: "malformed", index: null }, outcome: null };
    throw err;
  }
  let applied = 0;
  for (let i = 0; i < record.moves.length; i++) {
    try {
      const move = engine.parseMove(record.moves[i]);
      if (engine.isOver(state)) throw new ReplayError("illegal_move", "a move after the hand is over");
      state = await engine.apply(state, move);
      applied += 1;
    } catch (err) {
      if (!(err instanceof ReplayError)) throw err;
      return { moves_applied: applied, fault: { kind: err.kind, index: i, rule: err.rule }, outcome: null };
    }
  }
  if (!engine.isOver(state)) {
    return { moves_applied: applied, fault: { kind: "incomplete", index: record.moves.length }, outcome: null };
  }
  return { moves_applied: applied, fault: null, outcome: engine.outcome(state) };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  const answer = request.solve ? solveRequest(request.solve) : await replay(request.record);
  process.stdout.write(JSON.stringify(answer) + "\n");
}
