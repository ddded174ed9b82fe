// The browser verifier's audit pieces under Node, one JSON request per line (tests/js/test_js_audit.py):
//   {"op": "settle", "net_points": [...], "point_value": "0.25", "commission_pct": "5", "pot_delta_points": 0}
//   {"op": "money", "point_value": "0.25", "commission_pct": "5"}  (the table money rule; and the amount regex)
//   {"op": "group", "faults": [{reason, move_index, statement, after}]}
//   {"op": "audit", "record": "<text>", "trust": {public_key, origin} | null}
import { createInterface } from "node:readline";
import { AMOUNT, formatAmount, parseAmount, parseCommissionPct, parsePointValue, settle } from "../../web/static/verifier/decimal.mjs";
import { fault, groupFaults } from "../../web/static/verifier/faults.mjs";
import { auditRecord } from "../../web/static/verifier/audit.mjs";
import { settlementJson } from "../../web/static/verifier/replay.mjs";

const OPS = {
  settle(r) {
    try {
      const s = settle(r.net_points, { pointValue: parseAmount(r.point_value), commissionPct: parseAmount(r.commission_pct), potDeltaPoints: r.pot_delta_points });
      return settlementJson(s);
    } catch (e) {
      return { error: e.code ?? e.name };
    }
  },
  money(r) {
    const one = (parse, text) => {
      try {
        return { value: formatAmount(parse(text)) };
      } catch (e) {
        return { error: e.code ?? e.name, message: e.message };
      }
    };
    return { point_value: one(parsePointValue, r.point_value), commission_pct: one(parseCommissionPct, r.commission_pct),
      amount_pattern: AMOUNT.source };
  },
  group(r) {
    return groupFaults(r.faults.map((f) => fault(f.reason, "", f))).map((f) => [f.reason, f.move_index, f.statement, f.caused_by]);
  },
  async audit(r) {
    const v = await auditRecord(r.record, { trust: r.trust });
    return { reason: v.reason, first_bad_move: v.first_bad_move, replayed: v.replay ? v.replay.checked : null,
      roots: v.faults.filter((f) => f.caused_by === null).map((f) => [f.reason, f.move_index, f.statement]),
      settlement: v.replay?.settlement ? settlementJson(v.replay.settlement) : null, format: formatAmount(0n) };
  },
};

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const r = JSON.parse(line);
  process.stdout.write(JSON.stringify(await OPS[r.op](r)) + "\n");
}
