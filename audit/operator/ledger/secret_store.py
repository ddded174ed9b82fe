"""The ledger's secret store: unrevealed server seeds and operators' stored private keys.

The public ledger file never holds a secret, so it can be backed up, replicated or served
read-only.  The secrets live in a second SQLite file beside it (``tiplu.db`` ->
``tiplu.secrets.db``, :func:`secrets_path_for`), created with mode 0600 (``os.open`` with
that mode, then ``fchmod``, so the umask cannot widen it; SQLite gives its ``-wal`` and
``-shm`` files the same mode).  An existing store that other users can read is refused.

Three tables, all append-only:

* ``server_seeds_ahead(commitment PRIMARY KEY, seed)`` -- the server seeds of a ledger file,
  made ahead of their hands in small batches (:meth:`SecretStore.take_server_seed`): each
  batch is committed and synced in one transaction *before* any of its seeds is handed to
  a hand, so one sync serves many hands where it was one sync per hand.  Which hand uses
  a seed is public: its commitment is in the ledger's ``hand_commitments``.  A process
  hands each seed it made to one hand at most and forgets the rest when it exits or
  forks; those, like the seed of a commit that lost a race, are orphans nobody refers to.
* ``server_seeds(commitment PRIMARY KEY, hand_id, seed)`` -- a seed stored for one hand as
  it commits: in-memory ledgers, the simulator's pinned seeds, and every file ledger
  before the seeds were made ahead.  Keyed by the *commitment* too.
* ``operator_keys(public_key PRIMARY KEY, private_key)``.

Order of writes (crash safety across two files): a secret is committed to this store
*before* the public row that refers to it.  A crash in between leaves a secret with no
public row (harmless); it can never leave a public commitment whose seed is lost.
"""
from __future__ import annotations

import hmac
import os
import pathlib
import sqlite3
import stat
import threading
from typing import Callable, Iterable

from sqlite_utils import Database

from ...errors import LedgerError
from .store import append_only, atomic, enable_wal

SECRET_MODE = 0o600


class SecretStoreError(LedgerError):
    """A secret store that cannot be used safely: readable by others, or not a secret store."""


def secrets_path_for(ledger_path: "str | pathlib.Path") -> pathlib.Path:
    """``tiplu.db`` -> ``tiplu.secrets.db``; a path without a suffix gets ``.secrets``."""
    p = pathlib.Path(ledger_path)
    return p.with_name(f"{p.stem}.secrets{p.suffix}") if p.suffix else p.with_name(p.name + ".secrets")


def create_private_file(path: "str | pathlib.Path") -> None:
    """Create an empty file readable and writable by its owner only (0600, whatever the umask)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, SECRET_MODE)
    try:
        os.fchmod(fd, SECRET_MODE)
    finally:
        os.close(fd)


def check_private_file(path: "str | pathlib.Path") -> None:
    """Refuse a file holding secrets that its group or other users may read or write."""
    mode = os.stat(path).st_mode
    if mode & 0o077:
        raise SecretStoreError(f"{path} holds secrets but is readable by other users "
                               f"(mode {stat.S_IMODE(mode):04o}): run chmod 600 {path}")


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS server_seeds (
        commitment TEXT PRIMARY KEY,
        hand_id TEXT NOT NULL,
        seed TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS operator_keys (
        public_key TEXT PRIMARY KEY,
        private_key TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS server_seeds_ahead (
        commitment TEXT PRIMARY KEY,
        seed TEXT NOT NULL)""",
)
_TABLES = ("server_seeds", "operator_keys", "server_seeds_ahead")

_SCHEMA_OBJECTS = frozenset({
    *(("table", t) for t in _TABLES),
    *(("trigger", f"{t}_no_{op}") for t in _TABLES for op in ("update", "delete")),
})

#: the most seeds one batch of :meth:`SecretStore.take_server_seed` makes ahead; a process's
#: first batch for a store is one seed and each next one twice the last, so a short-lived
#: process (a CLI call) makes what it uses and a server soon syncs once per this many hands
SEED_BATCH = 32


