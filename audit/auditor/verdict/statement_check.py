"""The signed statements of a hand, and what a record's statements must say.

Kinds, in the protocol's order (``docs/ledger.md`` lists each kind's fields):

====================  =====  ===============================================
kind                  phase  says
====================  =====  ===============================================
``hand``              0      table, seats, dealer, money, ruleset hash
``commitment``        1      the server-seed commitment
``seat-receipt``   2      one seat's seed commitment (the player's receipt)
``seat-reveal``       3      one seat's seed -- only after every seat committed
``deal``              4      the hand is dealt (all seeds known)
``record``            5      the hash of the hand record's core
``reveal``            6      the server seed
====================  =====  ===============================================

:func:`check_statements` checks that every statement is under the trusted operator key
(and, when asked, that its signature verifies), that the statements agree with the record,
and that they come in this order.  Whether they are in the operator's log is
:mod:`audit.auditor.evidence.logcheck`.  Faults name a statement as :func:`replay.faults.statement_label`
does ("statement 11 (deal)", counting from 1, as the hand page and the in-browser check
do).  A badly signed statement is a ``signature`` fault only -- not also "missing".
"""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from replay.canonical import canonical_hash
from replay.errors import MalformedError
from replay.faults import Fault, Reason, statement_label
from replay.movechain import chain_head
from replay.records import HandRecord

from ...errors import SignatureError
from ...signing import STATEMENT_TYPE, verify_statement
from ...consttime import same_text
from ..evidence.logcheck import PHASES

REQUIRED = ("hand", "commitment", "seat-receipt", "seat-reveal", "deal", "record")


def _same(a: Any, b: Any) -> bool:
    return same_text(str(a).lower(), str(b).lower())


def _expectations(record: HandRecord) -> dict[str, dict[str, Any]]:
    """For each kind, the fields its statement must share with the record."""
    f, t = record.fairness, record.table
    seats = [{"seat": i, "player": p} for i, p in enumerate(t.players)]
    return {
        "hand": {"table_id": t.table_id, "operator": t.operator, "ruleset_hash": f.ruleset_hash, "seats": seats, "dealer": t.dealer,
                 "point_value": t.point_value, "commission_pct": t.commission_pct},
        "commitment": {"server_seed_commitment": f.server_commitment, "ruleset_hash": f.ruleset_hash},
        # v2: a seat's receipt binds the server commitment and the rules it was shown
        **({"seat-receipt": {"server_seed_commitment": f.server_commitment, "ruleset_hash": f.ruleset_hash,
                             # v3: and the signed hand statement (terms, names, dealer) the seat was shown
                             **({"hand_hash": _hand_hash(record)} if record.binds_moves else {})}}
           if record.is_log_bound else {}),
        "deal": {"server_seed_commitment": f.server_commitment, "ruleset_hash": f.ruleset_hash,
                 "player_seeds": [s.hex() for s in f.player_seeds], "dealer": t.dealer},
        "record": {"record_hash": record.record_hash, **(_moves_binding(record) if record.binds_moves else {})},
        "reveal": {"server_seed": f.server_seed.hex() if f.server_seed else None},
    }


def _moves_binding(record: HandRecord) -> dict[str, Any]:
    """What a v3 ``record`` statement must say of the moves: the move chain's final head
    over the record's moves (:mod:`replay.movechain`) and their number."""
    try:
        head, n = chain_head(record.hand_id, record.fairness.server_commitment, record.moves)
    except MalformedError:  # a move that has no canonical JSON (a float): no head matches it
        return {"moves_head": None, "n_moves": len(record.moves)}
    return {"moves_head": head, "n_moves": n}


