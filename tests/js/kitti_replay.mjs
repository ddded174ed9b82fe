// Replay Kitti hand records with the browser verifier's engine (web/static/verifier/games/kitti.mjs),
// for tests/js/test_js_kitti.py.  One JSON request a line on stdin:
//   {"record": <hand record>}              -> {moves_applied, fault: {kind, index, rule} | null, outcome,
//                                             settlement}: replay.mjs's replayRecord, strict
//   {"record": <hand record>, "strict": false} -> the same with every fault, {faults: [...]}: report mode
//   {"fixed": {settings, n_seats, dealer, pot_before, shoes, moves}}  -> the same, dealt from chosen
//                                          shoes (shoes[0] the deal, shoes[k] the k-th redeal)
//   {"table": settings}                   -> {keys, labels}: every set of the pack ranked
//   {"defaults": {settings, hands}}       -> {defaults}: each hand's default arrangement
// The chosen-shoe loop is replayRecord's (and replay/replayer.py's) without the settlement:
// start, every move (refused after the hand is over), incomplete, the outcome.
import { createInterface } from "node:readline";
import { cardText, parseCards } from "../../web/static/verifier/cards.mjs";
import { deal } from "../../web/static/verifier/deal.mjs";
import { parseRecord } from "../../web/static/verifier/record.mjs";
import { replayRecord, settlementJson } from "../../web/static/verifier/replay.mjs";
import { resolve } from "../../web/static/verifier/rulesets.mjs";
import { ReplayError, gameFor } from "../../web/static/verifier/games/index.mjs";
import { rankerFor } from "../../web/static/verifier/games/kitti/ranking.mjs";
import { defaultSplit } from "../../web/static/verifier/games/kitti/strategy.mjs";

async function replay(raw, strict) {
  const result = await replayRecord(await parseRecord(raw), { strict, require: true });
  const faults = result.faults.map((f) => ({ kind: f.reason, index: f.move_index ?? null, rule: f.rule ?? null }));
  return {
    moves_applied: result.moves_applied,
    ...(strict ? { fault: faults[0] ?? null } : { faults }),
    outcome: result.outcome,
    settlement: result.settlement === null ? null : settlementJson(result.settlement),
  };
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
    if (err instanceof ReplayError) return { moves_applied: 0, fault: { kind: err.kind, index: null, rule: null }, outcome: null };
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
      return { moves_applied: applied, fault: { kind: err.kind, index: i, rule: err.kind === "malformed" ? null : err.rule }, outcome: null };
    }
  }
  if (!engine.isOver(state)) return { moves_applied: applied, fault: { kind: "incomplete", index: moves.length, rule: null }, outcome: null };
  return { moves_applied: applied, fault: null, outcome: engine.outcome(state) };
}

/** Every set of the pack (a < b < c by code) ranked: its key and class name. */
async function table(settings) {
  const ranker = rankerFor(await resolve("kitti", settings));
  const keys = [];
  const labels = [];
  for (let a = 0; a < 52; a++) {
    for (let b = a + 1; b < 52; b++) {
      for (let c = b + 1; c < 52; c++) {
        const key = ranker.key(a, b, c);
        keys.push(key);
        labels.push(ranker.labelOfKey(key));
      }
    }
  }
  return { keys, labels };
}

/** The default arrangement (strategy.mjs) of each hand, its sets as sorted card texts. */
async function defaults({ settings, hands }) {
  const ranker = rankerFor(await resolve("kitti", settings));
  return { defaults: hands.map((h) => defaultSplit(parseCards(h), ranker).map((s) => [...s].sort((x, y) => x - y).map(cardText)).sort()) };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  const answer = "record" in req ? await replay(req.record, req.strict ?? true) : "fixed" in req ? await fixed(req.fixed)
    : "table" in req ? await table(req.table) : await defaults(req.defaults);
  process.stdout.write(JSON.stringify(answer) + "\n");
}
