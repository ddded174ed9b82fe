"""Signed statements: how the ledger publishes each step of a hand.

Every statement is a JSON object ``{"type": "tiplu.statement/1", "kind": ..., "hand_id": ...,
<the kind's fields>, "time": "<ISO-8601 UTC>"}``, signed by the operator's Ed25519 key over
its canonical JSON (:meth:`audit.signing.SigningKey.sign`).  The content never depends on
the row's ``seq``, so a statement verifies alone, with the operator's public key.  The
statements table is append-only; the transparency log makes each row a leaf in ``seq``
order.  ``docs/records.md`` ("Statements") lists the kinds and their fields.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Iterator, Mapping

from sqlite_utils import Database

from replay.canonical import canonical_json
from replay.errors import MalformedError

from ..errors import LedgerIntegrityError
from ..signing import STATEMENT_TYPE, SigningKey, verify_statement
from ..tlog.store import TransparencyLog, leaf_entry_of_hex

KINDS = ("hand", "commitment", "seat-receipt", "seat-reveal", "deal", "record", "reveal", "cancel")


def format_time(now: datetime) -> str:
    """ISO-8601 UTC with milliseconds and a ``Z``: ``2026-11-30T14:35:00.000Z``."""
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise MalformedError("the clock must give a timezone-aware datetime")
    return now.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class StoredStatement:
    """One row of the statements log: its ``seq`` and the signed statement."""

    seq: int
    hand_id: str | None
    kind: str
    signed: Mapping[str, Any] = field(repr=False)
    created_at: str

    @property
    def statement(self) -> dict[str, Any]:
        return dict(self.signed["statement"])

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "hand_id": self.hand_id, "kind": self.kind, **json.loads(json.dumps(self.signed))}

    def verify(self, public_key_hex: str) -> dict[str, Any]:
        """Verify the signature under ``public_key_hex`` (raises SignatureError); the statement."""
        return verify_statement(self.signed, public_key_hex)


_INSERT = "INSERT INTO statements (hand_id, kind, statement, key, sig, created_at) VALUES (?, ?, ?, ?, ?, ?)"


def append_statement(db: Database, key: SigningKey, kind: str, hand_id: str,
                     fields: Mapping[str, Any], time: str) -> tuple[int, dict[str, Any]]:
    """Sign and append one statement (call inside :func:`.store.atomic`); ``(seq, signed)``.

    The statement's canonical JSON is made once: it is what is signed, the row's text and
    the inside of its log leaf (:func:`~audit.tlog.store.leaf_entry_of_hex`)."""
    assert kind in KINDS, kind
    stmt = {**fields, "type": STATEMENT_TYPE, "kind": kind, "hand_id": hand_id, "time": time}
    text = canonical_json(stmt)
    signed = {"statement": stmt, "key": key.public_hex, "sig": key.sign_bytes(text)}
    cur = db.conn.execute(_INSERT, (hand_id, kind, text.decode("utf-8"), signed["key"], signed["sig"], time))
    seq = cur.lastrowid
    entry = leaf_entry_of_hex(text, signed["key"], signed["sig"])
    index = TransparencyLog(db, migrate=False).append_in_transaction(entry, index=seq - 1)  # all or nothing with the row
    if index != seq - 1:
        raise LedgerIntegrityError(f"statement {seq} would be log leaf {index}: the log and the ledger disagree")
    return seq, signed


def _row(row: tuple) -> StoredStatement:
    seq, hand_id, kind, text, key, sig, created_at = row
    return StoredStatement(seq, hand_id, kind, {"statement": json.loads(text), "key": key, "sig": sig}, created_at)


_COLS = "seq, hand_id, kind, statement, key, sig, created_at"


def iter_statements(db: Database, hand_id: str | None = None, since_seq: int = 0) -> Iterator[StoredStatement]:
    """Statements with ``seq > since_seq`` (of one hand, or all), in ``seq`` order, streamed."""
    if hand_id is None:
        cur = db.execute(f"SELECT {_COLS} FROM statements WHERE seq > ? ORDER BY seq", [since_seq])
    else:
        cur = db.execute(f"SELECT {_COLS} FROM statements WHERE hand_id = ? AND seq > ? ORDER BY seq",
                         [hand_id, since_seq])
    for row in cur:
        yield _row(row)

