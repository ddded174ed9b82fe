"""The ledger's SQLite file: connecting, checking it is a ledger, the one transaction helper, named migrations.

* :func:`connect`, :func:`check_ledger_file` and :func:`open_readonly` -- the connection
  settings (foreign keys on, WAL mode for files, a busy timeout) and the checks that a file
  is a Tiplu ledger: a missing or empty file passes only when a ledger is being created; a
  file that is not SQLite, or an SQLite database of another program, is refused
  (:class:`~audit.errors.NotALedgerError`) and never touched.  :func:`.opening.open_db`
  (the one way a ledger is opened for writing) puts these together with the schema.
* :func:`atomic` -- the one transaction helper every write goes through.  The outermost
  call is ``BEGIN IMMEDIATE`` (the write lock is taken before anything is read, so a
  state check and the write that follows it cannot interleave with another writer);
  nested calls are savepoints.  Any exception rolls everything back.
* Migrations are named functions ``fn(db)``, applied in order, each inside the same
  transaction that records its name in the ``migrations`` table -- so a migration is
  either applied and recorded, or neither.  Re-opening a ledger applies nothing twice.
"""
from __future__ import annotations

import pathlib
import sqlite3
from contextlib import AbstractContextManager
from datetime import datetime, timezone
from types import TracebackType
from typing import Callable, Sequence

from sqlite_utils import Database

Migration = tuple[str, Callable[[Database], None]]

MIGRATIONS_TABLE_SQL = (
    "CREATE TABLE IF NOT EXISTS migrations ("
    " name TEXT PRIMARY KEY,"
    " applied_at TEXT NOT NULL)"
)


class atomic:
    """Run the block in one transaction (a savepoint when one is already open).

    ``with atomic(db) as db:`` -- a class rather than a generator: every statement's append
    goes through it, and a generator-based context manager costs several microseconds more.
    ``wrap_integrity`` turns an :class:`sqlite3.IntegrityError` raised in the block or at
    ``COMMIT`` into ``wrap_integrity(exc)`` (the ledger's typed "refused the write" error),
    after the rollback."""

    __slots__ = ("db", "_conn", "_savepoint", "_wrap")

    def __init__(self, db: Database, wrap_integrity: "Callable[[sqlite3.IntegrityError], BaseException] | None" = None) -> None:
        self.db = db
        self._conn = db.conn
        self._savepoint: AbstractContextManager[Database] | None = None
        self._wrap = wrap_integrity

    def __enter__(self) -> Database:
        conn = self._conn
        if conn.in_transaction:
            self._savepoint = self.db.atomic()  # sqlite-utils: a savepoint, rolled back on error
            self._savepoint.__enter__()
        else:
            conn.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> bool:
        conn = self._conn
        if self._savepoint is not None:
            try:
                self._savepoint.__exit__(exc_type, exc, tb)
            except sqlite3.IntegrityError as err:
                self._raise(err)
            return self._reraise(exc)
        if exc_type is not None:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            return self._reraise(exc)
        try:
            conn.execute("COMMIT")
        except BaseException as err:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(err, sqlite3.IntegrityError):
                self._raise(err)
            raise
        return False

    def _reraise(self, exc: "BaseException | None") -> bool:
        if self._wrap is not None and isinstance(exc, sqlite3.IntegrityError):
            self._raise(exc)
        return False  # anything else propagates as it is

    def _raise(self, err: sqlite3.IntegrityError) -> None:
        if self._wrap is None:
            raise err
        raise self._wrap(err) from None


def append_only(db: Database, table: str) -> None:
    """Triggers that make ``table`` append-only: any UPDATE or DELETE aborts."""
    for op in ("UPDATE", "DELETE"):
        db.execute(
            f"CREATE TRIGGER IF NOT EXISTS [{table}_no_{op.lower()}] BEFORE {op} ON [{table}] "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {op} refused'); END"
        )


def applied_migrations(db: Database) -> list[str]:
    """The names of the applied migrations, in the order they were applied."""
    return [r[0] for r in db.execute("SELECT name FROM migrations ORDER BY rowid")]


