"""The reads a site needs of a ledger: listings, counts, a page of hands, the log's head.

The website (``web/``) asks these of a :class:`~audit.operator.ledger.Ledger` instead of writing
SQL against the ledger's schema; each reads through the ledger's own connection (one per
request on the site) and creates or changes nothing.  Every function takes the ledger
first; the views it returns are the ledger's public ones (:mod:`.views`), so nothing read
here holds a secret.
"""
from __future__ import annotations

import pathlib
import sqlite3
from typing import TYPE_CHECKING

from .lifecycle import hand_state

if TYPE_CHECKING:
    from ...tlog.store import TransparencyLog
    from .ledger import Ledger
    from .views import HandView, OperatorView, TableView


def open_shared(path: "str | pathlib.Path", *, secrets_path: "str | pathlib.Path | None" = None) -> "Ledger":
    """``Ledger(path, secrets_path=...)`` -- the same checks, the same refusals -- over a
    connection that may pass from one thread to the next (never used by two at once), so a
    server can keep an opened ledger between requests instead of opening one per request
    (``web/db.py``).  The secret store's connection is already made that way."""
    from ...errors import NotALedgerError
    from . import Ledger
    from .store import check_ledger_file, is_memory_path

    if is_memory_path(path):
        raise NotALedgerError("an in-memory ledger is new on every open: it cannot be shared")
    check_ledger_file(path, create=False)
    conn = sqlite3.connect(str(path), check_same_thread=False)
    try:
        return Ledger(conn, secrets_path=secrets_path)
    except BaseException:
        conn.close()
        raise


def reusable(ledger: "Ledger") -> bool:
    """Whether a request's ledger may serve the next request as it is: no transaction left
    open on its connection."""
    return not ledger.db.conn.in_transaction


def operators(ledger: "Ledger") -> "list[OperatorView]":
    """Every registered operator, in the order they were registered."""
    return [ledger.operator(name) for (name,) in ledger.db.execute("SELECT name FROM operators ORDER BY rowid")]


def table_ids(ledger: "Ledger") -> list[str]:
    """Every table's id, in the order the tables were made."""
    return [r[0] for r in ledger.db.execute("SELECT id FROM ledger_tables ORDER BY rowid")]


def tables(ledger: "Ledger") -> "list[TableView]":
    """Every table, in the order they were made."""
    return [ledger.table(t) for t in table_ids(ledger)]


def hand_counts(ledger: "Ledger") -> dict[str, dict[str, int]]:
    """Hands per preset and state (``{"kitti": {"revealed": 12, ...}}``, presets sorted);
    one light query per hand (a hand's state is derived from its statements)."""
    out: dict[str, dict[str, int]] = {}
    for hid, preset in ledger.db.execute("SELECT id, preset FROM hands ORDER BY rowid").fetchall():
        state = hand_state(ledger.db, hid).value
        per = out.setdefault(preset, {})
        per[state] = per.get(state, 0) + 1
    return dict(sorted(out.items()))


def hand_page(ledger: "Ledger", *, table_id: str | None = None, preset: str | None = None,
              state: str | None = None, limit: int = 50, offset: int = 0) -> "tuple[list[HandView], int]":
    """One page of hands, newest first, and the total matching: ``(views, total)``.

    Table and preset filter in SQL; a state filter needs each hand's derived state (one
    light query per candidate hand).  Only the page's hands are loaded in full."""
    sql, args = "SELECT id FROM hands", []
    where = []
    if table_id is not None:
        where.append("table_id = ?")
        args.append(table_id)
    if preset is not None:
        where.append("preset = ?")
        args.append(preset)
    if where:
        sql += " WHERE " + " AND ".join(where)
    ids = [r[0] for r in ledger.db.execute(sql + " ORDER BY rowid DESC", args).fetchall()]
    if state is not None:
        ids = [h for h in ids if hand_state(ledger.db, h).value == state]
    return [ledger.get_hand(h) for h in ids[offset:offset + limit]], len(ids)


def transparency_log(ledger: "Ledger") -> "TransparencyLog":
    """The ledger's transparency log over the ledger's own connection (no migration: a
    ledger's schema already holds the log, ``m004_transparency_log``)."""
    from ...tlog.store import TransparencyLog

    return TransparencyLog(ledger.db, migrate=False)


def latest_checkpoint(ledger: "Ledger") -> str | None:
    """The text of the last checkpoint the ledger's log stored (``None``: none yet)."""
    if not ledger.db["tlog_checkpoints"].exists():
        return None
    return transparency_log(ledger).latest_checkpoint()
