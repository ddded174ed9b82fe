"""A hand's lifecycle: the verbs of :class:`~audit.operator.ledger.Ledger` that move one hand on.

:meth:`~HandLifecycle.new_hand`, :meth:`~HandLifecycle.commit`,
:meth:`~HandLifecycle.seed_commit`, :meth:`~HandLifecycle.seed_reveal`,
:meth:`~HandLifecycle.deal`, :meth:`~HandLifecycle.finish`, :meth:`~HandLifecycle.reveal`,
:meth:`~HandLifecycle.cancel` -- each one atomic write that checks the hand's state
(:mod:`.lifecycle`), signs and appends one statement (:mod:`.statements`) and inserts the
step's row, or raises a typed error and changes nothing -- and
:meth:`~HandLifecycle.operator_deal`, the cards for the operator's game server.
:class:`HandLifecycle` is a base of :class:`~audit.operator.ledger.Ledger`, never used alone: it
uses the ledger's connection, clock, signer and secret store (:mod:`.ledger`).

A verb checks its arguments first, then -- under the write lock (``BEGIN IMMEDIATE``) -- the
hand's state, then asks the clock and the key, so a refused call raises the same error as it
always did and the state is read once.  :meth:`~HandLifecycle.commit` then takes a server
seed that is already durable in the secret store (made ahead in batches, one sync for many
hands: :meth:`~.secret_store.SecretStore.take_server_seed`) before it signs the seed's
commitment.  :meth:`~HandLifecycle.finish` also checks the state before it takes the lock:
it runs the record validator (a replay), which must not hold the lock.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import secrets
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from sqlite_utils import Database

from replay.canonical import canonical_hash, canonical_json
from replay.deal import Deal
from replay.fairness import HandRandomness
from replay.errors import MalformedError
from replay.fairness import (SERVER_SEED_BYTES, commit_server_seed, hand_randomness, parse_digest,
                             parse_player_seed, verify_player_seed, verify_server_seed)
from replay.rulesets import Ruleset, allowed_players

from ...errors import LedgerIntegrityError, LedgerStateError, NotFoundError
from ...signing import SigningKey
from . import views
from .inputs import check_id, check_player_name, check_reason, check_seat, name_key, seed_bytes
from .lifecycle import HandState, require, require_step
from .moves import bound_moves
from .statements import append_statement

if TYPE_CHECKING:
    from .secret_store import SecretStore

RecordValidator = Callable[[dict[str, Any], "views.HandView"], None]
#: how many hands' fixed facts one ledger object keeps (:meth:`HandLifecycle._hand_row`)
_KEPT_HANDS = 4096


@functools.lru_cache(maxsize=256)
def _ruleset(text: str) -> Ruleset:
    """A hand's ruleset from its stored JSON text, parsed and checked once per text: the
    ``hands`` row is append-only and a :class:`Ruleset` is frozen, so the text alone
    decides the value (every verb reads it; parsing and checking it was a quarter of an
    append)."""
    return Ruleset.from_json(json.loads(text))


def _fresh_server_seed() -> bytes:
    """A new server seed from the operating system's CSPRNG (``secrets``)."""
    seed = secrets.token_bytes(SERVER_SEED_BYTES)
    if len(seed) != SERVER_SEED_BYTES:  # pragma: no cover - only a replaced ``secrets`` could
        raise MalformedError(f"a server seed is {SERVER_SEED_BYTES} bytes")
    return seed