class _Pool:
    """Seeds made ahead and not yet handed out, per secret-store file, in this process only.

    Forgotten in a forked child (``os.register_at_fork``; the pid is checked as well): a
    child never hands out a seed its parent may hand out too."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pid = os.getpid()
        self.seeds: dict[str, list[tuple[str, bytes]]] = {}
        self.batch: dict[str, int] = {}

    def forget(self) -> None:
        self.lock = threading.Lock()  # a lock another thread held at the fork would never be released
        self.pid = os.getpid()
        self.seeds.clear()
        self.batch.clear()


_POOL = _Pool()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_POOL.forget)


def _has_schema(db: Database) -> bool:
    """Whether the store already has its tables and append-only triggers (a plain read)."""
    found = {(r[0], r[1]) for r in db.execute("SELECT type, name FROM sqlite_master")}
    return _SCHEMA_OBJECTS <= found


class SecretStore:
    """The secret store at ``path`` (``":memory:"`` for an in-memory ledger).

    ``create=True`` makes the file (0600) when it is missing; without it a missing store
    reads as empty and nothing is created.
    """

    def __init__(self, path: "str | pathlib.Path", *, create: bool = False) -> None:
        self.path = str(path)
        self.db: Database | None = None
        if self.path == ":memory:":
            self._open()
        elif os.path.exists(self.path):
            check_private_file(self.path)
            self._open()
        elif create:
            self._create()

    def _create(self) -> None:
        try:
            create_private_file(self.path)
        except FileExistsError:  # another process created it first
            pass
        check_private_file(self.path)
        self._open()

    def _open(self) -> None:
        db = Database(sqlite3.connect(self.path, isolation_level=None, check_same_thread=False))
        db.conn.execute("PRAGMA busy_timeout = 5000")
        try:
            if self.path != ":memory:":
                enable_wal(db)
                db.conn.execute("PRAGMA synchronous = FULL")  # a seed is durable before its commitment is public
            if not _has_schema(db):  # every open but the first only reads: no write lock per request
                with atomic(db):
                    for sql in _SCHEMA:
                        db.execute(sql)
                    for table in _TABLES:
                        append_only(db, table)
        except sqlite3.DatabaseError as exc:
            db.close()
            raise SecretStoreError(f"{self.path} is not a Tiplu secret store ({exc})") from None
        self.db = db

    def _reader(self) -> Database | None:
        """The store for a read: opened if it exists now (another process may have made it)."""
        if self.db is None and os.path.exists(self.path):
            check_private_file(self.path)
            self._open()
        return self.db

    def ensure(self) -> Database:
        """The store's database, creating the file (0600) if it does not exist yet."""
        if self.db is None:
            self._create()
        assert self.db is not None
        return self.db

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    # -- server seeds ------------------------------------------------------------------
    def put_server_seed(self, commitment: str, hand_id: str, seed: bytes) -> None:
        """Store a seed under its commitment (committed and durable when this returns)."""
        db = self.ensure()
        with atomic(db):
            db.execute("INSERT OR IGNORE INTO server_seeds (commitment, hand_id, seed) VALUES (?, ?, ?)",
                       [commitment, hand_id, seed.hex()])

    def take_server_seed(self, make: Callable[[], bytes], commit: Callable[[bytes], str]) -> tuple[bytes, str]:
        """A server seed for one hand and its commitment, committed and synced in this store
        before it is returned, and handed out by this process once only.

        Seeds are made ahead (``make()`` each, ``commit(seed)`` its commitment) and stored
        in one transaction per batch (:data:`SEED_BATCH`): a batch's sync serves the hands
        that follow.  A file store only (an in-memory one has nothing to sync: use
        :meth:`put_server_seed`)."""
        if self.path == ":memory:":
            raise ValueError("seeds are made ahead only for a secret store on a file")
        key = os.path.realpath(self.path)
        pool = _POOL
        if pool.pid != os.getpid():  # a fork that os.register_at_fork did not see
            pool.forget()
        with pool.lock:
            seeds = pool.seeds.setdefault(key, [])
            if not seeds:
                size = pool.batch[key] = min(2 * pool.batch.get(key, 0) or 1, SEED_BATCH)
                made = [make() for _ in range(size)]
                batch = [(commit(seed), seed) for seed in made]
                db = self.ensure()
                with atomic(db):
                    for commitment, seed in batch:
                        db.execute("INSERT INTO server_seeds_ahead (commitment, seed) VALUES (?, ?)",
                                   [commitment, seed.hex()])
                batch.reverse()  # handed out in the order they were made
                seeds.extend(batch)
            commitment, seed = seeds.pop()
        return seed, commitment

    def server_seed(self, commitment: str) -> bytes | None:
        db = self._reader()
        if db is None:
            return None
        row = db.execute("SELECT seed FROM server_seeds_ahead WHERE commitment = ?1"
                         " UNION ALL SELECT seed FROM server_seeds WHERE commitment = ?1 LIMIT 1",
                         [commitment]).fetchone()
        return bytes.fromhex(row[0]) if row else None

    # -- operator keys -----------------------------------------------------------------
    def put_private_key(self, public_key: str, private_key: str) -> None:
        db = self.ensure()
        with atomic(db):
            db.execute("INSERT OR IGNORE INTO operator_keys (public_key, private_key) VALUES (?, ?)",
                       [public_key, private_key])

    def private_key(self, public_key: str) -> str | None:
        db = self._reader()
        if db is None:
            return None
        row = db.execute("SELECT private_key FROM operator_keys WHERE public_key = ?", [public_key]).fetchone()
        return row[0] if row else None

    def put_many(self, seeds: Iterable[tuple[str, str, bytes]], keys: Iterable[tuple[str, str]]) -> None:
        """Copy secrets in one transaction (:func:`move_secrets`)."""
        db = self.ensure()
        with atomic(db):
            for commitment, hand_id, seed in seeds:
                db.execute("INSERT OR IGNORE INTO server_seeds (commitment, hand_id, seed) VALUES (?, ?, ?)",
                           [commitment, hand_id, seed.hex()])
            for public_key, private_key in keys:
                db.execute("INSERT OR IGNORE INTO operator_keys (public_key, private_key) VALUES (?, ?)",
                           [public_key, private_key])