def _hand_hash(record: HandRecord) -> str | None:
    """The hex SHA-256 of the canonical JSON of the record's (first) ``hand`` statement:
    what a v3 ``seat-receipt`` must bind.  ``None`` when the record has none."""
    for signed in record.fairness.statements:  # each a Mapping (replay.records.parse_record)
        st = signed.get("statement")
        if isinstance(st, Mapping) and st.get("kind") == "hand":
            try:
                return canonical_hash(dict(st))
            except MalformedError:
                return None
    return None


def _equal(a: Any, b: Any) -> bool:
    """Whether a statement's ``a`` says the record's ``b`` (a string ``b`` is lower-cased
    already, by :func:`_lowered`)."""
    if type(b) is str:  # the common case first (a str is no Decimal)
        return isinstance(a, str) and same_text(a.lower(), b)
    if isinstance(b, Decimal):
        try:
            return Decimal(str(a)) == b
        except (InvalidOperation, ValueError):
            return False
    return bool(a == b)


def _lowered(expect: dict[str, dict[str, Any]]) -> dict[str, tuple[tuple[str, Any], ...]]:
    """The expectations with every string lower-cased once (``_same`` lower-cases both sides)."""
    return {kind: tuple((name, str(v).lower() if isinstance(v, str) else v) for name, v in fields.items())
            for kind, fields in expect.items()}


#: a statement field that differs from the record because a seed of the record was changed
_AFTER = {"player_seeds": (Reason.SEAT_SEED_MISMATCH,), "server_seed": (Reason.SERVER_SEED_MISMATCH,),
          "ruleset_hash": (Reason.RULESET_MISMATCH,)}


def _unverified_kind(signed: Any) -> tuple[str | None, Any]:
    """The kind and seat a badly signed statement *says* it has -- only to name it."""
    body = signed.get("statement")
    if not isinstance(body, dict):
        return None, None
    kind = body.get("kind")
    return (kind if isinstance(kind, str) else None), body.get("seat")


def _statement_of(signed: Any, key: str, *, check_signature: bool) -> Mapping[str, Any]:
    """The statement of a signed statement whose ``key`` is the trusted one (and, with
    ``check_signature``, whose Ed25519 signature verifies)."""
    if check_signature:
        return verify_statement(signed, key)
    st = signed.get("statement")  # ``signed`` is a Mapping (replay.records.parse_record)
    if not isinstance(st, Mapping):
        raise MalformedError("a signed statement needs 'statement', 'key' and 'sig'")
    if not same_text(str(signed.get("key")).lower(), key):  # here ``key`` is lower-cased by the caller
        raise SignatureError("statement is signed by another key than the trusted operator key")
    return st


