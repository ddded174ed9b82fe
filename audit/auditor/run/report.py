"""An audit report: verdict counts by game, the failures, and per-table money.

Reports are built one verdict at a time (:meth:`AuditReport.add`) and can be merged
(:meth:`AuditReport.merge`), so partitions audited in parallel combine into exactly the
report a single process makes; :meth:`AuditReport.to_json` is sorted and deterministic.

Hands that have no record to audit (a ledger's or an operator's unpublished, stalled,
cancelled or in-progress hands, :mod:`audit.auditor.sources.coverage`) come in as :meth:`AuditReport.add_status`:
``stalled``, ``unpublished`` and ``future_time`` (or a status with faults the whole log
shows, :mod:`audit.auditor.sources.logscan`) are failures like any record's; ``cancelled`` and
``in_progress`` are counted and listed under ``not_audited``, never as failures.

Every record's verdict carries what proved its timing (:mod:`audit.auditor.verdict.timing`): a record with no
fault whose timing is ``unproven`` is counted as ``unproven``, not ``ok`` (by game, in
:attr:`AuditReport.unproven` and ``unproven_records``), and :attr:`AuditReport.result` is
``fail``, ``unproven`` or ``pass`` -- ``tiplu audit``'s exit 1, 3 or 0.  ``to_json``'s ``ok``
is true only for ``pass``.

Per table, from the *recomputed* settlements of the hands that **pass** the audit: every
player's HT balance and the house's commission.  A hand the audit rejects adds no money:
it is listed apart (:attr:`TableLedger.rejected`) with its reason and what the operator
*claimed* for it (its published nets and commission, never recomputed).  For games that
carry a pot (Kitti), each hand's carry must be what the previous hand left: its carry
moved on by its replayed outcome, as the game says (``Game.next_carry``;
``CARRY_MISMATCH`` otherwise).  A hand that starts from a pot other than the one the hand
before it left was settled on a pot the audit rejects: its money is taken out of the
balances and it is listed under ``rejected`` with reason ``carry_mismatch``.

The money reconciles to the cent, every term named (``reconciliation`` in the JSON): the
counted hands' balances plus the house's commission plus what those hands moved into (or
out of) the carried pot is zero -- each hand's settlement is zero-sum with the pot as a
party (D-2, D-14), so their sum is too::

    sum(balances) + commission + pot_change == 0
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from replay.faults import Fault, Reason
from replay.registry import game_for
from replay.settlement import format_amount

from ..sources.coverage import HandStatus
from ..verdict.verify import Verdict

MAX_LISTED_FAILURES = 10_000


def position_key(where: str) -> list[tuple[int, int, str]]:
    """Where a failure is, as a sort key in reading order: numbers as numbers, so line 9 of a
    file comes before line 10 (``kitti.jsonl:9`` < ``kitti.jsonl:10``; text order put 10 first)."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", where) if part]


def _by_position(entry: Mapping[str, Any]) -> tuple[list[tuple[int, int, str]], str]:
    return position_key(entry["where"]), entry.get("hand_id") or ""


_CARRY_FAULT = re.compile(r"^hand (\d+) starts with .*, but hand (\d+) left ")


def claimed_money(record: Any) -> dict[str, Any] | None:
    """What a record's operator *claims* it paid: ``{"nets": {player: str}, "commission": str}``
    as published (strings, unchecked), or ``None`` when the record claims no payouts."""
    outcome = getattr(record, "outcome", None)
    pay = outcome.get("payouts") if isinstance(outcome, Mapping) else None
    if not isinstance(pay, Mapping):
        return None
    raw_nets = pay.get("nets")
    nets = raw_nets if isinstance(raw_nets, list) else []
    players = list(record.table.players)
    return {"nets": {p: str(n) for p, n in zip(players, nets)},
            "commission": None if pay.get("commission") is None else str(pay.get("commission"))}


