"""The ledger facade: :class:`Ledger`, the one object operators' code and the CLI use.

Verbs (each a single atomic write that signs and appends one statement, or raises a typed
error and changes nothing): :meth:`~Ledger.new_operator`, :meth:`~Ledger.new_table`, and
a hand's lifecycle (:mod:`.hands`): :meth:`~Ledger.new_hand`, :meth:`~Ledger.commit`,
:meth:`~Ledger.seed_commit`, :meth:`~Ledger.seed_reveal`, :meth:`~Ledger.deal`,
:meth:`~Ledger.finish`, :meth:`~Ledger.reveal`, :meth:`~Ledger.cancel`, and the moves as
played (:mod:`.moves`): :meth:`~Ledger.play_move` (a signed move receipt, not a log leaf).  Reads: :meth:`~Ledger.get_hand`,
:meth:`~Ledger.list_hands`, :meth:`~Ledger.statements`, :meth:`~Ledger.iter_records`,
:meth:`~Ledger.operator`, :meth:`~Ledger.verify_hand`.

Every write function takes ``now`` (a timezone-aware datetime); when it is ``None`` the
ledger's ``clock`` is asked, and without a clock the real UTC time is used.
"""
from __future__ import annotations

import dataclasses
import pathlib
import sqlite3
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Iterator, Mapping

from sqlite_utils import Database

from replay.canonical import canonical_json
from replay.errors import MalformedError
from replay.fairness import verify_player_seed, verify_server_seed
from replay.rulesets import allowed_players, resolve
from replay.settlement import parse_commission_pct, parse_point_value

from ...errors import AuthError, LedgerIntegrityError, LedgerStateError, NotALedgerError
from ...signing import SigningKey
from .. import tokens
from ..tokens import Principal
from . import views
from .hands import HandLifecycle, RecordValidator
from .inputs import check_id, check_player_name, check_seat
from .moves import MovePlay
from .publishing import Publishing
from .queries import LedgerReads
from .lifecycle import HandState
from .opening import open_db
from .secret_store import SecretStore, legacy_secret_tables, move_secrets, secrets_path_for
from .statements import StoredStatement, format_time, iter_statements
from .store import atomic, check_ledger_file, is_memory_path

Clock = Callable[[], datetime]


def _refused(exc: sqlite3.IntegrityError) -> LedgerStateError:
    return LedgerStateError(f"the ledger refused the write: {exc}")


#: the publisher's witness hook, ``(log, checkpoint_text) -> text`` (:mod:`audit.tlog.witnessing`)
Cosigner = Callable[[Any, str], str]


