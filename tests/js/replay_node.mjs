// web/static/verifier/replay.mjs under Node, one JSON line per record (tests/js/test_js_replay.py):
// in {"record": <record JSON>}, out {replayed, moves_applied, faults: [[reason, move_index]], outcome,
// settlement, claims: [reason...]} -- what replay/replayer.py and audit/verify.py compare_outcome give.
import { createInterface } from "node:readline";
import { parseRecord } from "../../web/static/verifier/record.mjs";
import { compareOutcome, replayRecord, settlementJson } from "../../web/static/verifier/replay.mjs";

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const record = await parseRecord(JSON.parse(line).record);
  const r = await replayRecord(record);
  process.stdout.write(JSON.stringify({
    replayed: r.checked, moves_applied: r.moves_applied, faults: r.faults.map((f) => [f.reason, f.move_index]),
    outcome: r.outcome, settlement: r.settlement ? settlementJson(r.settlement) : null,
    claims: compareOutcome(record.outcome, r).map((f) => f.reason),
  }) + "\n");
}