def _all_recorded(db: Database, migrations: Sequence[Migration]) -> bool:
    """Whether the ``migrations`` table exists and records every name (a plain read)."""
    try:
        names = {r[0] for r in db.execute("SELECT name FROM migrations")}
    except sqlite3.OperationalError:  # no migrations table yet
        return False
    return all(name in names for name, _ in migrations)


def migrate(db: Database, migrations: Sequence[Migration], *, now: datetime | None = None) -> list[str]:
    """Apply each migration not yet recorded; returns the names applied by this call.

    When every migration is already recorded (every open but the first) this only reads:
    no write lock is taken, so opening a ledger per request does not serialise readers.
    """
    if not db.conn.in_transaction and _all_recorded(db, migrations):
        return []
    when = (now or datetime.now(timezone.utc)).isoformat()
    with atomic(db):
        db.execute(MIGRATIONS_TABLE_SQL)
        append_only(db, "migrations")
    done: list[str] = []
    for name, fn in migrations:
        with atomic(db):
            # checked inside the write transaction: two processes opening at once apply it once
            if db.execute("SELECT 1 FROM migrations WHERE name = ?", [name]).fetchone():
                continue
            fn(db)
            db.execute("INSERT INTO migrations (name, applied_at) VALUES (?, ?)", [name, when])
            done.append(name)
    return done


def connect(path_or_db: "str | pathlib.Path | Database | sqlite3.Connection", *, wal: bool = True) -> Database:
    """A Database with the ledger's connection settings (foreign keys, WAL, busy timeout)."""
    db = path_or_db if isinstance(path_or_db, Database) else Database(path_or_db)
    if db.conn.in_transaction:
        raise ValueError("open the ledger on a connection without an open transaction")
    db.conn.execute("PRAGMA foreign_keys = ON")
    db.conn.execute("PRAGMA busy_timeout = 5000")
    if wal:
        enable_wal(db)
    return db


def enable_wal(db: Database) -> None:
    """WAL mode for a file database (a persistent setting of the file: only for ledgers)."""
    if not db.memory and db.execute("PRAGMA database_list").fetchone()[2]:
        db.enable_wal()


#: the first migration of every ledger: a database whose ``migrations`` table lacks it is not one
FIRST_MIGRATION = "001_initial_schema"


def is_memory_path(path_or_db: object) -> bool:
    return isinstance(path_or_db, str) and path_or_db in (":memory:", "")


def check_ledger_file(path: "str | pathlib.Path", *, create: bool = False) -> None:
    """Refuse, with one clear sentence, a path that is not a ledger (nothing is written).

    A missing path or an empty file passes only with ``create``; a directory, a file that
    is not SQLite and an SQLite file of another program never pass."""
    from ...errors import NotALedgerError

    p = pathlib.Path(path)
    if not p.exists():
        if create:
            if not p.parent.is_dir():
                raise NotALedgerError(f"cannot create a ledger at {p}: no directory {p.parent}")
            return
        raise NotALedgerError(f"no ledger at {p} (create one with 'tiplu init --db {p}')")
    if not p.is_file():
        raise NotALedgerError(f"{p} is not a file")
    # The file is never opened here: closing any descriptor of a database file drops every
    # POSIX lock SQLite holds on it in this process, so a header read per request in a
    # threaded server let writers corrupt the WAL.  SQLite itself refuses a non-database file
    # (``check_ledger_schema``) before anything is written.
    if p.stat().st_size == 0 and not create:
        raise NotALedgerError(f"{p} is empty, not a ledger (create one with 'tiplu init --db {p}')")


def check_ledger_schema(db: Database, where: str, *, create: bool) -> None:
    """A database with no tables may become a ledger (``create``); one with tables must be one."""
    from ...errors import NotALedgerError

    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            if create:
                return
            raise NotALedgerError(f"{where} is empty, not a ledger (create one with 'tiplu init --db {where}')")
        ledger = "migrations" in tables and db.execute(
            "SELECT 1 FROM migrations WHERE name = ?", [FIRST_MIGRATION]).fetchone() is not None
    except sqlite3.OperationalError:  # busy, locked, I/O: not a verdict on the file
        raise
    except sqlite3.DatabaseError as exc:  # "file is not a database", a damaged file
        raise NotALedgerError(f"{where} is not a Tiplu ledger ({exc})") from None
    if not ledger:
        raise NotALedgerError(f"{where} is an SQLite database but not a Tiplu ledger: refusing to change it")


