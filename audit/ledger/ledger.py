"""The ledger facade: :class:`Ledger`, the one object operators' code and the CLI use.

Verbs (each a single atomic write that signs and appends one statement, or raises a typed
error and changes nothing): :meth:`~Ledger.new_operator`, :meth:`~Ledger.new_table`,
:meth:`~Ledger.new_hand`, :meth:`~Ledger.commit`, :meth:`~Ledger.seed_commit`,
:meth:`~Ledger.seed_reveal`, :meth:`~Ledger.deal`, :meth:`~Ledger.finish`,
:meth:`~Ledger.reveal`, :meth:`~Ledger.cancel`.  Reads: :meth:`~Ledger.get_hand`,
:meth:`~Ledger.list_hands`, :meth:`~Ledger.statements`, :meth:`~Ledger.iter_records`,
:meth:`~Ledger.operator`, :meth:`~Ledger.verify_hand`.

Every write function takes ``now`` (a timezone-aware datetime); when it is ``None`` the
ledger's ``clock`` is asked, and without a clock the real UTC time is used.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import pathlib
import re
import secrets
import sqlite3
import unicodedata
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from sqlite_utils import Database

from replay.canonical import canonical_hash, canonical_json
from replay.deal import Deal
from replay.errors import MalformedError
from replay.fairness import (SERVER_SEED_BYTES, commit_server_seed, hand_randomness, parse_digest,
                             parse_player_seed, verify_player_seed, verify_server_seed)
from replay.rulesets import Ruleset, allowed_players, resolve
from replay.settlement import parse_amount

from ..errors import AuthError, LedgerIntegrityError, LedgerStateError, NotFoundError
from ..signing import SigningKey
from . import views
from .lifecycle import HandState, require
from .secret_store import SecretStore, legacy_secret_tables, move_secrets, secrets_path_for
from .statements import StoredStatement, append_statement, format_time, iter_statements
from .opening import open_db
from .store import atomic

Clock = Callable[[], datetime]
RecordValidator = Callable[[dict, "views.HandView"], None]
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
MAX_PLAYER_NAME = 64


def check_id(text: object, *, what: str) -> str:
    """An identifier: 1-64 of ``A-Z a-z 0-9 . _ : -``, starting with a letter or digit."""
    if not isinstance(text, str) or not _ID.fullmatch(text):
        raise MalformedError(f"{what} must be 1-64 characters of A-Z a-z 0-9 . _ : - (starting with a letter or digit)")
    return text


#: characters a player name may not hold (Unicode categories): controls (Cc: newline, tab, NUL,
#: ...), format characters (Cf: the bidi embeddings, overrides and isolates U+202A-202E and
#: U+2066-2069, marks U+200E/U+200F/U+061C, zero-width U+200B-200D, U+FEFF), surrogates,
#: private-use and unassigned code points, and line/paragraph separators.
_NAME_BANNED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def check_player_name(name: object) -> str:
    """A player name (docs/ledger.md, "Names"): 1-64 characters, no outer spaces, no space but
    U+0020, and nothing that changes how text around it is shown (see :data:`_NAME_BANNED`)."""
    if not isinstance(name, str) or not name.strip() or name != name.strip() or len(name) > MAX_PLAYER_NAME:
        raise MalformedError(f"a player name is 1-{MAX_PLAYER_NAME} characters without outer spaces")
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in _NAME_BANNED or (cat == "Zs" and ch != " "):
            raise MalformedError(f"a player name may not contain U+{ord(ch):04X} (a control, format or "
                                 "bidi character, or a space other than U+0020)")
    return name


def _seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedError("a seat is a whole number (0 = first seat)")
    return value


def _seed_bytes(seed: bytes | str, parse: Callable[[object], bytes]) -> bytes:
    return parse(seed.hex() if isinstance(seed, (bytes, bytearray)) else seed)


class Ledger:
    """An append-only ledger of operators, tables and hands, in one SQLite file.

    ``path_or_db`` is a file path, ``":memory:"``, a :class:`sqlite_utils.Database` or a
    :class:`sqlite3.Connection`; opening applies any pending migration.  Only a ledger is
    opened: a missing or empty file becomes a new ledger only with ``create=True``, and
    anything else raises :class:`~audit.errors.NotALedgerError` untouched (:func:`.opening.open_db`).  ``keys`` are
    operators' signing keys kept outside the database (matched to operators by public key);
    a key stored in the database is used when no outside key is given.
    """

    def __init__(self, path_or_db: "str | pathlib.Path | Database | sqlite3.Connection", *,
                 clock: Clock | None = None, keys: Iterable[SigningKey] = (),
                 validate_record: RecordValidator | None = None, create: bool = False,
                 secrets_path: "str | pathlib.Path | None" = None) -> None:
        self.db = open_db(path_or_db, create=create)
        self._where = self.db.execute("PRAGMA database_list").fetchone()[2] or ":memory:"
        self._secrets_path = str(secrets_path) if secrets_path is not None else (
            ":memory:" if self._where == ":memory:" else str(secrets_path_for(self._where)))
        self._secret_store: SecretStore | None = None
        self._legacy = legacy_secret_tables(self.db)
        self._clock = clock
        self._keys = {k.public_hex: k for k in keys}
        self._validate_record = validate_record

    def __repr__(self) -> str:
        return f"Ledger({self._where!r})"

    def close(self) -> None:
        if self._secret_store is not None and self._secrets_path != ":memory:":
            self._secret_store.close()
        self.db.close()

    # -- the secret store (:mod:`.secret_store`) ------------------------------------------
    @property
    def secrets_path(self) -> str:
        """Where this ledger's secrets live (``tiplu.db`` -> ``tiplu.secrets.db``)."""
        return self._secrets_path

    @property
    def legacy_secrets(self) -> list[str]:
        """Secret tables an older ledger still keeps in its public file (``tiplu move-secrets``)."""
        return list(self._legacy)

    def _secrets(self) -> SecretStore:
        """The secret store, opened on first use (created 0600 only when a secret is written).

        An in-memory ledger keeps one in-memory store per connection, shared by every
        :class:`Ledger` over that connection."""
        if self._secret_store is None:
            if self._secrets_path == ":memory:":
                store = getattr(self.db, "_tiplu_secret_store", None)
                if store is None:
                    store = SecretStore(":memory:")
                    self.db._tiplu_secret_store = store  # type: ignore[attr-defined]
                self._secret_store = store
            else:
                self._secret_store = SecretStore(self._secrets_path)
        return self._secret_store

    def move_secrets(self) -> dict[str, int]:
        """Move an older ledger's secrets out of the public file into the secret store."""
        store = self._secrets()
        store.ensure()
        counts = move_secrets(self.db, store)
        self._legacy = legacy_secret_tables(self.db)
        return counts

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers -------------------------------------------------------------------------
    def _time(self, now: datetime | None) -> str:
        if now is None:
            now = self._clock() if self._clock is not None else datetime.now(timezone.utc)
        return format_time(now)

    @contextlib.contextmanager
    def _write(self) -> Iterator[Database]:
        try:
            with atomic(self.db) as db:
                yield db
        except sqlite3.IntegrityError as exc:  # a race lost to another writer, or a tampered file
            raise LedgerStateError(f"the ledger refused the write: {exc}") from None

    def signing_key(self, operator: str) -> SigningKey:
        """The operator's signing key (kept outside or stored in the ledger), for operator-side
        code that signs beside the ledger: receipts' log checkpoints, the simulator."""
        return self._signer(operator)

    def _signer(self, operator: str) -> SigningKey:
        pub = views.get_operator(self.db, operator).public_key
        if pub in self._keys:
            return self._keys[pub]
        private = self._secrets().private_key(pub)
        if private is None and "operator_secrets" in self._legacy:
            row = self.db.execute("SELECT private_key FROM operator_secrets WHERE operator = ?", [operator]).fetchone()
            private = row[0] if row else None
        if private is None:
            raise AuthError(f"operator {operator!r} keeps its signing key outside the ledger: pass it in")
        key = SigningKey.from_hex(private)
        if key.public_hex != pub:
            raise LedgerIntegrityError(f"the stored key of operator {operator!r} does not match its public key")
        return key

    def _hand_row(self, hand_id: object) -> tuple[str, str, int, int, Ruleset]:
        hand_id = check_id(hand_id, what="hand id")
        row = self.db.execute("SELECT id, operator, n_seats, dealer, ruleset FROM hands WHERE id = ?",
                              [hand_id]).fetchone()
        if row is None:
            raise NotFoundError(f"no hand {hand_id!r}")
        return row[0], row[1], row[2], row[3], Ruleset.from_json(json.loads(row[4]))

    def _seat_of(self, hand_id: str, n_seats: int, seat: object) -> tuple[int, str]:
        seat = _seat(seat)
        if not 0 <= seat < n_seats:
            raise NotFoundError(f"hand {hand_id!r} has no seat {seat} (seats 0..{n_seats - 1})")
        player = self.db.execute("SELECT player FROM hand_seats WHERE hand_id = ? AND seat = ?",
                                 [hand_id, seat]).fetchone()[0]
        return seat, player

    def _commitment(self, hand_id: str) -> str | None:
        row = self.db.execute("SELECT commitment FROM hand_commitments WHERE hand_id = ?", [hand_id]).fetchone()
        return row[0] if row else None

    def _server_seed(self, hand_id: str) -> bytes:
        """The private server seed (operator-side only; never part of a public read)."""
        commitment = self._commitment(hand_id)
        seed = self._secrets().server_seed(commitment) if commitment is not None else None
        if seed is None and "server_seeds" in self._legacy:
            row = self.db.execute("SELECT seed FROM server_seeds WHERE hand_id = ?", [hand_id]).fetchone()
            seed = bytes.fromhex(row[0]) if row else None
        if seed is None:
            raise LedgerIntegrityError(f"hand {hand_id!r} has no stored server seed (secret store {self._secrets_path})")
        return seed

    # -- operators and tables ------------------------------------------------------------
    def new_operator(self, name: str, *, key: SigningKey | None = None, store_key: bool = True,
                     now: datetime | None = None) -> views.OperatorView:
        """Register an operator and its Ed25519 key (generated when not given).

        ``store_key=True`` keeps the private key in the ledger's secret store (a separate file,
        mode 0600; anyone who can read that file can sign).  ``store_key=False`` stores only the public key; pass the key as
        ``Ledger(..., keys=[key])`` to sign.  See ``docs/ledger.md``, "Key storage".
        """
        name = check_id(name, what="operator name")
        if key is None:
            if not store_key:
                raise MalformedError("an operator whose key is kept outside must bring that key")
            key = SigningKey.generate()
        time = self._time(now)
        with self._write() as db:
            if db.execute("SELECT 1 FROM operators WHERE name = ?", [name]).fetchone():
                raise LedgerStateError(f"operator {name!r} already exists")
            if db.execute("SELECT 1 FROM operators WHERE public_key = ?", [key.public_hex]).fetchone():
                raise LedgerStateError("that public key already belongs to another operator")
            if store_key:  # the secret first, in its own file: a crash leaves at worst an unused key
                self._secrets().put_private_key(key.public_hex, key.to_hex())
            db.execute("INSERT INTO operators (name, public_key, key_id, created_at) VALUES (?, ?, ?, ?)",
                       [name, key.public_hex, key.key_id, time])
        if not store_key:
            self._keys[key.public_hex] = key
        return views.get_operator(self.db, name)

    def new_table(self, table_id: str, *, operator: str, preset: str, overrides: Mapping[str, Any] | None = None,
                  seats: int | None = None, point_value: str = "1", commission_pct: str = "0",
                  now: datetime | None = None) -> views.TableView:
        """A table: a preset and its overrides (resolved once), a seat count, and its money."""
        table_id = check_id(table_id, what="table id")
        ruleset = resolve(preset, overrides)
        allowed = allowed_players(ruleset)
        seats = max(allowed) if seats is None else _seat(seats)
        if seats not in allowed:
            raise MalformedError(f"{preset} allows {', '.join(map(str, allowed))} seats, not {seats}")
        pv = parse_amount(point_value, what="point_value")
        parse_amount(commission_pct, what="commission_pct", maximum=parse_amount("100"))  # checked; stored as given
        if pv <= 0:
            raise MalformedError("point_value must be positive")
        time = self._time(now)
        with self._write() as db:
            views.get_operator(db, operator)
            if db.execute("SELECT 1 FROM ledger_tables WHERE id = ?", [table_id]).fetchone():
                raise LedgerStateError(f"table {table_id!r} already exists")
            db.execute("INSERT INTO ledger_tables (id, operator, preset, ruleset, ruleset_hash, seats, point_value,"
                       " commission_pct, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [table_id, operator, preset, canonical_json(ruleset.to_json()).decode(), ruleset.hash,
                        seats, str(point_value), str(commission_pct), time])
        return views.get_table(self.db, table_id)

    # -- a hand's lifecycle --------------------------------------------------------------
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
        if len(set(players)) != len(players):
            raise MalformedError("player names at one hand must be distinct")
        ruleset = Ruleset.from_json(table.ruleset)
        n = len(players)
        if n not in allowed_players(ruleset) or n > table.seats:
            raise MalformedError(f"table {table.id!r} ({table.preset}, {table.seats} seats) cannot seat {n} players")
        dealer = _seat(dealer)
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
                        canonical_json(table.ruleset).decode(), table.ruleset_hash, n, dealer, time])
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
        require(self.db, hand_id, "commit")
        time = self._time(now)
        key = self._signer(operator)
        seed = secrets.token_bytes(SERVER_SEED_BYTES) if server_seed is None else bytes(server_seed)
        if len(seed) != SERVER_SEED_BYTES:
            raise MalformedError(f"a server seed is {SERVER_SEED_BYTES} bytes")
        commitment = commit_server_seed(seed)
        # The seed is durable in the secret store before its commitment is public: a crash in
        # between leaves an orphan seed, never a public commitment without its seed.
        self._secrets().put_server_seed(commitment, hand_id, seed)
        with self._write() as db:
            require(db, hand_id, "commit")
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
        require(self.db, hand_id, "seed_commit")
        time = self._time(now)
        key = self._signer(operator)
        with self._write() as db:
            require(db, hand_id, "seed_commit")
            if db.execute("SELECT 1 FROM seat_commitments WHERE hand_id = ? AND seat = ?", [hand_id, seat]).fetchone():
                raise LedgerStateError(f"seat {seat} of hand {hand_id!r} has already committed its seed")
            # the receipt binds what the player was shown: the server's commitment and the rules
            seq, signed = append_statement(db, key, "seat-receipt", hand_id, {
                "seat": seat, "player": player, "commitment": commitment,
                "server_seed_commitment": self._commitment(hand_id), "ruleset_hash": ruleset.hash}, time)
            db.execute("INSERT INTO seat_commitments (hand_id, seat, commitment, seq) VALUES (?, ?, ?, ?)",
                       [hand_id, seat, commitment, seq])
        return signed

    def seed_reveal(self, hand_id: str, seat: int, seed: bytes | str, *, now: datetime | None = None) -> dict[str, Any]:
        """Record a seat's seed, checked against its commitment, once every seat has committed."""
        hand_id, operator, n, _, _ = self._hand_row(hand_id)
        seat, player = self._seat_of(hand_id, n, seat)
        seed_b = _seed_bytes(seed, parse_player_seed)
        require(self.db, hand_id, "seed_reveal")
        time = self._time(now)
        key = self._signer(operator)
        with self._write() as db:
            require(db, hand_id, "seed_reveal")
            if db.execute("SELECT 1 FROM seat_reveals WHERE hand_id = ? AND seat = ?", [hand_id, seat]).fetchone():
                raise LedgerStateError(f"seat {seat} of hand {hand_id!r} has already revealed its seed")
            commitment = db.execute("SELECT commitment FROM seat_commitments WHERE hand_id = ? AND seat = ?",
                                    [hand_id, seat]).fetchone()[0]
            verify_player_seed(hand_id, seat, seed_b, commitment)
            seq, signed = append_statement(db, key, "seat-reveal", hand_id, {
                "seat": seat, "player": player, "seed": seed_b.hex(), "commitment": commitment}, time)
            db.execute("INSERT INTO seat_reveals (hand_id, seat, seed, seq) VALUES (?, ?, ?, ?)",
                       [hand_id, seat, seed_b.hex(), seq])
        return signed

    def deal(self, hand_id: str, *, now: datetime | None = None) -> dict[str, Any]:
        """Close the inputs of the shuffle: every seed is in; signed ``deal`` (no cards in it)."""
        hand_id, operator, n, dealer, ruleset = self._hand_row(hand_id)
        require(self.db, hand_id, "deal")
        time = self._time(now)
        key = self._signer(operator)
        with self._write() as db:
            require(db, hand_id, "deal")
            seeds = [r[0] for r in db.execute("SELECT seed FROM seat_reveals WHERE hand_id = ? ORDER BY seat", [hand_id])]
            seq, signed = append_statement(db, key, "deal", hand_id, {
                "ruleset_hash": ruleset.hash, "server_seed_commitment": self._commitment(hand_id),
                "dealer": dealer, "player_seeds": seeds}, time)
            db.execute("INSERT INTO hand_deals (hand_id, seq) VALUES (?, ?)", [hand_id, seq])
        return signed

    def operator_deal(self, hand_id: str) -> Deal:
        """The cards of a dealt hand, for the operator's game server only (uses the private seed)."""
        hand_id, _, _, dealer, ruleset = self._hand_row(hand_id)
        view = views.get_hand(self.db, hand_id)
        if view.state not in (HandState.DEALT, HandState.FINISHED, HandState.REVEALED):
            raise LedgerStateError(f"hand {hand_id!r} is {view.state.value}: it has not been dealt")
        seeds = [bytes.fromhex(s.seed or "") for s in view.seats]
        return hand_randomness(self._server_seed(hand_id), hand_id, ruleset, seeds).deal(dealer)

    def finish(self, hand_id: str, record: Mapping[str, Any], *, validate_record: RecordValidator | None = None,
               now: datetime | None = None) -> dict[str, Any]:
        """Attach the hand record (a JSON object with the same ``hand_id``); signed ``record`` of its hash.

        ``validate_record(record, hand_view)`` (or the ledger's default) may raise a
        :class:`TipluError` to refuse the record; the record format is checked there.
        """
        hand_id, operator, _, _, _ = self._hand_row(hand_id)
        if not isinstance(record, Mapping):
            raise MalformedError("a hand record must be a JSON object")
        record = json.loads(canonical_json(dict(record)))  # rejects floats; a private deep copy
        if record.get("hand_id") != hand_id:
            raise MalformedError(f"the record's hand_id must be {hand_id!r}", location="hand_id")
        require(self.db, hand_id, "finish")
        check = validate_record or self._validate_record
        if check is not None:
            check(record, views.get_hand(self.db, hand_id))
        time = self._time(now)
        key = self._signer(operator)
        record_hash = canonical_hash(record)
        with self._write() as db:
            require(db, hand_id, "finish")
            seq, signed = append_statement(db, key, "record", hand_id, {"record_hash": record_hash}, time)
            db.execute("INSERT INTO hand_records (hand_id, record, record_hash, seq) VALUES (?, ?, ?, ?)",
                       [hand_id, canonical_json(record).decode(), record_hash, seq])
        return signed

    def reveal(self, hand_id: str, *, now: datetime | None = None) -> dict[str, Any]:
        """Publish the server seed, checked against its commitment (R-22)."""
        hand_id, operator, _, _, _ = self._hand_row(hand_id)
        require(self.db, hand_id, "reveal")
        time = self._time(now)
        key = self._signer(operator)
        with self._write() as db:
            require(db, hand_id, "reveal")
            seed = self._server_seed(hand_id)
            commitment = self._commitment(hand_id)
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
        if not isinstance(reason, str) or len(reason) > 200:
            raise MalformedError("a cancel reason is a short text (at most 200 characters)")
        require(self.db, hand_id, "cancel")
        time = self._time(now)
        key = self._signer(operator)
        with self._write() as db:
            require(db, hand_id, "cancel")
            revealed = {r[0] for r in db.execute("SELECT seat FROM seat_reveals WHERE hand_id = ?", [hand_id])}
            missing = [s for s in range(n) if s not in revealed]
            commitment = self._commitment(hand_id)
            seed_hex = None
            if commitment is not None:
                seed = self._server_seed(hand_id)
                verify_server_seed(seed, commitment)
                seed_hex = seed.hex()
            seq, signed = append_statement(db, key, "cancel", hand_id, {
                "missing_seats": missing, "reason": reason, "server_seed_commitment": commitment,
                "server_seed": seed_hex}, time)
            db.execute("INSERT INTO hand_cancels (hand_id, missing_seats, seq) VALUES (?, ?, ?)",
                       [hand_id, json.dumps(missing), seq])
        return signed

    # -- public reads --------------------------------------------------------------------
    def operator(self, name: str) -> views.OperatorView:
        """An operator's public view; ``key_stored`` says whether its key is in the secret store
        (asked of the store only when it exists: a read creates nothing)."""
        view = views.get_operator(self.db, check_id(name, what="operator name"))
        stored = self._secrets().private_key(view.public_key) is not None or (
            "operator_secrets" in self._legacy and self.db.execute(
                "SELECT 1 FROM operator_secrets WHERE operator = ?", [view.name]).fetchone() is not None)
        return dataclasses.replace(view, key_stored=stored)

    def public_key(self, operator: str) -> str:
        """The operator's Ed25519 public key (hex): all anyone needs to verify its statements."""
        return views.get_operator(self.db, operator).public_key

    def table(self, table_id: str) -> views.TableView:
        return views.get_table(self.db, check_id(table_id, what="table id"))

    def get_hand(self, hand_id: str) -> views.HandView:
        return views.get_hand(self.db, check_id(hand_id, what="hand id"))

    def list_hands(self, *, table_id: str | None = None, state: HandState | str | None = None,
                   limit: int | None = None) -> Iterator[views.HandView]:
        return views.list_hands(self.db, table_id=table_id, state=state, limit=limit)

    def statements(self, hand_id: str | None = None, since_seq: int = 0) -> Iterator[StoredStatement]:
        """Signed statements with ``seq > since_seq``, in ``seq`` order (the transparency log's leaves)."""
        return iter_statements(self.db, hand_id, since_seq)

    def iter_records(self) -> Iterator[views.RecordEntry]:
        return views.iter_records(self.db)

    def verify_hand(self, hand_id: str, public_key: str | None = None) -> HandState:
        """Check every statement of a hand against the operator's key (or ``public_key``).

        Raises :class:`SignatureError` for a signature that does not verify under that key,
        :class:`LedgerIntegrityError` for statements that contradict the stored rows, and
        :class:`CommitmentMismatchError` for a revealed seed that does not match.
        """
        view = self.get_hand(hand_id)
        pub = public_key if public_key is not None else self.public_key(view.operator)
        seen: dict[str, dict[str, Any]] = {}
        for st in self.statements(view.id):
            stmt = st.verify(pub)
            if stmt.get("hand_id") != view.id or stmt.get("kind") != st.kind:
                raise LedgerIntegrityError(f"statement {st.seq} does not belong where it is stored")
            seen.setdefault(st.kind, stmt)
        if "hand" not in seen or seen["hand"]["ruleset_hash"] != view.ruleset_hash:
            raise LedgerIntegrityError(f"hand {view.id!r} lacks a matching signed 'hand' statement")
        for s in view.seats:
            if s.seed is not None and s.commitment is not None:
                verify_player_seed(view.id, s.seat, bytes.fromhex(s.seed), s.commitment)
        if view.server_seed is not None and view.server_seed_commitment is not None:
            verify_server_seed(bytes.fromhex(view.server_seed), view.server_seed_commitment)
        return view.state


__all__ = ["Ledger", "check_id", "check_player_name", "Clock", "RecordValidator"]
