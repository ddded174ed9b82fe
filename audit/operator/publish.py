"""Build and publish hand records (``tiplu.hand/3``) from the ledger.

* :func:`build_record` -- what an operator attaches at ``finish``: table, ruleset, the
  fairness inputs known by then (commitments and seat seeds), the moves and the claimed
  outcome with payouts.  No server seed, no statements (they come after, or sign it).
* :func:`published_record` -- the record as the public sees it: the attached record plus
  every signed statement of the hand, their log evidence (:func:`log_proofs`: one C2SP
  tlog-proof per statement, all under one checkpoint signed by the operator) and, once
  revealed, the server seed.
* :func:`publish` -- store that published record once, after the reveal, in the ledger's
  append-only ``published_records`` table; :func:`get_published` and
  :func:`iter_published` read it back (streamed, in publication order).  This is the
  artifact auditors audit and the website serves.
* :func:`reveal_and_publish` -- the operator's last step of an honest hand, as the CLI
  (``tiplu hand reveal``) and the operator API take it: reveal, then publish.  The two are
  separate writes: if the second is lost the hand is revealed but unpublished, every audit
  of the ledger reports it ``unpublished`` past the grace period (:mod:`audit.auditor.sources.coverage`),
  and ``tiplu hand publish`` (``POST /api/v1/operator/hands/<id>/publish``) repairs it.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from replay.errors import MalformedError
from replay.game import Outcome
from msgspec import UNSET

from replay.record_model import (FairnessDoc, HandRecordDoc, OutcomeDoc, PayoutsDoc, RulesetDoc, SeatDoc, TableDoc,
                                 record_json)
from replay.records import LOG_BOUND_FORMATS, RECORD_FORMAT
from replay.settlement import Settlement

from ..errors import LedgerIntegrityError, NotFoundError
from ..tlog.checkpoint import DEFAULT_ORIGIN, Checkpoint, make_checkpoint, parse_checkpoint
from ..tlog.logs import operator_origin
from ..tlog.proof import format_tlog_proof
from ..tlog.store import TransparencyLog, leaf_entry

if TYPE_CHECKING:
    from ..signing import SigningKey
    from sqlite_utils import Database

    from audit.operator.ledger import Ledger


def build_record(ledger: Ledger, hand_id: str, *, moves: Sequence[Mapping[str, Any]], outcome: Outcome,
                 settlement: Settlement, carry: Mapping[str, Any] | None = None,
                 hand_no: int | None = None) -> dict[str, Any]:
    """The record an operator attaches at ``finish`` for a dealt hand of the ledger, written
    through the record model (:class:`replay.record_model.HandRecordDoc`): a field it does not
    know is a ``TypeError``, a value its schema refuses a :class:`MalformedError`."""
    hand = ledger.get_hand(hand_id)
    table = ledger.table(hand.table_id)
    server_commitment = hand.server_seed_commitment
    seat_commitments = [s.commitment for s in hand.seats if s.commitment is not None]
    player_seeds = [s.seed for s in hand.seats if s.seed is not None]
    if server_commitment is None or not len(seat_commitments) == len(player_seeds) == len(hand.seats):
        raise MalformedError(f"hand {hand_id!r} is not dealt: its seeds are not all committed and revealed")
    doc = HandRecordDoc(
        format=RECORD_FORMAT,
        hand_id=hand_id,
        table=TableDoc(
            table_id=hand.table_id, operator=hand.operator, public_key=ledger.public_key(hand.operator),
            seats=[SeatDoc(seat=s.seat, player=s.player) for s in hand.seats], dealer=hand.dealer,
            point_value=table.point_value, commission_pct=table.commission_pct, carry=dict(carry or {}),
            hand_no=UNSET if hand_no is None else hand_no),
        ruleset=RulesetDoc(**hand.ruleset),
        fairness=FairnessDoc(
            protocol="v1", ruleset_hash=hand.ruleset_hash, server_commitment=server_commitment,
            seat_commitments=seat_commitments, player_seeds=player_seeds),
        moves=[dict(m) for m in moves],
        outcome=OutcomeDoc(**outcome.to_json(), payouts=PayoutsDoc(**settlement.to_json())),
    )
    return record_json(doc)


def covering_checkpoint(ledger: Ledger, size: int, *, operator: str, origin: str = DEFAULT_ORIGIN,
                        now: datetime | None = None, key: SigningKey | None = None) -> Checkpoint:
    """A checkpoint of ``operator``'s log (origin :func:`~audit.tlog.logs.operator_origin` of
    the base ``origin``) whose tree covers the first ``size`` leaves: the latest one that log
    issued when it does (one size, one checkpoint), else the log's current head signed now
    with the operator's key (``key``, else the ledger's) and stored with the others.  Never
    another operator's checkpoint: each operator signs its own log."""
    if key is not None and key.public_hex != ledger.public_key(operator):
        raise LedgerIntegrityError(f"the key given is not operator {operator!r}'s: an operator's log is "
                                   f"signed by its own key only")
    log = TransparencyLog(ledger.db, migrate=False)
    log_origin = operator_origin(origin, operator)
    latest = log.latest_checkpoint(log_origin)
    if latest is not None:
        cp = parse_checkpoint(latest, legacy=True)
        if cp.size >= size and cp.origin == log_origin and cp.legacy_time is None:  # never hand out a legacy body
            return cp
    if now is None:
        clock = ledger._clock
        now = clock() if clock is not None else datetime.now(timezone.utc)
    if key is None:
        key = ledger.signing_key(operator)
    return make_checkpoint(log, key, origin=log_origin, now=now)