def connect_reading(path: "str | pathlib.Path", *, autocommit: bool = False) -> sqlite3.Connection:
    """A connection that only reads ``path`` and leaves no ``-wal``/``-shm`` file it made.

    SQLite makes both files beside a WAL database for any connection, also a ``mode=ro`` one,
    and only a connection that may write deletes them when it closes last (checkpointing
    what is in the WAL first).  So the connection opens read-write with ``PRAGMA
    query_only`` (every write refused), and whichever reading connection closes last removes
    the files -- unless the ``-wal`` holds frames (a writer is at work, crashed, or the file
    is a copy): then it is ``mode=ro``, so that no frame is ever checkpointed into the
    database by an auditor, and the files stay as they were.  (Readers only ever make an
    empty ``-wal``.)  A file or directory this process may not write is always read
    ``mode=ro``.  ``autocommit``: no implicit transactions (sqlite3's ``isolation_level=None``)."""
    import os

    p = pathlib.Path(path).resolve()
    wal = pathlib.Path(str(p) + "-wal")
    writable = os.access(p, os.W_OK) and os.access(p.parent, os.W_OK)
    try:
        frames = wal.stat().st_size > 0
    except FileNotFoundError:
        frames = False
    mode = "ro" if frames or not writable else "rw"
    # check_same_thread=False: a cached connection may be closed at exit by another thread (close_at_exit)
    uri = p.as_uri() + f"?mode={mode}"
    conn = (sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None) if autocommit
            else sqlite3.connect(uri, uri=True, check_same_thread=False))
    if mode == "rw":
        conn.execute("PRAGMA query_only = ON")
    return conn


def close_at_exit(db: "Database | sqlite3.Connection") -> None:
    """Close ``db`` when this process ends, also a worker of a process pool (which exits
    without collecting its objects): a reading connection that is never closed leaves its
    ``-wal``/``-shm`` beside the ledger.  For connections a process caches for its life."""
    from multiprocessing import util

    util.Finalize(None, db.close, exitpriority=10)


def check_intact(conn: "sqlite3.Connection | Database", where: str) -> None:
    """Refuse a damaged database (``PRAGMA quick_check`` finds anything wrong): a copy taken
    while the ledger was being written (the file and its ``-wal`` copied apart) can read as a
    ledger with rows missing, and must not audit as one.  :class:`LedgerIntegrityError`."""
    from ...errors import LedgerIntegrityError

    try:
        rows = [r[0] for r in conn.execute("PRAGMA quick_check(3)").fetchall()]
    except sqlite3.DatabaseError as exc:
        rows = [str(exc)]
    if rows != ["ok"]:
        raise LedgerIntegrityError(
            f"{where} is damaged (SQLite's quick_check: {rows[0]}): nothing audited (a copy taken while the "
            "ledger was written? copy a live ledger with 'sqlite3 LEDGER \".backup COPY\"')")


_INTACT: set[tuple[str, int, int, int]] = set()  # (path, size, mtime) found intact by this process


def open_readonly(path: "str | pathlib.Path", *, intact: bool = False) -> Database:
    """A ledger opened read-only, for auditors: refused like :func:`.opening.open_db` when the path is
    not a ledger, and never written to (no migration, no WAL switch, no ``-wal``/``-shm`` left
    behind: :func:`connect_reading`).  ``intact=True`` (an audit) also refuses a damaged
    database (:func:`check_intact`; once per file state and process)."""
    check_ledger_file(path, create=False)
    db = Database(connect_reading(path, autocommit=True))
    try:
        if intact:
            st = pathlib.Path(path).stat()
            wal = pathlib.Path(str(path) + "-wal")
            key = (str(pathlib.Path(path).resolve()), st.st_size, st.st_mtime_ns,
                   wal.stat().st_mtime_ns if wal.exists() else 0)
            if key not in _INTACT:
                check_intact(db, str(path))
                _INTACT.add(key)
        check_ledger_schema(db, str(path), create=False)
    except BaseException:
        db.close()
        raise
    return db
