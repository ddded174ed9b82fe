"""Does a published record contradict what a player was shown?  ``tiplu receipt verify``.

:func:`compare` takes a player's receipt (``tiplu.receipt/3`` or ``/2``, :mod:`audit.operator.receipts`)
and a published record (``tiplu.hand/3`` or ``/2``) and checks, offline, with the operator key the player
pinned:

1. the receipt holds (its checkpoint is signed by that key, its statements are the leaves
   at their indices) -- otherwise it is no evidence, and the input is bad;
2. every statement of the receipt is in the record: the same signed statement (same leaf
   hash), at the same leaf index, with a proof that verifies under the record's checkpoint;
3. the record's server commitment, ruleset hash and the seat's commitment are the ones the
   receipt's statements bind; for a ``tiplu.receipt/3``, the record's point value,
   commission, dealer and every seat's name are the logged hand statement's (a fork of the
   terms or another name in a seat is a contradiction each);
4. the two checkpoints: of one size, they must have one root (two signed roots for one size
   prove the operator forked its log);
5. with the seat's move receipts (``tiplu.move-receipt/1``, :mod:`audit.auditor.verdict.move_receipts`): the
   chain over the record's moves gives each receipt's head after its number of moves (a
   record with other moves than were played is a contradiction per receipt).

**What an offline check can prove.**  A contradiction found here is a proof: both sides
are signed by the operator's key, so a record that disagrees with a receipt shows the
operator said two different things about one hand, or signed two different trees.  An
agreement proves less: that the receipt's leaves are the same leaves in the record's tree.
Two checkpoints of *different* sizes are shown to be one log (the smaller a prefix of the
larger) only by a consistency proof, which the files do not carry: ask the operator's
``/api/v1/log/proof/consistency``, or let ``tiplu monitor --compare`` gossip them.
"""
from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Mapping

from replay.errors import MalformedError

from ...errors import ProofError, SignatureError
from ...operator.receipts import ReceiptError, verify_receipt
from ...tlog.checkpoint import Checkpoint, accepts_legacy_time, verify_checkpoint
from ...tlog.merkle import leaf_hash, verify_inclusion
from ...tlog.proof import parse_tlog_proof
from ...tlog.store import leaf_entry


@dataclass(frozen=True, slots=True)
class Contradiction:
    """One thing the record says against the receipt, with both sides as evidence."""

    what: str
    message: str
    receipt: Any = None
    record: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, "message": self.message, "receipt": self.receipt, "record": self.record}


@dataclass
class ReceiptReport:
    hand_id: str
    seat: int | None
    trust: dict[str, Any]
    contradictions: list[Contradiction] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)

    @property
    def consistent(self) -> bool:
        return not self.contradictions

    def to_json(self) -> dict[str, Any]:
        return {"format": "tiplu.receipt-check/1", "hand_id": self.hand_id, "seat": self.seat,
                "consistent": self.consistent, "trust": self.trust,
                "contradictions": [c.to_json() for c in self.contradictions],
                "checked": self.checked, "not_checked": self.not_checked}


def _same(a: Any, b: Any) -> bool:
    return isinstance(a, str) and isinstance(b, str) and hmac.compare_digest(a.lower(), b.lower())


def _key_of(statement: Mapping[str, Any]) -> tuple[Any, ...]:
    return (statement.get("kind"), statement.get("seat"))


def _record_checkpoint(proofs: list[Any], key: str, *, legacy: bool = False) -> tuple[Checkpoint | None, list[Any], str | None]:
    """The record's checkpoint (verified), its parsed proofs, or why not."""
    try:
        parsed = [parse_tlog_proof(p) for p in proofs]
    except MalformedError as exc:
        return None, [], f"a log proof of the record does not parse: {exc}"
    if len({p.checkpoint_text for p in parsed}) != 1:
        return None, parsed, "the record's proofs carry different checkpoints"
    try:
        return verify_checkpoint(parsed[0].checkpoint_text, key, legacy=legacy), parsed, None
    except (SignatureError, MalformedError) as exc:
        return None, parsed, f"the record's checkpoint does not verify under the key: {exc}"


def _decimal_text(v: Any) -> Any:
    try:
        return Decimal(v) if isinstance(v, str) else v
    except (InvalidOperation, ValueError):
        return v