@dataclass
class TableLedger:
    """Money of one table: balances and commission of the hands that pass, the rest apart."""

    balances: dict[str, Decimal] = field(default_factory=dict)
    commission: Decimal = Decimal(0)
    hands: int = 0  # the table's audited records
    passed: int = 0  # the hands whose money is in the balances
    unreconciled: int = 0  # the rejected hands (a record that fails, or a hand stalled or unpublished)
    rejected: list[dict[str, Any]] = field(default_factory=list)  # {hand_id, where, reason, claimed}
    # hand_no -> (carry in, carry out): the hand's table.carry and what its game says the
    # next hand carries (Kitti: its pot); only for games that carry something
    carries: dict[int, tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=dict)
    numbers: Counter[int] = field(default_factory=Counter)  # hand_no -> how many records claim it
    pot_change: Decimal = Decimal(0)  # HT the counted hands moved into the pot (out of it: negative)
    pot_points: int = 0  # the same in points
    # hand_no -> the money a counted hand added (taken out again if its carry is rejected)
    counted: dict[int, dict[str, Any]] = field(default_factory=dict)
    # hand_no -> where its rejected record is: the text report folds a carry fault that follows
    # from a rejected hand under that hand (a consequence), not as a failure of its own
    rejected_numbers: dict[int, str] = field(default_factory=dict)

    def merge(self, other: "TableLedger") -> None:
        for p, v in other.balances.items():
            self.balances[p] = self.balances.get(p, Decimal(0)) + v
        self.commission += other.commission
        self.hands += other.hands
        self.passed += other.passed
        self.unreconciled += other.unreconciled
        self.rejected.extend(other.rejected)
        del self.rejected[MAX_LISTED_FAILURES:]
        self.carries.update(other.carries)
        self.numbers.update(other.numbers)
        self.pot_change += other.pot_change
        self.pot_points += other.pot_points
        self.counted.update(other.counted)
        self.rejected_numbers.update(other.rejected_numbers)

    def carry_rejected(self) -> list[int]:
        """The counted hands (by number) that start from a pot other than the one the hand
        before them left: settled on a pot the audit rejects."""
        nos = sorted(self.carries)
        return [b for a, b in zip(nos, nos[1:])
                if b == a + 1 and self.carries[a][1] != self.carries[b][0] and b in self.counted]

    def money(self) -> dict[str, Any]:
        """The table's money without the hands settled on a rejected pot: balances,
        commission, pot change (Decimal), hands counted and not, and those hands' entries."""
        balances, commission, pot_change, pot_points = dict(self.balances), self.commission, self.pot_change, self.pot_points
        out = []
        for n in self.carry_rejected():
            h = self.counted[n]
            for player, net in h["nets"].items():
                balances[player] -= net
            commission -= h["commission"]
            pot_change -= h["pot_delta"]
            pot_points -= h["pot_points"]
            out.append({"where": h["where"], "hand_id": h["hand_id"], "reason": Reason.CARRY_MISMATCH.value,
                        "claimed": h["claimed"]})
        return {"balances": balances, "commission": commission, "pot_change": pot_change, "pot_points": pot_points,
                "passed": self.passed - len(out), "unreconciled": self.unreconciled + len(out), "rejected": out}

    def _pot(self, moved: int) -> dict[str, Any] | None:
        """The carried pot in points (games that carry a pot only): what the first counted
        hand started from, what the last one left, and who moved the difference -- the
        counted hands (``moved`` points) and the hands not counted between them."""
        nos = [n for n in sorted(self.carries) if n in self.counted and n not in self.carry_rejected()]
        if not nos:
            return None
        start, end = self.carries[nos[0]][0], self.carries[nos[-1]][1]
        if len(start) != 1 or start.keys() != end.keys():   # a game that carries one pot (D-14)
            return None
        (key,) = start
        a, b = start[key], end[key]
        return {"start": a, "end": b, "moved_by_counted_hands": moved, "moved_by_hands_not_counted": b - a - moved}

    def to_json(self) -> dict[str, Any]:
        m = self.money()
        total = sum(m["balances"].values(), Decimal(0))
        pot = self._pot(m["pot_points"])
        return {"hands": self.hands, "passed": m["passed"], "unreconciled": m["unreconciled"],
                "commission": format_amount(m["commission"]),
                "balances": {p: format_amount(v) for p, v in sorted(m["balances"].items())},
                "reconciliation": {
                    "balances": format_amount(total), "commission": format_amount(m["commission"]),
                    "pot_change": format_amount(m["pot_change"]),
                    "sum": format_amount(total + m["commission"] + m["pot_change"]),
                    "hands_counted": m["passed"], "hands_not_counted": m["unreconciled"]},
                **({"pot": pot} if pot is not None else {}),
                "rejected": sorted(self.rejected + m["rejected"], key=_by_position),
                **({"carry_faults": self.carry_faults()} if self.carry_faults() else {})}

    def carry_faults(self) -> list[str]:
        out = [f"hand number {n} is claimed by {c} records" for n, c in sorted(self.numbers.items()) if c > 1]
        nos = sorted(self.carries)
        for a, b in zip(nos, nos[1:]):
            if b == a + 1 and self.carries[a][1] != self.carries[b][0]:
                out.append(f"hand {b} starts with pot {_carry_text(self.carries[b][0])}, "
                           f"but hand {a} left {_carry_text(self.carries[a][1])}")
        return out