LEGACY_TABLES = ("operator_secrets", "server_seeds")


def legacy_secret_tables(db: Database) -> list[str]:
    """The secret tables an older ledger kept in its public file (still present)."""
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return [t for t in LEGACY_TABLES if t in names]


def move_secrets(db: Database, store: SecretStore) -> dict[str, int]:
    """Move an older ledger's secrets out of its public file into ``store``.

    Copies every server seed (keyed by its hand's commitment; a seed whose hand never
    committed has nothing to protect and is dropped) and every stored private key into the
    store and commits there first; only then drops the two tables from the public file and
    rewrites it (``VACUUM``, then a WAL checkpoint that truncates the WAL) so the freed pages
    holding the secrets are gone from the file.  Running it again does nothing.
    """
    present = legacy_secret_tables(db)
    seeds: list[tuple[str, str, bytes]] = []
    keys: list[tuple[str, str]] = []
    if "server_seeds" in present:
        seeds = [(c, h, bytes.fromhex(s)) for h, s, c in db.execute(
            "SELECT s.hand_id, s.seed, c.commitment FROM server_seeds s"
            " JOIN hand_commitments c ON c.hand_id = s.hand_id")]
    if "operator_secrets" in present:
        keys = [(pub, priv) for pub, priv in db.execute(
            "SELECT o.public_key, s.private_key FROM operator_secrets s JOIN operators o ON o.name = s.operator")]
    if not present:
        return {"server_seeds": 0, "private_keys": 0}
    store.put_many(seeds, keys)
    for commitment, _, seed in seeds:  # read back before the public copy goes
        if not hmac.compare_digest(store.server_seed(commitment) or b"", seed):
            raise SecretStoreError(f"{store.path} holds another seed for commitment {commitment}")
    with atomic(db):
        for table in present:
            db.execute(f"DROP TABLE [{table}]")
    db.execute("VACUUM")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return {"server_seeds": len(seeds), "private_keys": len(keys)}


def _sqlite_copy(src: "str | pathlib.Path", dst: "str | pathlib.Path") -> None:
    source, out = sqlite3.connect(str(src)), sqlite3.connect(str(dst))
    try:
        source.backup(out)
    finally:
        source.close()
        out.close()


def copy_ledger(src: "str | pathlib.Path", dst: "str | pathlib.Path", *, with_secrets: bool = True) -> pathlib.Path:
    """An online (SQLite backup API) copy of a ledger at ``dst``; with ``with_secrets`` its secret
    store too, to ``secrets_path_for(dst)``, created 0600.  ``with_secrets=False`` is the copy to
    replicate or serve read-only: the public file alone holds no secret."""
    _sqlite_copy(src, dst)
    source_secrets = secrets_path_for(src)
    if with_secrets and source_secrets.exists():
        target = secrets_path_for(dst)
        create_private_file(target)
        _sqlite_copy(source_secrets, target)
    return pathlib.Path(dst)