class HandLifecycle:
    """The hand verbs of :class:`~audit.operator.ledger.Ledger` (see the module's docstring)."""

    # provided by Ledger
    db: Database
    _hands_kept: dict[str, tuple[tuple[str, str, int, int, Ruleset], list[str] | None]]
    _secrets_path: str
    _legacy: list[str]
    _validate_record: RecordValidator | None

    if TYPE_CHECKING:
        def _time(self, now: datetime | None) -> str: ...
        def _write(self) -> contextlib.AbstractContextManager[Database]: ...
        def _signer(self, operator: str) -> SigningKey: ...
        def _secrets(self) -> SecretStore: ...

    def _hand_row(self, hand_id: object) -> tuple[str, str, int, int, Ruleset]:
        """A hand's fixed facts: id, operator, seat count, dealer, ruleset.  The ``hands`` row
        is append-only, so a committed row read once is kept (per ledger object, at most
        :data:`_KEPT_HANDS` hands); a hand not found, or read inside a caller's open
        transaction (which may yet roll back), is asked again next time."""
        hand_id = check_id(hand_id, what="hand id")
        kept = self._hands_kept.get(hand_id)
        if kept is not None:
            return kept[0]
        row = self.db.execute("SELECT id, operator, n_seats, dealer, ruleset FROM hands WHERE id = ?",
                              [hand_id]).fetchone()
        if row is None:
            raise NotFoundError(f"no hand {hand_id!r}")
        facts = row[0], row[1], row[2], row[3], _ruleset(row[4])
        if not self.db.conn.in_transaction:
            if len(self._hands_kept) >= _KEPT_HANDS:
                self._hands_kept.clear()
            self._hands_kept[hand_id] = (facts, None)
        return facts

    def _seat_of(self, hand_id: str, n_seats: int, seat: object) -> tuple[int, str]:
        seat = check_seat(seat)
        if not 0 <= seat < n_seats:
            raise NotFoundError(f"hand {hand_id!r} has no seat {seat} (seats 0..{n_seats - 1})")
        kept = self._hands_kept.get(hand_id)
        players = kept[1] if kept is not None else None
        if players is None:  # the seats are append-only rows too, written with the hand
            players = [r[0] for r in self.db.execute("SELECT player FROM hand_seats WHERE hand_id = ? ORDER BY seat",
                                                     [hand_id])]
            if kept is not None and len(players) == n_seats:
                self._hands_kept[hand_id] = (kept[0], players)
        return seat, players[seat]

    def _hand_hash(self, hand_id: str) -> str:
        """The hex SHA-256 of the hand's signed ``hand`` statement (its canonical JSON, which
        the row keeps as its text): what every ``seat-receipt`` binds (format 3)."""
        row = self.db.execute("SELECT statement FROM statements WHERE hand_id = ? AND kind = 'hand' ORDER BY seq"
                              " LIMIT 1", [hand_id]).fetchone()
        if row is None:  # pragma: no cover - new_hand writes it with the row
            raise LedgerIntegrityError(f"hand {hand_id!r} has no hand statement")
        return hashlib.sha256(row[0].encode("utf-8")).hexdigest()

    def _commitment(self, hand_id: str) -> str | None:
        row = self.db.execute("SELECT commitment FROM hand_commitments WHERE hand_id = ?", [hand_id]).fetchone()
        return row[0] if row else None

    def _new_server_seed(self, hand_id: str, pinned: bytes | None) -> tuple[bytes, str]:
        """A fresh server seed for the hand and its commitment, already committed and synced
        in the secret store: one of the seeds a file store makes ahead
        (:meth:`~.secret_store.SecretStore.take_server_seed`), or -- for an in-memory
        ledger, and the simulator's ``pinned`` seed -- one stored for this hand now."""
        store = self._secrets()
        if pinned is None and store.path != ":memory:":
            return store.take_server_seed(_fresh_server_seed, commit_server_seed)
        seed = _fresh_server_seed() if pinned is None else bytes(pinned)
        if len(seed) != SERVER_SEED_BYTES:
            raise MalformedError(f"a server seed is {SERVER_SEED_BYTES} bytes")
        commitment = commit_server_seed(seed)
        store.put_server_seed(commitment, hand_id, seed)
        return seed, commitment

    def _server_seed(self, hand_id: str) -> bytes:
        """The private server seed (operator-side only; never part of a public read)."""
        return self._server_seed_of(hand_id, self._commitment(hand_id))

    def _server_seed_of(self, hand_id: str, commitment: str | None) -> bytes:
        """:meth:`_server_seed`, given the hand's commitment the caller has already read."""
        seed = self._secrets().server_seed(commitment) if commitment is not None else None
        if seed is None and "server_seeds" in self._legacy:
            row = self.db.execute("SELECT seed FROM server_seeds WHERE hand_id = ?", [hand_id]).fetchone()
            seed = bytes.fromhex(row[0]) if row else None
        if seed is None:
            raise LedgerIntegrityError(f"hand {hand_id!r} has no stored server seed (secret store {self._secrets_path})")
        return seed

    def new_hand(self, table_id: str, players: Sequence[str], *, dealer: int = 0, hand_id: str | None = None,
                 now: datetime | None = None) -> dict[str, Any]:
        """Create a hand at a table: its players in seat order and its dealer.  Signed ``hand``."""
        table = views.get_table(self.db, check_id(table_id, what="table id"))
        hand_id = check_id(hand_id, what="hand id") if hand_id is not None else f"h-{secrets.token_hex(8)}"
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise MalformedError("players must be a list of names, in seat order")
        players = list(players)
        for p in players:
            check_player_name(p)
        if len({name_key(p) for p in players}) != len(players):
            raise MalformedError("player names at one hand must be distinct (ignoring case)")
        ruleset_text = canonical_json(table.ruleset).decode()  # as the hand's row will hold it
        ruleset = _ruleset(ruleset_text)
        n = len(players)
        if n not in allowed_players(ruleset) or n > table.seats:
            raise MalformedError(f"table {table.id!r} ({table.preset}, {table.seats} seats) cannot seat {n} players")
        dealer = check_seat(dealer)
        if not 0 <= dealer < n:
            raise MalformedError(f"the dealer must be one of seats 0..{n - 1}")
        time = self._time(now)
        key = self._signer(table.operator)
        with self._write() as db:
            if db.execute("SELECT 1 FROM hands WHERE id = ?", [hand_id]).fetchone():
                raise LedgerStateError(f"hand {hand_id!r} already exists")
            db.execute("INSERT INTO hands (id, table_id, operator, preset, ruleset, ruleset_hash, n_seats, dealer,"
                       " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [hand_id, table.id, table.operator, table.preset,
                        ruleset_text, table.ruleset_hash, n, dealer, time])
            for seat, player in enumerate(players):
                db.execute("INSERT INTO hand_seats (hand_id, seat, player) VALUES (?, ?, ?)", [hand_id, seat, player])
            _, signed = append_statement(db, key, "hand", hand_id, {
                "table_id": table.id, "operator": table.operator, "preset": table.preset,
                "ruleset": table.ruleset, "ruleset_hash": table.ruleset_hash,
                "seats": [{"seat": i, "player": p} for i, p in enumerate(players)], "dealer": dealer,
                "point_value": table.point_value, "commission_pct": table.commission_pct}, time)
        return signed

    def commit(self, hand_id: str, *, now: datetime | None = None,
               server_seed: bytes | None = None) -> dict[str, Any]:
        """Generate the hand's server seed (``secrets``), keep it private, publish its hash (R-21).

        ``server_seed`` is for the simulator only (deterministic runs); an operator never passes it.
        """
        hand_id, operator, n, dealer, ruleset = self._hand_row(hand_id)
        with self._write() as db:  # state, clock, key, seed: under the write lock, the state read once
            require(db, hand_id, "commit")
            time = self._time(now)
            key = self._signer(operator)
            # The seed is durable in the secret store before its commitment is public: a crash in
            # between leaves an orphan seed, never a public commitment without its seed.
            seed, commitment = self._new_server_seed(hand_id, server_seed)
            seq, signed = append_statement(db, key, "commitment", hand_id, {
                "server_seed_commitment": commitment, "ruleset_hash": ruleset.hash,
                "n_seats": n, "dealer": dealer}, time)
            db.execute("INSERT INTO hand_commitments (hand_id, commitment, seq) VALUES (?, ?, ?)",
                       [hand_id, commitment, seq])
        return signed

    def seed_commit(self, hand_id: str, seat: int, commitment: str, *, now: datetime | None = None) -> dict[str, Any]:
        """Record a seat's seed commitment (each seat once); the signed receipt for the player."""
        hand_id, operator, n, _, ruleset = self._hand_row(hand_id)
        seat, player = self._seat_of(hand_id, n, seat)
        commitment = parse_digest(commitment, what="seat seed commitment").hex()
        with self._write() as db:  # state, clock, key: checked once, under the write lock
            step = require_step(db, hand_id, "seed_commit", seat)
            time = self._time(now)
            key = self._signer(operator)
            if step.seat_commitment is not None:
                raise LedgerStateError(f"seat {seat} of hand {hand_id!r} has already committed its seed")
            # the receipt binds what the player was shown: the server's commitment, the rules, and
            # (format 3) the signed hand statement: the terms, every seat's name, the dealer
            seq, signed = append_statement(db, key, "seat-receipt", hand_id, {
                "seat": seat, "player": player, "commitment": commitment,
                "server_seed_commitment": step.commitment, "ruleset_hash": ruleset.hash,
                "hand_hash": self._hand_hash(hand_id)}, time)
            db.conn.execute("INSERT INTO seat_commitments (hand_id, seat, commitment, seq) VALUES (?, ?, ?, ?)",
                            (hand_id, seat, commitment, seq))
        return signed

    def seed_reveal(self, hand_id: str, seat: int, seed: bytes | str, *, now: datetime | None = None) -> dict[str, Any]:
        """Record a seat's seed, checked against its commitment, once every seat has committed."""
        hand_id, operator, n, _, _ = self._hand_row(hand_id)
        seat, player = self._seat_of(hand_id, n, seat)
        seed_b = seed_bytes(seed, parse_player_seed)
        with self._write() as db:  # state, clock, key: checked once, under the write lock
            step = require_step(db, hand_id, "seed_reveal", seat)
            time = self._time(now)
            key = self._signer(operator)
            if step.seat_revealed:
                raise LedgerStateError(f"seat {seat} of hand {hand_id!r} has already revealed its seed")
            commitment = step.seat_commitment  # every seat has committed (the state says so)
            if commitment is None:  # pragma: no cover - a file edited behind the triggers
                raise LedgerIntegrityError(f"seat {seat} of hand {hand_id!r} has no seed commitment")
            verify_player_seed(hand_id, seat, seed_b, commitment)
            seq, signed = append_statement(db, key, "seat-reveal", hand_id, {
                "seat": seat, "player": player, "seed": seed_b.hex(), "commitment": commitment}, time)
            db.conn.execute("INSERT INTO seat_reveals (hand_id, seat, seed, seq) VALUES (?, ?, ?, ?)",
                            (hand_id, seat, seed_b.hex(), seq))
        return signed

    def deal(self, hand_id: str, *, now: datetime | None = None) -> dict[str, Any]:
        """Close the inputs of the shuffle: every seed is in; signed ``deal`` (no cards in it)."""
        hand_id, operator, n, dealer, ruleset = self._hand_row(hand_id)
        with self._write() as db:  # state, clock, key: checked once, under the write lock
            step = require_step(db, hand_id, "deal")
            time = self._time(now)
            key = self._signer(operator)
            seeds = [r[0] for r in db.execute("SELECT seed FROM seat_reveals WHERE hand_id = ? ORDER BY seat", [hand_id])]
            seq, signed = append_statement(db, key, "deal", hand_id, {
                "ruleset_hash": ruleset.hash, "server_seed_commitment": step.commitment,
                "dealer": dealer, "player_seeds": seeds}, time)
            db.execute("INSERT INTO hand_deals (hand_id, seq) VALUES (?, ?)", [hand_id, seq])
        return signed

    def operator_deal(self, hand_id: str) -> Deal:
        """The cards of a dealt hand, for the operator's game server only (uses the private seed)."""
        hand_id, _, _, dealer, _ = self._hand_row(hand_id)
        return self.operator_randomness(hand_id).deal(dealer)

    def operator_randomness(self, hand_id: str) -> "HandRandomness":
        """OPERATOR ONLY: the v1 randomness of a dealt hand (its shoe, from the private seed)."""
        hand_id, _, _, _, ruleset = self._hand_row(hand_id)
        view = views.get_hand(self.db, hand_id)
        seeds = [bytes.fromhex(s.seed or "") for s in view.seats]
        return hand_randomness(self.operator_server_seed(hand_id), hand_id, ruleset, seeds)

    def operator_server_seed(self, hand_id: str) -> bytes:
        """OPERATOR ONLY: the private server seed of a dealt hand, for the operator's own
        replay of its moves before ``finish`` (:mod:`audit.operator.finishing`); never shown."""
        view = views.get_hand(self.db, check_id(hand_id, what="hand id"))
        if view.state not in (HandState.DEALT, HandState.FINISHED, HandState.REVEALED):
            raise LedgerStateError(f"hand {view.id!r} is {view.state.value}: it has not been dealt")
        return self._server_seed(view.id)

    def finish(self, hand_id: str, record: Mapping[str, Any], *, validate_record: RecordValidator | None = None,
               now: datetime | None = None) -> dict[str, Any]:
        """Attach the hand record (a JSON object with the same ``hand_id``); signed ``record`` of its hash.

        ``validate_record(record, hand_view)`` (or the ledger's default) may raise a
        :class:`TipluError` to refuse the record; the record format is checked there.
        """
        hand_id, operator, _, _, _ = self._hand_row(hand_id)
        if not isinstance(record, Mapping):
            raise MalformedError("a hand record must be a JSON object")
        doc: dict[str, Any] = json.loads(canonical_json(dict(record)))  # rejects floats; a private deep copy
        if doc.get("hand_id") != hand_id:
            raise MalformedError(f"the record's hand_id must be {hand_id!r}", location="hand_id")
        require(self.db, hand_id, "finish")
        check = validate_record or self._validate_record
        if check is not None:
            check(doc, views.get_hand(self.db, hand_id))
        time = self._time(now)
        key = self._signer(operator)
        record_hash = canonical_hash(doc)
        moves = doc.get("moves", [])
        if not isinstance(moves, list):
            raise MalformedError("a hand record lists its moves", location="moves")
        with self._write() as db:
            commitment = require_step(db, hand_id, "finish").commitment
            # format 3: the moves exactly as played (or, with none played, as the record lists them)
            moves_head, n_moves = bound_moves(db, hand_id, commitment or "", moves)
            seq, signed = append_statement(db, key, "record", hand_id, {
                "record_hash": record_hash, "moves_head": moves_head, "n_moves": n_moves}, time)
            db.execute("INSERT INTO hand_records (hand_id, record, record_hash, seq) VALUES (?, ?, ?, ?)",
                       [hand_id, canonical_json(doc).decode(), record_hash, seq])
        return signed

    def reveal(self, hand_id: str, *, now: datetime | None = None) -> dict[str, Any]:
        """Publish the server seed, checked against its commitment (R-22)."""
        hand_id, operator, _, _, _ = self._hand_row(hand_id)
        with self._write() as db:  # state, clock, key: checked once, under the write lock
            commitment = require_step(db, hand_id, "reveal").commitment
            time = self._time(now)
            key = self._signer(operator)
            if commitment is None:  # a finished hand was dealt, so committed first
                raise LedgerIntegrityError(f"hand {hand_id!r} is finished but has no server seed commitment")
            seed = self._server_seed_of(hand_id, commitment)
            verify_server_seed(seed, commitment)
            seq, signed = append_statement(db, key, "reveal", hand_id, {
                "server_seed": seed.hex(), "server_seed_commitment": commitment}, time)
            db.execute("INSERT INTO hand_reveals (hand_id, server_seed, seq) VALUES (?, ?, ?)",
                       [hand_id, seed.hex(), seq])
        return signed

    def cancel(self, hand_id: str, *, reason: str = "a seat did not reveal its seed",
               now: datetime | None = None) -> dict[str, Any]:
        """Cancel a hand before the deal, naming the seats that never revealed.

        A committed server seed is revealed in the cancel statement (it is never used for
        another hand), so anyone can check the commitment was honest.
        """
        hand_id, operator, n, _, _ = self._hand_row(hand_id)
        check_reason(reason)
        with self._write() as db:  # state, clock, key: checked once, under the write lock
            commitment = require_step(db, hand_id, "cancel").commitment
            time = self._time(now)
            key = self._signer(operator)
            revealed = {r[0] for r in db.execute("SELECT seat FROM seat_reveals WHERE hand_id = ?", [hand_id])}
            missing = [s for s in range(n) if s not in revealed]
            seed_hex = None
            if commitment is not None:
                seed = self._server_seed_of(hand_id, commitment)
                verify_server_seed(seed, commitment)
                seed_hex = seed.hex()
            seq, signed = append_statement(db, key, "cancel", hand_id, {
                "missing_seats": missing, "reason": reason, "server_seed_commitment": commitment,
                "server_seed": seed_hex}, time)
            db.execute("INSERT INTO hand_cancels (hand_id, missing_seats, seq) VALUES (?, ?, ?)",
                       [hand_id, json.dumps(missing), seq])
        return signed


__all__ = ["HandLifecycle", "RecordValidator"]
