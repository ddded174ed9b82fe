"""Opening a ledger: the one way a ledger database is opened for writing (:func:`open_db`).

It checks that the file is a Tiplu ledger (:func:`.store.check_ledger_file`; a missing or
empty file becomes one only with ``create=True``), connects with the ledger's settings
(:func:`.store.connect`: foreign keys, WAL mode for files, a busy timeout) and applies every
migration of :mod:`.migrations` not yet applied.  Its own module so that the migration
machinery (:mod:`.store`) and the schema built with it (:mod:`.migrations`) do not import
each other.
"""
from __future__ import annotations

import pathlib
import sqlite3

from sqlite_utils import Database

from .migrations import MIGRATIONS
from .store import check_ledger_schema, is_memory_path, check_ledger_file, connect, enable_wal, migrate


def open_db(path_or_db: "str | pathlib.Path | Database | sqlite3.Connection", *, create: bool = False) -> Database:
    """Open a ledger database and bring its schema up to date (the one way a ledger is opened).

    ``create=True`` makes a new ledger when the file is missing or empty (an in-memory
    database is always new).  Anything that is not a ledger raises
    :class:`~audit.errors.NotALedgerError` before a byte is written.
    """
    given = isinstance(path_or_db, (str, pathlib.Path)) and not is_memory_path(path_or_db)
    if given and isinstance(path_or_db, (str, pathlib.Path)):  # (given says so: the isinstance is for the checker)
        check_ledger_file(path_or_db, create=create)
    db = connect(path_or_db, wal=False)
    try:
        where = db.execute("PRAGMA database_list").fetchone()[2] or ""
        check_ledger_schema(db, str(path_or_db) if given else (where or ":memory:"), create=create or not where)
        enable_wal(db)
        migrate(db, MIGRATIONS)
    except BaseException:
        if not isinstance(path_or_db, (Database, sqlite3.Connection)):
            db.close()
        raise
    return db


__all__ = ["open_db"]