def _compare_terms(hand: Mapping[str, Any], seat: int | None, record: Mapping[str, Any], contradict: Any,
                   checked: list[str]) -> None:
    """The record's table against the signed, logged hand statement of the receipt: the
    stake (point value), the commission, the dealer and every seat's name.  Each difference
    is one contradiction (a fork of the terms, or another name in a seat)."""
    raw_table = record.get("table")
    table = raw_table if isinstance(raw_table, Mapping) else {}
    for name in ("point_value", "commission_pct"):
        mine, theirs = hand.get(name), table.get(name)
        if _decimal_text(mine) != _decimal_text(theirs):
            contradict(name, f"the record's {name.replace('_', ' ')} is {theirs!r}; the hand statement your receipt "
                             f"proves is logged says {mine!r}", mine, theirs)
        else:
            checked.append(f"the record's {name.replace('_', ' ')} is the logged one ({mine})")
    if hand.get("dealer") != table.get("dealer"):
        contradict("dealer", f"the record's dealer is seat {table.get('dealer')!r}; the logged hand statement says "
                             f"seat {hand.get('dealer')!r}", hand.get("dealer"), table.get("dealer"))
    raw_mine_seats = hand.get("seats")
    mine_seats = raw_mine_seats if isinstance(raw_mine_seats, list) else []
    raw_their_seats = table.get("seats")
    their_seats = raw_their_seats if isinstance(raw_their_seats, list) else []
    names = {s.get("seat"): s.get("player") for s in their_seats if isinstance(s, Mapping)}
    wrong = 0
    for s in mine_seats:
        if not isinstance(s, Mapping):
            continue
        n, who = s.get("seat"), s.get("player")
        if names.get(n) != who:
            wrong += 1
            yours = " (your seat)" if n == seat else ""
            contradict("seat_name", f"the record seats {names.get(n)!r} at seat {n}{yours}; the hand statement your "
                                    f"receipt proves is logged seats {who!r} there", who, names.get(n))
    if len(their_seats) != len(mine_seats):
        contradict("seats", f"the record has {len(their_seats)} seats; the logged hand statement has {len(mine_seats)}",
                   len(mine_seats), len(their_seats))
    elif not wrong:
        checked.append("the record seats every player where the logged hand statement does")


