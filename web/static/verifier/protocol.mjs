/**
 * The protocol's order and the statements' times, checked in the browser as the Python audit
 * checks them (audit/auditor/sources/protocol_steps.py, audit/timecheck.py): the order is enforced by the
 * audit, not only by the operator's ledger.
 *
 *   statementChecks(statements, {now?}) -> [{name, title, ok, detail, reason?}]
 *
 * The checks, each with the reason name the Python audit uses when it fails:
 *
 *   statements:order  the record's statements, in the order listed, follow the ledger's state
 *                     machine: hand, commitment, a seat-receipt per seat (before any reveal),
 *                     a seat-reveal per seat (after every seat committed), deal, record,
 *                     reveal -- nothing after the reveal, no cancel in a recorded hand
 *                     (event_order)
 *   statements:time   each statement is dated no earlier than the one listed before it
 *                     (time_order) and no later than this browser's clock plus five minutes
 *                     of clock skew (future_time)
 */

/** How far a statement may be dated past the clock that bounds it (audit.timecheck.DEFAULT_SKEW). */
export const SKEW_MS = 5 * 60 * 1000;

const WHY = Object.freeze({
  hand: "a hand is opened once, by its first statement",
  commitment: "the server seed is committed once, right after the hand is created",
  "seat-receipt": "seat seeds are committed after the server commitment and before any reveal",
  "seat-reveal": "a seat reveals its seed only after every seat has committed, and before the deal",
  deal: "the deal needs every seat's seed revealed",
  record: "a hand record is attached once, after the deal",
  reveal: "the server seed is revealed once, after the hand is finished",
  cancel: "a hand is cancelled only before the deal, and a cancelled hand is never recorded",
});

function check(name, title, ok, detail, reason = null) {
  const c = { name, title, ok, detail };
  if (ok === false && reason) c.reason = reason;
  return c;
}

/** Why statement `st` may not come next in a hand left at `h` (null: it may; h moves on). */
function refusal(h, st) {
  const kind = st?.kind;
  if (!Object.hasOwn(WHY, kind)) return null; // an unknown kind is not an order question
  if (h.state === "revealed") return `a ${kind} statement after the hand was revealed: nothing may follow`;
  const seat = Number.isInteger(st.seat) ? st.seat : null;
  const to = (state) => { h.state = state; return null; };
  switch (kind) {
    case "hand":
      if (h.state !== null) return WHY.hand;
      h.n = Array.isArray(st.seats) ? st.seats.length : 0;
      return to("created");
    case "commitment":
      return h.state === "created" ? to("committed") : WHY.commitment;
    case "seat-receipt":
      if (!["committed", "seeds-committed"].includes(h.state) || h.revealed.size || h.committed.has(seat)) return WHY["seat-receipt"];
      if (seat !== null) h.committed.add(seat);
      return h.committed.size >= h.n ? to("seeds-committed") : null;
    case "seat-reveal":
      if (h.state !== "seeds-committed" || h.revealed.has(seat)) return WHY["seat-reveal"];
      if (seat !== null) h.revealed.add(seat);
      return h.revealed.size >= h.n ? to("seeds-revealed") : null;
    case "deal":
      return h.state === "seeds-revealed" ? to("dealt") : WHY.deal;
    case "record":
      return h.state === "dealt" ? to("finished") : WHY.record;
    case "reveal":
      return h.state === "finished" ? to("revealed") : WHY.reveal;
    default: // cancel
      return WHY.cancel;
  }
}

function orderCheck(statements) {
  const title = "The statements follow the protocol's order";
  const h = { state: null, n: 0, committed: new Set(), revealed: new Set() };
  const bad = [];
  for (const [i, signed] of statements.entries()) {
    const st = signed?.statement;
    const why = refusal(h, st);
    if (why !== null) bad.push(`statement ${i + 1} (${st?.kind}) while the hand is ${h.state ?? "not opened"}: ${why}`);
  }
  if (bad.length) return check("statements:order", "The statements do NOT follow the protocol's order", false, bad.join("; "), "event_order");
  return check("statements:order", title, true, "hand, commitment, every seat-receipt, every seat-reveal, deal, record, reveal");
}

function timeOf(text) {
  if (typeof text !== "string" || !/(Z|[+-][0-9]{2}:[0-9]{2})$/.test(text)) return null;
  const t = Date.parse(text);
  return Number.isNaN(t) ? null : t;
}

function timeCheck(statements, now) {
  const title = "The statements' times run forward and none is in the future";
  let last = null;
  for (const [i, signed] of statements.entries()) {
    const text = signed?.statement?.time;
    const t = timeOf(text);
    if (t === null) continue; // an unreadable time is the schema's fault
    if (t > now + SKEW_MS) {
      return check("statements:time", "A statement is dated in the future", false,
        `statement ${i + 1} (${signed.statement.kind}) is dated ${text}, later than this browser's clock (${new Date(now).toISOString()}) plus 5 minutes`, "future_time");
    }
    if (last !== null && t < last.t) {
      return check("statements:time", "The statements' times run backwards", false,
        `statement ${i + 1} (${signed.statement.kind}) is dated ${text}, before statement ${last.k} (${last.text})`, "time_order");
    }
    last = { t, k: i + 1, text };
  }
  return check("statements:time", title, true, `checked against this browser's clock (${new Date(now).toISOString()})`);
}

/** The protocol-order and time checks of a record's statements (module doc). */
export function statementChecks(statements, options = {}) {
  if (!Array.isArray(statements) || !statements.length) return [];
  const now = Number.isFinite(options.now) ? options.now : Date.now();
  return [orderCheck(statements), timeCheck(statements, now)];
}
