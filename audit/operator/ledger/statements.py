"""Signed statements: how the ledger publishes each step of a hand.

Every statement is a JSON object ``{"type": "tiplu.statement/2", "kind": ..., "hand_id": ...,
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

import orjson
from sqlite_utils import Database

from replay.canonical import canonical_json
from replay.errors import MalformedError

from ...errors import LedgerIntegrityError
from ...signing import STATEMENT_TYPE, SigningKey, verify_statement
from ...tlog.store import append_leaf, leaf_entry_of_hex

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
_SCALARS = (str, int, bool, type(None))
_dumps = orjson.dumps
_SORTED = orjson.OPT_SORT_KEYS


def statement_json(stmt: dict[str, Any]) -> bytes:
    """:func:`~replay.canonical.canonical_json` of a statement, the same bytes: a statement
    whose values are all strings, integers, booleans or ``None`` (of exactly those types --
    most kinds) is plain JSON without a walk through it, so orjson's sorted bytes are its
    canonical form, as :func:`~replay.canonical.canonical_json` would write them; any other
    (a list, a ruleset, a too-big integer) goes through
    :func:`~replay.canonical.canonical_json` itself."""
    for value in stmt.values():
        if type(value) not in _SCALARS:
            return canonical_json(stmt)
    try:
        return _dumps(stmt, option=_SORTED)
    except orjson.JSONEncodeError:  # an integer beyond 64 bits: the general way decides
        return canonical_json(stmt)


def append_statement(db: Database, key: SigningKey, kind: str, hand_id: str,
                     fields: Mapping[str, Any], time: str) -> tuple[int, dict[str, Any]]:
    """Sign and append one statement (call inside :func:`.store.atomic`); ``(seq, signed)``.

    The statement's canonical JSON is made once: it is what is signed, the row's text and
    the inside of its log leaf (:func:`~audit.tlog.store.leaf_entry_of_hex`), appended in
    the same transaction (:func:`~audit.tlog.store.append_leaf`): all or nothing with the row."""
    assert kind in KINDS, kind
    stmt = {**fields, "type": STATEMENT_TYPE, "kind": kind, "hand_id": hand_id, "time": time}
    text = statement_json(stmt)
    pub = key.public_hex
    sig = key.sign_bytes(text)
    conn = db.conn
    seq = conn.execute(_INSERT, (hand_id, kind, text.decode("utf-8"), pub, sig, time)).lastrowid
    if seq is None:  # sqlite3 gives an INSERT's row id; None only if no row was written
        raise LedgerIntegrityError(f"statement {kind} of hand {hand_id} was not written")
    index = append_leaf(conn, leaf_entry_of_hex(text, pub, sig), seq - 1)
    if index != seq - 1:
        raise LedgerIntegrityError(f"statement {seq} would be log leaf {index}: the log and the ledger disagree")
    return seq, {"statement": stmt, "key": pub, "sig": sig}


def _row(row: tuple[Any, ...]) -> StoredStatement:
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

