// Replay Kitti hand records with the browser verifier's engine (web/static/verifier/games/kitti.mjs),
// for tests/js/test_js_kitti.py.  One JSON request a line on stdin:
//   {"record": <hand record>}              -> {moves_applied, fault: {kind, index} | null, outcome}
//   {"fixed": {settings, n_seats, dealer, pot_before, shoes, moves}}  -> the same, dealt from chosen
//                                          shoes (shoes[0] the deal, shoes[k] the k-th redeal)
//   {"ranks": [[settings, [card texts x3]], ...]} -> {ranks: [[key, class name], ...]}
// The loop is replay/replayer.py's strict replay_record: start, every move (parsed
// without its `time`, refused after the hand is over), incomplete, the outcome.
import { createInterface } from "node:readline";
import { parseCards } from "../../web/static/verifier/cards.mjs";
import { deal } from "../../web/static/verifier/deal.mjs";
import { HandRandomness, parsePlayerSeed, parseServerSeed } from "../../web/static/verifier/fairness.mjs";
import { resolve, rulesetFromJson } from "../../web/static/verifier/rulesets.mjs";
import { ReplayError, gameFor } from "../../web/static/verifier/games/index.mjs";
import { rankerFor } from "../../web/static/verifier/games/kitti/ranking.mjs";

const MAX_POINTS = 10 ** 12;

async function replay(record) {
  const ruleset = await rulesetFromJson(record.ruleset);
  const randomness = await HandRandomness.create(parseServerSeed(record.fairness.server_seed), record.hand_id, ruleset,
    record.fairness.player_seeds.map(parsePlayerSeed));
  const carry = record.table.carry || {};
  const unknown = Object.keys(carry).filter((k) => !Object.hasOwn(gameFor(ruleset.game).carry, k));
  if (unknown.length) return { moves_applied: 0, fault: { kind: "malformed", index: null }, outcome: null }; // Game.table_options
  return run(ruleset, randomness, { ...carry, dealer: record.table.dealer }, record.moves);
}

/** A stand-in for HandRandomness that deals chosen shoes (what the engine reads of it). */
async function fixed({ settings, n_seats: nSeats, dealer, pot_before: potBefore, shoes, moves }) {
  const ruleset = await resolve("kitti", settings);
  const codes = shoes.map((s) => parseCards(s));
  const randomness = {
    nSeats,
    ruleset,
    async deal(d) { return deal(ruleset, codes[0], nSeats, d); },
    async redeal(k) { return codes[k]; },
  };
  return run(ruleset, randomness, { dealer, pot_before: potBefore }, moves);
}

async function run(ruleset, randomness, table, moves) {
  const engine = gameFor(ruleset.game).engine(ruleset);
  let state;
  try {
    state = await engine.start(randomness, table);
  } catch (err) {
    if (err instanceof ReplayError) return { moves_applied: 0, fault: { kind: err.kind, index: null }, outcome: null };
    throw err;
  }
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
  try {
    const outcome = engine.outcome(state);
    // replay/settlement.py's settle refuses points beyond MAX_POINTS (the driver's settlement, replay.mjs)
    if ([...outcome.net_points, outcome.pot_delta_points].some((p) => Math.abs(p) > MAX_POINTS)) {
      return { moves_applied: applied, fault: { kind: "malformed", index: null }, outcome: null };
    }
    return { moves_applied: applied, fault: null, outcome };
  } catch (err) {
    if (err instanceof ReplayError) return { moves_applied: applied, fault: { kind: err.kind, index: null }, outcome: null };
    throw err;
  }
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
  const answer = "record" in req ? await replay(req.record) : "fixed" in req ? await fixed(req.fixed) : await ranks(req.ranks);
  process.stdout.write(JSON.stringify(answer) + "\n");
}
