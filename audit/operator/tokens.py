"""API tokens: who may drive a hand through the web API.

Two kinds of token, both bearer secrets shown once when issued and stored only hashed:

* an **operator token** (``role="operator"``) acts for one operator: it creates tables and
  hands and drives them through the lifecycle (commit, deal, finish, reveal, cancel);
* a **seat token** (``role="seat"``) acts for one seat of one hand: it submits that seat's
  seed commitment and, later, its seed -- nothing else, and no other seat.

A token reads ``tpl_<id>_<secret>``: ``id`` (16 hex digits) names the row, ``secret`` is 32
random bytes (``secrets``) in URL-safe base64.  The database keeps ``SHA-256(token)`` in
hex; :func:`authenticate` finds the row by id and compares the hashes with
:func:`hmac.compare_digest`.  A wrong, unknown or revoked token is the same
:class:`~audit.errors.AuthError` ("invalid token"), so a caller learns nothing about which.

Storage: the ledger's SQLite file, tables ``api_tokens`` and ``api_token_revocations``
created by migrations named ``tokens-*`` (applied with :func:`audit.operator.ledger.store.migrate`,
recorded in the ledger's ``migrations`` table).  Both tables are append-only like the
ledger's own: a token is never edited or deleted, it is revoked by a new row.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlite_utils import Database

from replay.errors import MalformedError

from ..errors import AuthError, NotFoundError
from .ledger.statements import format_time
from .ledger.store import Migration, append_only, atomic, migrate

_TOKEN = re.compile(r"tpl_([0-9a-f]{16})_([A-Za-z0-9_-]{43})")


def _m001_api_tokens(db: Database) -> None:
    db.execute("""CREATE TABLE api_tokens (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('operator', 'seat')),
        operator TEXT NOT NULL REFERENCES operators(name),
        hand_id TEXT REFERENCES hands(id),
        seat INTEGER,
        created_at TEXT NOT NULL,
        CHECK ((role = 'operator' AND hand_id IS NULL AND seat IS NULL)
            OR (role = 'seat' AND hand_id IS NOT NULL AND seat IS NOT NULL)))""")
    db.execute("""CREATE TABLE api_token_revocations (
        token_id TEXT PRIMARY KEY REFERENCES api_tokens(id),
        revoked_at TEXT NOT NULL)""")
    append_only(db, "api_tokens")
    append_only(db, "api_token_revocations")


MIGRATIONS: tuple[Migration, ...] = (("tokens-001_api_tokens", _m001_api_tokens),)


def migrate_tokens(db: Database) -> list[str]:
    """Create the token tables if this ledger file does not have them yet."""
    return migrate(db, MIGRATIONS)


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a valid token speaks for.  ``hand_id``/``seat`` are set only for seat tokens."""

    token_id: str
    role: str
    operator: str
    hand_id: str | None = None
    seat: int | None = None

    @property
    def is_operator(self) -> bool:
        return self.role == "operator"

    def to_json(self) -> dict[str, Any]:
        return {"token_id": self.token_id, "role": self.role, "operator": self.operator,
                "hand_id": self.hand_id, "seat": self.seat}


def token_hash(token: str) -> str:
    """The stored form of a token: hex SHA-256 of its UTF-8 text."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now(now: datetime | None) -> str:
    return format_time(now or datetime.now(timezone.utc))


def _new_token() -> tuple[str, str]:
    token_id = secrets.token_hex(8)
    secret = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode("ascii").rstrip("=")
    return token_id, f"tpl_{token_id}_{secret}"


def _issue(db: Database, role: str, operator: str, hand_id: str | None, seat: int | None,
           now: datetime | None) -> tuple[Principal, str]:
    migrate_tokens(db)
    token_id, token = _new_token()
    with atomic(db):
        db.execute("INSERT INTO api_tokens (id, token_hash, role, operator, hand_id, seat, created_at)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?)", [token_id, token_hash(token), role, operator, hand_id, seat,
                                                    _now(now)])
    return Principal(token_id, role, operator, hand_id, seat), token


def issue_operator_token(db: Database, operator: str, *, now: datetime | None = None) -> tuple[Principal, str]:
    """A new operator token; returns ``(principal, token)`` -- the token is shown only now."""
    if db.execute("SELECT 1 FROM operators WHERE name = ?", [operator]).fetchone() is None:
        raise NotFoundError(f"no operator {operator!r}")
    return _issue(db, "operator", operator, None, None, now)


def issue_seat_token(db: Database, hand_id: str, seat: int, *, now: datetime | None = None) -> tuple[Principal, str]:
    """A new token for one seat of one hand (the player's): ``(principal, token)``."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise MalformedError("a seat is a whole number (0 = first seat)")
    row = db.execute("SELECT operator, n_seats FROM hands WHERE id = ?", [hand_id]).fetchone()
    if row is None:
        raise NotFoundError(f"no hand {hand_id!r}")
    if not 0 <= seat < row[1]:
        raise NotFoundError(f"hand {hand_id!r} has no seat {seat} (seats 0..{row[1] - 1})")
    return _issue(db, "seat", row[0], hand_id, seat, now)


def authenticate(db: Database, token: object) -> Principal:
    """The principal of a valid, unrevoked token; :class:`AuthError` ("invalid token") otherwise."""
    m = _TOKEN.fullmatch(token) if isinstance(token, str) else None
    if m is None:
        raise AuthError("invalid token")
    migrate_tokens(db)
    row = db.execute("SELECT t.id, t.token_hash, t.role, t.operator, t.hand_id, t.seat,"
                     " EXISTS(SELECT 1 FROM api_token_revocations r WHERE r.token_id = t.id)"
                     " FROM api_tokens t WHERE t.id = ?", [m.group(1)]).fetchone()
    presented = token_hash(m.group(0))  # the token itself (fullmatch)
    stored = row[1] if row is not None else "0" * 64
    if not hmac.compare_digest(stored, presented) or row is None or row[6]:
        raise AuthError("invalid token")
    return Principal(row[0], row[2], row[3], row[4], row[5])


def revoke(db: Database, token_id: str, *, now: datetime | None = None) -> None:
    """Revoke a token by id (a new row; the token row itself is never changed)."""
    migrate_tokens(db)
    with atomic(db):
        if db.execute("SELECT 1 FROM api_tokens WHERE id = ?", [token_id]).fetchone() is None:
            raise NotFoundError(f"no token {token_id!r}")
        if db.execute("SELECT 1 FROM api_token_revocations WHERE token_id = ?", [token_id]).fetchone() is None:
            db.execute("INSERT INTO api_token_revocations (token_id, revoked_at) VALUES (?, ?)",
                       [token_id, _now(now)])