def compare(receipt: Any, record: Any, *, public_key: str | None = None,
            move_receipts: list[Any] | None = None) -> ReceiptReport:
    """Check ``record`` against ``receipt`` (see the module docstring).

    Raises :class:`~replay.errors.MalformedError` for bad input: a receipt that does not
    hold under the key, or a record that is not a hand record of the receipt's hand."""
    if public_key is None:
        claimed = receipt.get("statements") if isinstance(receipt, Mapping) else None
        key = claimed[0].get("key") if isinstance(claimed, list) and claimed and isinstance(claimed[0], Mapping) else None
        if not isinstance(key, str):
            raise ReceiptError("the receipt names no operator key; pass --public-key")
        trust = {"public_key": key, "basis": "receipt",
                 "note": "NOT a trust anchor: the key the receipt itself names (pin it with --public-key)"}
    else:
        key = public_key.lower()
        trust = {"public_key": key, "basis": "pinned"}
    r = verify_receipt(receipt, key)
    if not isinstance(record, Mapping) or not isinstance(record.get("fairness"), Mapping):
        raise MalformedError("the record is not a hand record (a JSON object with 'fairness')")
    if record.get("hand_id") != r.hand_id:
        raise MalformedError(f"the receipt is for hand {r.hand_id!r}, the record for {record.get('hand_id')!r}")
    report = ReceiptReport(r.hand_id, r.seat, trust)
    f = record["fairness"]
    raw_statements = f.get("statements")
    statements = raw_statements if isinstance(raw_statements, list) else []
    proofs = f.get("log_proofs")

    def contradict(what: str, message: str, mine: Any = None, theirs: Any = None) -> None:
        report.contradictions.append(Contradiction(what, message, mine, theirs))

    cp: Checkpoint | None = None
    parsed: list[Any] = []
    if not isinstance(proofs, list) or len(proofs) != len(statements):
        report.not_checked.append(f"the record ({record.get('format')}) carries no log evidence: it is not "
                                  "log-bound, so only its statements and what they bind were compared")
    else:
        cp, parsed, why = _record_checkpoint(proofs, key, legacy=accepts_legacy_time(record.get("format")))
        if why:
            contradict("record_checkpoint", why)
    # 2. every statement of the receipt, the same leaf in the record
    for index, st, signed in zip(r.indices, r.statements, r.signed):
        name = f"{st.get('kind')} statement" + (f" of seat {st['seat']}" if "seat" in st else "")
        entry = leaf_entry(signed)
        matches = [(k, s) for k, s in enumerate(statements)
                   if isinstance(s, Mapping) and isinstance(s.get("statement"), Mapping)
                   and _key_of(s["statement"]) == _key_of(st)]
        if not matches:
            contradict("missing_statement", f"the record has no {name}; your receipt proves it is leaf "
                                            f"{index} of the operator's log", signed)
            continue
        k, s = matches[0]
        try:
            same = leaf_entry(s) == entry
        except (TypeError, ValueError, KeyError):
            same = False
        if not same:
            contradict("different_statement", f"the record's {name} is not the one your receipt proves "
                                              f"is leaf {index} of the operator's log (leaf hash "
                                              f"{leaf_hash(entry).hex()})", signed, s)
            continue
        if cp is None or k >= len(parsed):
            report.not_checked.append(f"the record's proof of your {name} (the record's checkpoint "
                                      "does not hold)")
            continue
        p = parsed[k]
        if p.index != index:
            contradict("different_index", f"the record puts your {name} at leaf {p.index}; your receipt "
                                          f"proves it is leaf {index}", index, p.index)
            continue
        try:
            verify_inclusion(leaf_hash(entry), p.index, cp.size, list(p.path), cp.root)
        except ProofError as exc:
            contradict("bad_record_proof", f"the record's proof of your {name} (leaf {index}) does not "
                                           f"lead to its checkpoint's root: {exc}")
            continue
        report.checked.append(f"your {name} is leaf {index} in the record's tree too "
                              f"(leaf hash {leaf_hash(entry).hex()})")
    # 3. what the receipt binds
    seats = f.get("seat_commitments")
    seat_theirs = seats[r.seat] if isinstance(seats, list) and r.seat is not None and 0 <= r.seat < len(seats) else None
    for label, mine, theirs in (("server_commitment", r.server_commitment, f.get("server_commitment")),
                                ("ruleset_hash", r.ruleset_hash, f.get("ruleset_hash")),
                                ("seat_commitment", r.seat_commitment, seat_theirs)):
        if mine is None:
            continue
        if not _same(mine, theirs):
            contradict(label, f"the record's {label.replace('_', ' ')} {theirs} is not {mine}, the one your "
                              "receipt's signed, logged statements bind", mine, theirs)
        else:
            report.checked.append(f"the record's {label.replace('_', ' ')} is the one your receipt binds ({mine})")
    # 3b. format 3: the terms and names of the hand statement the receipt holds
    if r.hand is not None:
        _compare_terms(r.hand, r.seat, record, contradict, report.checked)
    # 3c. the moves as played: each move receipt the seat kept against the record's moves
    if move_receipts:
        from .move_receipts import compare_moves

        found, agree = compare_moves(move_receipts, record, key)
        for c in found:
            contradict("moves", c.message, c.receipt, c.record_head)
        if agree:
            report.checked.append(f"the record's moves give the head of {agree} of your move receipts")
    # 4. the checkpoints
    rc = r.checkpoint
    if cp is not None:
        if rc.size == cp.size:
            if not hmac.compare_digest(rc.root, cp.root):
                contradict("fork", f"the operator signed two roots for log size {rc.size}: {rc.root.hex()} (your "
                                   f"receipt) and {cp.root.hex()} (the record): its log is forked", rc.text, cp.text)
            else:
                report.checked.append(f"both checkpoints are of size {rc.size} with one root")
        else:
            report.not_checked.append(
                f"your receipt's checkpoint (size {rc.size}) and the record's (size {cp.size}) are one log only if "
                "a consistency proof says so; the files carry none (ask the operator's /api/v1/log/proof/consistency "
                "or compare with tiplu monitor --compare)")
    return report
