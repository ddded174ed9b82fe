// Replay Marriage hand records with the browser verifier's engine (games/marriage.mjs), one
// JSON request a line on stdin, one answer a line on stdout (tests/js/test_js_marriage.py):
//   {"record": <hand record>}  ->  {"moves_applied", "fault": {kind, index, rule} | null, "outcome",
//                                  "settlement", "worked"}: replay.mjs's replayRecord, strict; the
//                                  engine's workPoints of the outcome
//   {"record": ..., "strict": false}  ->  the same in report mode, with "faults" (every one) for "fault"
//   {"maal": {...countMaal args, cards as texts}}  ->  the maal as Python's Maal.to_json
//   {"fixed": {preset, overrides, n_seats, dealer, shoe, tiplu_at, moves}}  ->  {moves_applied, fault,
//                                  tiplu}: a hand dealt from a chosen shoe
//   {"ruleset": {preset, overrides}}  ->  {hash} of the resolved ruleset, or {error, kind: "ruleset"}
//   {"combos": {preset, overrides, tiplu, show}}  ->  {finish, show}: every sorted triple of codes
//                                  judged as a finishing combination (and as a shown set)
//   {"nets": {scores, winner, seen, dublee_finish, preset}}  ->  {nets, pairwise}: MC-31 / D-10 and MC-30
import { createInterface } from "node:readline";
import { cardText, parseCards } from "../../web/static/verifier/cards.mjs";
import { deal } from "../../web/static/verifier/deal.mjs";
import { parseRecord } from "../../web/static/verifier/record.mjs";
import { replayRecord, settlementJson } from "../../web/static/verifier/replay.mjs";
import { resolve } from "../../web/static/verifier/rulesets.mjs";
import { ReplayError, gameFor } from "../../web/static/verifier/games/index.mjs";
import { checkFinishSet, checkShowSet } from "../../web/static/verifier/games/marriage/combos.mjs";
import { countMaal, itemJson } from "../../web/static/verifier/games/marriage/maal.mjs";
import { netsStreamlined, pairwiseNets, voidNets } from "../../web/static/verifier/games/marriage/payments.mjs";

async function replay(raw, strict = true) {
  const record = await parseRecord(raw);
  const result = await replayRecord(record, { strict, require: true });
  const faults = result.faults.map((f) => ({ kind: f.reason, index: f.move_index ?? null, rule: f.rule ?? null }));
  return {
    moves_applied: result.moves_applied,
    ...(strict ? { fault: faults[0] ?? null } : { faults }),
    outcome: result.outcome,
    settlement: result.settlement === null ? null : settlementJson(result.settlement),
    worked: result.outcome === null ? null : gameFor("marriage").engine(record.ruleset).workPoints(result.outcome),
  };
}

/**
 * A hand dealt from a chosen shoe (texts, top first): a stand-in for HandRandomness that
 * deals it, picks the tiplu at stock position `tiplu_at` and reshuffles nothing; the moves
 * through the engine as the driver takes them.
 */
async function fixed({ preset, overrides, n_seats: nSeats, dealer, shoe, tiplu_at: tipluAt = 0, moves }) {
  const ruleset = await resolve(preset, overrides || {});
  const codes = parseCards(shoe);
  const randomness = {
    nSeats,
    ruleset,
    async deal(d) { return deal(ruleset, codes, nSeats, d); },
    async tipluPosition() { return tipluAt; },
    async reshuffle(k, cards) { return cards; },
  };
  const engine = gameFor(ruleset.game).engine(ruleset);
  let state = await engine.start(randomness, { dealer });
  let applied = 0;
  for (let i = 0; i < moves.length; i++) {
    try {
      const move = engine.parseMove(moves[i]);
      if (engine.isOver(state)) throw new ReplayError("illegal_move", "a move after the hand is over");
      state = await engine.apply(state, move);
      applied += 1;
    } catch (err) {
      if (!(err instanceof ReplayError)) throw err;
      return { moves_applied: applied, fault: { kind: err.kind, index: i, rule: err.rule } };
    }
  }
  return { moves_applied: applied, fault: null, tiplu: state.tiplu === null ? null : cardText(state.tiplu) };
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

/** Every sorted triple of card codes (a <= b <= c): its finishing kind or the rule that
 *  refuses it (checkFinishSet under `tiplu`), and its show kind or refusal (checkShowSet). */
async function combos(req) {
  const ruleset = await resolve(req.preset, req.overrides || {});
  const tiplu = req.tiplu ? parseCards([req.tiplu])[0] : null;
  const judge = (fn) => {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof ReplayError)) throw err;
      return `${err.kind}:${err.rule}`;
    }
  };
  const finish = [];
  const show = [];
  for (let a = 0; a < 54; a++) {
    for (let b = a; b < 54; b++) {
      for (let c = b; c < 54; c++) {
        finish.push(judge(() => checkFinishSet([a, b, c], tiplu, ruleset)));
        if (req.show) show.push(judge(() => checkShowSet([a, b, c], ruleset)));
      }
    }
  }
  return { finish, show };
}

async function answer(req) {
  try {
    if (req.record) return await replay(req.record, req.strict ?? true);
    if (req.maal) return await maal(req.maal);
    if (req.fixed) return await fixed(req.fixed);
    if (req.ruleset) return { hash: (await resolve(req.ruleset.preset, req.ruleset.overrides)).hash };
    if (req.nets) return await nets(req.nets);
    if (req.combos) return await combos(req.combos);
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