def check_statements(record: HandRecord, *, public_key: str | None = None,
                     check_signatures: bool = True) -> list[Fault]:
    """Faults in the record's signed statements (key, content, order; signatures when
    ``check_signatures`` -- a log-bound audit leaves them to the log checkpoint, which
    covers every statement's key and signature bytes)."""
    faults: list[Fault] = []
    key = public_key or record.table.public_key
    other_key = bool(public_key) and not _same(public_key, record.table.public_key)
    if other_key:  # then every statement fails under the trusted key: consequences of this
        faults.append(Fault(Reason.SIGNATURE, "the record names another operator key than the one audited against"))
    f = record.fairness
    expect = _lowered(_expectations(record))
    key_l = str(key).lower()
    seen: set[str] = set()  # the kinds met (a badly signed statement counts: it is there)
    committed: set[int] = set()
    revealed: set[int] = set()
    phase, last_time = -1, ""
    binds = record.binds_moves
    for number, signed in enumerate(f.statements, start=1):
        try:
            st = _statement_of(signed, key if check_signatures else key_l, check_signature=check_signatures)
        except (SignatureError, MalformedError) as exc:
            kind, seat = _unverified_kind(signed)
            faults.append(Fault(Reason.SIGNATURE, f"{statement_label(number, kind)}: {exc}", statement=number,
                                after=(Reason.SIGNATURE,) if other_key else ()))
            # the statement is there, only badly signed: not also "missing" (the signature fault says it)
            if kind in PHASES:
                seen.add(kind)
                if isinstance(seat, int) and kind == "seat-receipt":
                    committed.add(seat)
                elif isinstance(seat, int) and kind == "seat-reveal":
                    revealed.add(seat)
            continue
        kind = st.get("kind")
        name_of = statement_label(number, kind if isinstance(kind, str) else None)
        if kind == "cancel":  # a cancelled hand is never dealt, so never recorded: out of the protocol's order
            faults.append(Fault(Reason.EVENT_ORDER, f"{name_of}: a cancel among a recorded hand's statements (a hand "
                                                    "is cancelled only before the deal, and never recorded)",
                                statement=number))
            continue
        if not isinstance(kind, str) or kind not in PHASES:
            faults.append(Fault(Reason.STATEMENT_MISMATCH, f"{name_of} has unknown kind {kind!r}", statement=number))
            continue
        if binds and st.get("type") != STATEMENT_TYPE:
            faults.append(Fault(Reason.STATEMENT_MISMATCH, f"{name_of} is not a {STATEMENT_TYPE} statement "
                                f"(a {record.format} record's statements are)", statement=number))
        if st.get("hand_id") != record.hand_id:
            faults.append(Fault(Reason.STATEMENT_MISMATCH, f"{name_of} is about another hand", statement=number))
        seen.add(kind)
        for name, value in expect.get(kind, ()):
            if value is None or not _equal(st.get(name), value):
                faults.append(Fault(Reason.STATEMENT_MISMATCH,
                                    f"{name_of}: the signed {kind} statement's {name} differs from the record",
                                    statement=number, after=_AFTER.get(name, ())))
        if kind in ("seat-receipt", "seat-reveal"):
            seat = st.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < record.table.n_seats:
                faults.append(Fault(Reason.STATEMENT_MISMATCH, f"{name_of} names no seat of the table", statement=number))
                continue
            if kind == "seat-receipt":
                committed.add(seat)
                if not _same(st.get("commitment"), f.seat_commitments[seat]):
                    faults.append(Fault(Reason.STATEMENT_MISMATCH,
                                        f"{name_of}: seat {seat}'s signed commitment differs from the record",
                                        statement=number, after=(Reason.SEAT_SEED_MISMATCH,)))
            else:
                if committed != set(range(record.table.n_seats)):
                    faults.append(Fault(Reason.EVENT_ORDER,
                                        f"{name_of}: seat {seat} revealed its seed before every seat had committed",
                                        statement=number))
                revealed.add(seat)
                if not _same(st.get("seed"), f.player_seeds[seat].hex()):
                    faults.append(Fault(Reason.STATEMENT_MISMATCH,
                                        f"{name_of}: seat {seat}'s signed seed differs from the record",
                                        statement=number, after=(Reason.SEAT_SEED_MISMATCH,)))
        p = PHASES[kind]
        time = st.get("time", "")
        if p < phase:
            faults.append(Fault(Reason.EVENT_ORDER, f"{name_of} comes after a later phase", statement=number))
        elif isinstance(time, str) and time < last_time:
            faults.append(Fault(Reason.TIME_ORDER, f"{name_of} is dated before the one before it", statement=number))
        phase = max(phase, p)
        last_time = max(last_time, time if isinstance(time, str) else "")
    for kind in REQUIRED + (("reveal",) if f.server_seed is not None else ()):
        if kind not in seen:
            faults.append(Fault(Reason.STATEMENT_MISMATCH, f"the record carries no signed {kind} statement"))
    if seen and committed != set(range(record.table.n_seats)):
        faults.append(Fault(Reason.STATEMENT_MISMATCH, "not every seat's commitment is signed"))
    if seen and revealed != set(range(record.table.n_seats)):
        faults.append(Fault(Reason.STATEMENT_MISMATCH, "not every seat's reveal is signed"))
    return faults