def log_proofs(ledger: Ledger, statements: Sequence[Any], *, operator: str, origin: str = DEFAULT_ORIGIN,
               now: datetime | None = None) -> list[str]:
    """One C2SP tlog-proof per stored statement (leaf ``seq - 1``), all under one checkpoint
    covering the last of them (``docs/records.md``, "Log evidence").  When the ledger has a
    witness hook (``ledger.cosign_checkpoint``, :mod:`audit.tlog.witnessing`), the checkpoint
    carries the cosignatures the witnesses give it."""
    if not statements:
        return []
    log = TransparencyLog(ledger.db, migrate=False)
    cp = covering_checkpoint(ledger, max(s.seq for s in statements), operator=operator, origin=origin, now=now)
    cosign = ledger.cosign_checkpoint
    text = cp.text if cosign is None else cosign(log, cp.text)
    proofs = []
    for s in statements:
        index = s.seq - 1  # leaf i is the i-th statement in seq order (seq counts from 1)
        if log.entry(index) != leaf_entry(s.signed):
            raise LedgerIntegrityError(f"log leaf {index} is not statement {s.seq}")
        proofs.append(format_tlog_proof(index, log.inclusion_proof(index, cp.size), text))
    return proofs


def published_record(ledger: Ledger, hand_id: str, *, stored: Mapping[str, Any] | None = None,
                     origin: str = DEFAULT_ORIGIN, now: datetime | None = None) -> dict[str, Any]:
    """The public record of a finished hand: attached record + statements + their log
    proofs + revealed seed.  Signs a checkpoint (operator key, ``origin``) when no issued
    one covers the hand's statements yet."""
    if stored is None:
        row = ledger.db.execute("SELECT record FROM hand_records WHERE hand_id = ?", [hand_id]).fetchone()
        if row is None:
            raise NotFoundError(f"hand {hand_id!r} has no record yet")
        stored = json.loads(row[0])
    record: dict[str, Any] = json.loads(json.dumps(stored))  # a deep copy of the stored object
    hand = ledger.get_hand(hand_id)
    fairness = record.get("fairness")
    if not isinstance(fairness, dict):  # an attached record's fairness that is no object: the ledger's parts only
        fairness = record["fairness"] = {}
    statements = list(ledger.statements(hand_id))
    fairness["statements"] = [s.signed for s in statements]
    if record.get("format") in LOG_BOUND_FORMATS:
        fairness["log_proofs"] = log_proofs(ledger, statements, operator=hand.operator, origin=origin, now=now)
    fairness["server_seed"] = hand.server_seed
    return record


def publish(ledger: Ledger, hand_id: str, record: Mapping[str, Any] | None = None, *, now: datetime | None = None,
            origin: str = DEFAULT_ORIGIN) -> dict[str, Any]:
    """Store the published record of a revealed hand (built from the ledger unless given)."""
    from replay.canonical import canonical_json

    from ..errors import LedgerStateError
    from .ledger.store import atomic

    hand = ledger.get_hand(hand_id)
    if hand.server_seed is None:
        raise LedgerStateError(f"hand {hand_id!r} is not revealed: nothing to publish yet")
    record = (published_record(ledger, hand_id, origin=origin, now=now) if record is None
              else json.loads(json.dumps(record)))
    with atomic(ledger.db) as db:
        if db.execute("SELECT 1 FROM published_records WHERE hand_id = ?", [hand_id]).fetchone():
            raise LedgerStateError(f"hand {hand_id!r} is already published")
        db.execute("INSERT INTO published_records (hand_id, record, preset, table_id, published_at) "
                   "VALUES (?, ?, ?, ?, ?)",
                   [hand_id, canonical_json(record).decode(), hand.preset, hand.table_id, ledger._time(now)])
    return record


def reveal_and_publish(ledger: Ledger, hand_id: str, *, now: datetime | None = None,
                       origin: str = DEFAULT_ORIGIN) -> tuple[dict[str, Any], dict[str, Any]]:
    """Reveal the hand's server seed, then publish its record (its log proofs under a
    checkpoint of ``origin``): ``(reveal statement, record)``."""
    signed = ledger.reveal(hand_id, now=now)
    return signed, publish(ledger, hand_id, now=now, origin=origin)


def is_published(ledger: Ledger, hand_id: str) -> bool:
    return ledger.db.execute("SELECT 1 FROM published_records WHERE hand_id = ?", [hand_id]).fetchone() is not None


def get_published(ledger: Ledger, hand_id: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(get_published_text(ledger, hand_id))  # published: a JSON object
    return record


def get_published_text(ledger: Ledger, hand_id: str) -> str:
    """The published record of a hand exactly as stored (JSON text); :class:`NotFoundError`
    when the hand has none."""
    row = ledger.db.execute("SELECT record FROM published_records WHERE hand_id = ?", [hand_id]).fetchone()
    if row is None:
        raise NotFoundError(f"hand {hand_id!r} has no published record")
    text: str = row[0]  # published_records.record is TEXT NOT NULL
    return text


def iter_published(ledger: Ledger, *, table_id: str | None = None) -> Iterator[tuple[str, str]]:
    """``(hand_id, record JSON text)`` of every published record, in publication order, streamed."""
    return published_rows(ledger.db, table_id=table_id)


def published_rows(db: Database, *, table_id: str | None = None) -> Iterator[tuple[str, str]]:
    """:func:`iter_published` from the ledger's database (an auditor's read-only one)."""
    sql = "SELECT hand_id, record FROM published_records"
    args: list[Any] = []
    if table_id is not None:
        sql += " WHERE table_id = ?"
        args.append(table_id)
    yield from db.execute(sql + " ORDER BY rowid", args)