class Ledger(HandLifecycle, MovePlay, LedgerReads, Publishing):
    """An append-only ledger of operators, tables and hands, in one SQLite file.

    ``path_or_db`` is a file path, ``":memory:"``, a :class:`sqlite_utils.Database` or a
    :class:`sqlite3.Connection`; opening applies any pending migration.  Only a ledger is
    opened: a missing or empty file becomes a new ledger only with ``create=True``, and
    anything else raises :class:`~audit.errors.NotALedgerError` untouched (:func:`.opening.open_db`).  ``keys`` are
    operators' signing keys kept outside the database (matched to operators by public key);
    a key stored in the database is used when no outside key is given.  ``cosign_checkpoint``
    is the publisher's witness hook (:attr:`cosign_checkpoint`), given when the ledger is made
    and fixed for its life.
    """

    def __init__(self, path_or_db: "str | pathlib.Path | Database | sqlite3.Connection", *,
                 clock: Clock | None = None, keys: Iterable[SigningKey] = (),
                 validate_record: RecordValidator | None = None, create: bool = False,
                 secrets_path: "str | pathlib.Path | None" = None, cosign_checkpoint: Cosigner | None = None) -> None:
        self.db = open_db(path_or_db, create=create)
        self._cosign = cosign_checkpoint
        self._where = self.db.execute("PRAGMA database_list").fetchone()[2] or ":memory:"
        self._secrets_path = str(secrets_path) if secrets_path is not None else (
            ":memory:" if self._where == ":memory:" else str(secrets_path_for(self._where)))
        self._secret_store: SecretStore | None = None
        self._legacy = legacy_secret_tables(self.db)
        self._clock = clock
        self._keys = {k.public_hex: k for k in keys}
        self._signers: dict[str, SigningKey] = {}  # operator -> its key, once found (:meth:`_signer`)
        self._hands_kept = {}  # hand id -> its fixed facts and players (:meth:`.hands.HandLifecycle._hand_row`)
        self._validate_record = validate_record

    @classmethod
    def open_shared(cls, path: "str | pathlib.Path", *, secrets_path: "str | pathlib.Path | None" = None,
                    cosign_checkpoint: Cosigner | None = None) -> "Ledger":
        """``Ledger(path, ...)`` -- the same checks, the same refusals -- over a connection that
        may pass from one thread to the next (never used by two at once), so a server can keep an
        opened ledger between requests instead of opening one per request (``web/db.py``).  The
        secret store's connection is already made that way."""
        if is_memory_path(path):
            raise NotALedgerError("an in-memory ledger is new on every open: it cannot be shared")
        check_ledger_file(path, create=False)
        conn = sqlite3.connect(str(path), check_same_thread=False)
        try:
            return cls(conn, secrets_path=secrets_path, cosign_checkpoint=cosign_checkpoint)
        except BaseException:
            conn.close()
            raise

    @property
    def cosign_checkpoint(self) -> Cosigner | None:
        """The publisher's witness hook, ``(log, checkpoint_text) -> text``
        (:mod:`audit.tlog.witnessing`): what a published record's checkpoint is cosigned with;
        ``None`` without witnesses.  Read-only: a ledger kept between requests (``web/db.py``)
        has the one its server was configured with, never one a request left on it."""
        return self._cosign

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
                    self.db._tiplu_secret_store = store  # type: ignore[attr-defined]  # kept on sqlite-utils' Database
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

    def _write(self) -> atomic:
        """One transaction for a verb; an :class:`sqlite3.IntegrityError` (a race lost to
        another writer, or a tampered file) becomes a :class:`LedgerStateError`."""
        return atomic(self.db, _refused)

    def signing_key(self, operator: str) -> SigningKey:
        """The operator's signing key (kept outside or stored in the ledger), for operator-side
        code that signs beside the ledger: receipts' log checkpoints, the simulator."""
        return self._signer(operator)

    def _signer(self, operator: str) -> SigningKey:
        """The operator's key, loaded once per ledger object and then kept in memory only.

        An operator's row and its stored key are append-only, so the key found first is the
        key for good; only a key that was found is kept (a missing one is asked again)."""
        key = self._signers.get(operator)
        if key is None:
            key = self._signers[operator] = self._load_signer(operator)
        return key

    def _load_signer(self, operator: str) -> SigningKey:
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
        # key_stored as :meth:`operator` will say it (the bare row says False): just written, or not
        return dataclasses.replace(views.get_operator(self.db, name), key_stored=store_key)

    def new_table(self, table_id: str, *, operator: str, preset: str, overrides: Mapping[str, Any] | None = None,
                  seats: int | None = None, point_value: str = "1", commission_pct: str = "0",
                  now: datetime | None = None) -> views.TableView:
        """A table: a preset and its overrides (resolved once), a seat count, and its money."""
        table_id = check_id(table_id, what="table id")
        ruleset = resolve(preset, overrides)
        allowed = allowed_players(ruleset)
        seats = max(allowed) if seats is None else check_seat(seats)
        if seats not in allowed:
            raise MalformedError(f"{preset} allows {', '.join(map(str, allowed))} seats, not {seats}")
        parse_point_value(point_value)  # the one rule of table money (replay.settlement); stored as given
        parse_commission_pct(commission_pct)
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

    # -- API tokens (:mod:`audit.operator.tokens`, kept in the ledger's file) -------------
    def authenticate(self, token: object) -> Principal:
        """The principal of a valid, unrevoked API token; :class:`AuthError` ("invalid token") otherwise."""
        return tokens.authenticate(self.db, token)

    def issue_seat_token(self, hand_id: str, seat: int, *, now: datetime | None = None) -> tuple[Principal, str]:
        """A new token for one seat of one hand: ``(principal, token)`` -- the token is shown only now."""
        return tokens.issue_seat_token(self.db, hand_id, seat, now=now)

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
