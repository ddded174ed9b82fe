"""Public views of the ledger: what any reader may see (never a private key, never a
server seed before its reveal).

The readers here select only from the public ledger file, which holds no secret (the
secret store is a separate file, :mod:`.secret_store`).  A hand's server seed appears in its view only once the
hand is revealed or cancelled, taken from the reveal (or cancel) row, which is public.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator

from sqlite_utils import Database

from ...errors import NotFoundError
from .lifecycle import HandState, hand_state


@dataclass(frozen=True, slots=True)
class OperatorView:
    name: str
    public_key: str
    key_id: str
    key_stored: bool
    created_at: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "public_key": self.public_key, "key_id": self.key_id,
                "key_stored": self.key_stored, "created_at": self.created_at}


@dataclass(frozen=True, slots=True)
class TableView:
    id: str
    operator: str
    preset: str
    ruleset: dict[str, Any] = field(repr=False, compare=False)
    ruleset_hash: str
    seats: int
    point_value: str
    commission_pct: str
    created_at: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "operator": self.operator, "preset": self.preset, "ruleset": self.ruleset,
                "ruleset_hash": self.ruleset_hash, "seats": self.seats, "point_value": self.point_value,
                "commission_pct": self.commission_pct, "created_at": self.created_at}


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    player: str
    commitment: str | None = None
    seed: str | None = None  # the player's seed, public once that seat has revealed

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "commitment": self.commitment, "seed": self.seed}


@dataclass(frozen=True, slots=True)
class HandView:
    """A hand as the public sees it.  ``server_seed`` is ``None`` until the reveal (or cancel)."""

    id: str
    table_id: str
    operator: str
    preset: str
    ruleset_hash: str
    dealer: int
    state: HandState
    seats: tuple[SeatView, ...]
    server_seed_commitment: str | None
    server_seed: str | None
    record_hash: str | None
    missing_seats: tuple[int, ...] | None
    created_at: str
    ruleset: dict[str, Any] = field(repr=False, compare=False)

    @property
    def n_seats(self) -> int:
        return len(self.seats)

    def to_json(self) -> dict[str, Any]:
        return {"hand_id": self.id, "table_id": self.table_id, "operator": self.operator,
                "preset": self.preset, "ruleset_hash": self.ruleset_hash, "dealer": self.dealer,
                "state": self.state.value, "seats": [s.to_json() for s in self.seats],
                "server_seed_commitment": self.server_seed_commitment, "server_seed": self.server_seed,
                "record_hash": self.record_hash,
                "missing_seats": list(self.missing_seats) if self.missing_seats is not None else None,
                "created_at": self.created_at}


@dataclass(frozen=True, slots=True)
class RecordEntry:
    """A finished hand's record, with the seq of the statement that signed its hash."""

    hand_id: str
    record: dict[str, Any] = field(repr=False)
    record_hash: str
    seq: int


def get_operator(db: Database, name: str) -> OperatorView:
    """The public row of an operator (``key_stored`` is filled in by :meth:`Ledger.operator`,
    which asks the secret store; this module reads the public file only)."""
    row = db.execute("SELECT name, public_key, key_id, created_at FROM operators WHERE name = ?", [name]).fetchone()
    if row is None:
        raise NotFoundError(f"no operator {name!r}")
    return OperatorView(row[0], row[1], row[2], False, row[3])


def get_table(db: Database, table_id: str) -> TableView:
    row = db.execute("SELECT id, operator, preset, ruleset, ruleset_hash, seats, point_value, commission_pct,"
                     " created_at FROM ledger_tables WHERE id = ?", [table_id]).fetchone()
    if row is None:
        raise NotFoundError(f"no table {table_id!r}")
    return TableView(row[0], row[1], row[2], json.loads(row[3]), *row[4:])


def get_hand(db: Database, hand_id: str) -> HandView:
    row = db.execute("SELECT id, table_id, operator, preset, ruleset, ruleset_hash, dealer, created_at"
                     " FROM hands WHERE id = ?", [hand_id]).fetchone()
    if row is None:
        raise NotFoundError(f"no hand {hand_id!r}")
    hid, table_id, operator, preset, ruleset, ruleset_hash, dealer, created_at = row
    seats = tuple(
        SeatView(seat, player, commitment, seed)
        for seat, player, commitment, seed in db.execute(
            "SELECT s.seat, s.player, c.commitment, r.seed FROM hand_seats s"
            " LEFT JOIN seat_commitments c ON c.hand_id = s.hand_id AND c.seat = s.seat"
            " LEFT JOIN seat_reveals r ON r.hand_id = s.hand_id AND r.seat = s.seat"
            " WHERE s.hand_id = ? ORDER BY s.seat", [hid]))

    def one(sql: str) -> Any:
        r = db.execute(sql, [hid]).fetchone()
        return r[0] if r else None

    commitment = one("SELECT commitment FROM hand_commitments WHERE hand_id = ?")
    seed = one("SELECT server_seed FROM hand_reveals WHERE hand_id = ?")
    cancel = one("SELECT statement FROM statements WHERE hand_id = ? AND kind = 'cancel'")
    missing = None
    if cancel is not None:
        stmt = json.loads(cancel)
        missing = tuple(stmt["missing_seats"])
        seed = stmt.get("server_seed") or seed
    return HandView(hid, table_id, operator, preset, ruleset_hash, dealer, hand_state(db, hid), seats,
                    commitment, seed, one("SELECT record_hash FROM hand_records WHERE hand_id = ?"),
                    missing, created_at, json.loads(ruleset))


def list_hands(db: Database, *, table_id: str | None = None, state: HandState | str | None = None,
               limit: int | None = None) -> Iterator[HandView]:
    """Hands in creation order, optionally of one table and/or in one state."""
    want = HandState(state) if state is not None else None
    sql, args = "SELECT id FROM hands", []
    if table_id is not None:
        sql, args = sql + " WHERE table_id = ?", [table_id]
    count = 0
    for (hid,) in db.execute(sql + " ORDER BY rowid", args).fetchall():
        if limit is not None and count >= limit:
            return
        view = get_hand(db, hid)
        if want is None or view.state is want:
            count += 1
            yield view


def iter_records(db: Database) -> Iterator[RecordEntry]:
    """Every attached hand record, in the order they were attached, streamed."""
    for hid, text, rhash, seq in db.execute(
            "SELECT hand_id, record, record_hash, seq FROM hand_records ORDER BY seq"):
        yield RecordEntry(hid, json.loads(text), rhash, seq)