def _carry_text(carry: Mapping[str, Any]) -> str:
    """A carry in a fault's words: its value when it carries one thing (Kitti's pot, ``5``),
    else its keys and values."""
    if len(carry) == 1:
        return str(next(iter(carry.values())))
    return ", ".join(f"{k} {v}" for k, v in sorted(carry.items()))


@dataclass
class AuditReport:
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)  # (preset, reason or ok/unproven)
    failures: list[dict[str, Any]] = field(default_factory=list)
    tables: dict[str, TableLedger] = field(default_factory=dict)
    not_audited: Counter[tuple[str, str]] = field(default_factory=Counter)  # (preset, status) of cancelled / in-progress hands
    not_audited_hands: list[dict[str, Any]] = field(default_factory=list)
    timing: Counter[str] = field(default_factory=Counter)  # timing status -> records (audit.auditor.verdict.timing)
    unproven_records: list[dict[str, Any]] = field(default_factory=list)  # passed, timing unproven

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def failed(self) -> int:
        return sum(n for (preset, reason), n in self.counts.items() if reason not in ("ok", "unproven"))

    @property
    def ok(self) -> bool:
        """No record or hand failed and no table fault (the timing aside: see :attr:`result`)."""
        return self.failed == 0 and not self.table_faults()

    @property
    def unproven(self) -> int:
        """Records with no fault whose timing nothing proved (audit.auditor.verdict.timing: ``unproven``)."""
        return self.timing["unproven-pass"]

    @property
    def result(self) -> str:
        """``fail`` (exit 1), ``unproven`` (nothing failed, some record's timing unproven: exit 3)
        or ``pass`` (exit 0)."""
        return "fail" if not self.ok else "unproven" if self.unproven else "pass"

    def add(self, where: str, verdict: Verdict) -> None:
        preset = verdict.preset or "unknown"
        unproven = verdict.ok and verdict.timing is not None and not verdict.timing.proven
        self.counts[(preset, verdict.reason.value if verdict.reason else "unproven" if unproven else "ok")] += 1
        if not verdict.ok and len(self.failures) < MAX_LISTED_FAILURES:
            self.failures.append({"where": where, **verdict.to_json()})
        if verdict.timing is not None:
            self.timing[verdict.timing.status] += 1
            if verdict.ok and not verdict.timing.proven:
                self.timing["unproven-pass"] += 1
                if len(self.unproven_records) < MAX_LISTED_FAILURES:
                    self.unproven_records.append({"where": where, "hand_id": verdict.hand_id,
                                                  "timing": verdict.timing.to_json()})
        replay = verdict.replay
        record = replay.record if replay is not None else None
        if verdict.table_id is None:
            return
        t = self.tables.setdefault(verdict.table_id, TableLedger())
        t.hands += replay is not None
        # settled: the replay's settlement and outcome (the replayer makes both or neither)
        settlement = replay.settlement if replay is not None and record is not None else None
        outcome = replay.outcome if settlement is not None and replay is not None else None
        if verdict.ok and record is not None and settlement is not None:
            t.passed += 1
            nets: dict[str, Decimal] = {}
            for player, net in zip(record.table.players, settlement.nets):
                t.balances[player] = t.balances.get(player, Decimal(0)) + net
                nets[player] = nets.get(player, Decimal(0)) + net
            t.commission += settlement.commission
            t.pot_change += settlement.pot_delta
            pot_points = getattr(outcome, "pot_delta_points", 0) or 0
            t.pot_points += pot_points
            if record.table.carry and record.table.hand_no is not None:
                t.counted[record.table.hand_no] = {
                    "where": where, "hand_id": verdict.hand_id, "nets": nets, "commission": settlement.commission,
                    "pot_delta": settlement.pot_delta, "pot_points": pot_points, "claimed": claimed_money(record)}
        else:
            t.unreconciled += 1
        if not (verdict.ok and settlement is not None) and len(t.rejected) < MAX_LISTED_FAILURES:
            t.rejected.append({"where": where, "hand_id": verdict.hand_id,
                               "reason": verdict.reason.value if verdict.reason else None,
                               "claimed": claimed_money(record) if record is not None else None})
        if record is None or settlement is None or outcome is None:
            return
        carry = record.table.carry
        hand_no = record.table.hand_no
        if hand_no is not None:
            t.numbers[hand_no] += 1
            if not verdict.ok:
                t.rejected_numbers[hand_no] = where
        if carry and hand_no is not None:
            t.carries[hand_no] = (dict(carry), game_for(record.ruleset.game).next_carry(carry, outcome))

    def add_status(self, where: str, status: HandStatus) -> None:
        """A hand with no published record: a failure (stalled, unpublished, future-dated, or
        any fault the log shows of it) or listed apart."""
        faults = status.faults()
        if faults:
            self.add(where, Verdict(status.hand_id, status.preset, faults, status.table_id))
            return
        self.not_audited[(status.preset or "unknown", status.status)] += 1
        if len(self.not_audited_hands) < MAX_LISTED_FAILURES:
            self.not_audited_hands.append({"where": where, **status.to_json()})

    def add_error(self, where: str, message: str) -> None:
        self.add(where, Verdict(None, None, (Fault(Reason.MALFORMED, message),)))

    def merge(self, other: "AuditReport") -> "AuditReport":
        self.counts.update(other.counts)
        self.failures.extend(other.failures)
        del self.failures[MAX_LISTED_FAILURES:]
        self.not_audited.update(other.not_audited)
        self.not_audited_hands.extend(other.not_audited_hands)
        self.timing.update(other.timing)
        self.unproven_records.extend(other.unproven_records)
        del self.unproven_records[MAX_LISTED_FAILURES:]
        del self.not_audited_hands[MAX_LISTED_FAILURES:]
        for tid, t in other.tables.items():
            self.tables.setdefault(tid, TableLedger()).merge(t)
        return self

    def table_faults(self) -> dict[str, list[str]]:
        return {tid: f for tid, t in sorted(self.tables.items()) if (f := t.carry_faults())}

    def folded_carry_faults(self) -> dict[str, list[tuple[str, str]]]:
        """Table carry faults that follow from a rejected hand, by that hand's place: the pot
        hand ``b`` starts with differs from what hand ``a`` left, and ``a`` (or else ``b``) is a
        rejected record -- the report lists the fault under it, as a consequence (text and
        ``--json`` alike)."""
        out: dict[str, list[tuple[str, str]]] = {}
        for tid, faults in self.table_faults().items():
            rejected = self.tables[tid].rejected_numbers
            for msg in faults:
                m = _CARRY_FAULT.match(msg)
                if m is None:
                    continue
                later, earlier = int(m.group(1)), int(m.group(2))
                cause = rejected.get(earlier) or rejected.get(later)
                if cause is not None:
                    out.setdefault(cause, []).append((tid, msg))
        return out

    def _failures_json(self) -> list[dict[str, Any]]:
        """The failures in reading order (numbers as numbers), each with the table faults that
        follow from it (``consequences``: a ``carry_mismatch`` of its table)."""
        folded = self.folded_carry_faults()
        out = []
        for f in sorted(self.failures, key=_by_position):
            if f["where"] in folded:
                f = {**f, "consequences": [{"table_id": tid, "reason": Reason.CARRY_MISMATCH.value, "message": msg}
                                           for tid, msg in folded[f["where"]]]}
            out.append(f)
        return out

    def to_json(self) -> dict[str, Any]:
        by_game: dict[str, dict[str, int]] = {}
        for (preset, reason), n in sorted(self.counts.items()):
            by_game.setdefault(preset, {})[reason] = n
        skipped: dict[str, dict[str, int]] = {}
        for (preset, status), n in sorted(self.not_audited.items()):
            skipped.setdefault(preset, {})[status] = n
        return {
            "format": "tiplu.audit-report/1",
            "ok": self.result == "pass",
            "result": self.result,
            "total": self.total,
            "failed": self.failed,
            "unproven": self.unproven,
            "timing": {s: self.timing[s] for s in ("witnessed", "whole-log", "unproven")},
            "unproven_records": sorted(self.unproven_records, key=_by_position),
            "by_game": by_game,
            "failures": self._failures_json(),
            "not_audited": {"by_game": skipped, "hands": sorted(self.not_audited_hands, key=_by_position)},
            "tables": {tid: t.to_json() for tid, t in sorted(self.tables.items())},
        }
