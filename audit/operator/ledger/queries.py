"""The reads a site needs of a ledger: listings, counts, a page of hands, the log's head.

:class:`LedgerReads` is a base of :class:`~audit.operator.ledger.Ledger`, never used alone: the
website (``web/``) asks these of the ledger's facade -- ``ledger.operators()``,
``ledger.hand_page(...)`` -- instead of writing SQL against the ledger's schema or passing its
connection around (``tests/web/test_web_one_ledger_way.py`` holds the site to that).  Each
reads through the ledger's own connection (one per request on the site) and creates or
changes nothing; the views returned are the ledger's public ones (:mod:`.views`), so nothing
read here holds a secret.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from sqlite_utils import Database

from .lifecycle import hand_state

if TYPE_CHECKING:
    from ...tlog.store import TransparencyLog
    from .views import HandView, OperatorView, TableView


class LedgerReads:
    """The site's reads of :class:`~audit.operator.ledger.Ledger` (see the module's docstring)."""

    db: Database

    if TYPE_CHECKING:
        def operator(self, name: str) -> OperatorView: ...
        def table(self, table_id: str) -> TableView: ...
        def get_hand(self, hand_id: str) -> HandView: ...

    def is_reusable(self) -> bool:
        """Whether this ledger may serve a server's next request as it is: no transaction left
        open on its connection (``web/db.py``'s pool)."""
        return not self.db.conn.in_transaction

    def operators(self) -> list[OperatorView]:
        """Every registered operator, in the order they were registered."""
        return [self.operator(name) for (name,) in self.db.execute("SELECT name FROM operators ORDER BY rowid")]

    def table_ids(self) -> list[str]:
        """Every table's id, in the order the tables were made."""
        return [r[0] for r in self.db.execute("SELECT id FROM ledger_tables ORDER BY rowid")]

    def tables(self) -> list[TableView]:
        """Every table, in the order they were made."""
        return [self.table(t) for t in self.table_ids()]

    def hand_counts(self) -> dict[str, dict[str, int]]:
        """Hands per preset and state (``{"kitti": {"revealed": 12, ...}}``, presets sorted);
        one light query per hand (a hand's state is derived from its statements)."""
        out: dict[str, dict[str, int]] = {}
        for hid, preset in self.db.execute("SELECT id, preset FROM hands ORDER BY rowid").fetchall():
            state = hand_state(self.db, hid).value
            per = out.setdefault(preset, {})
            per[state] = per.get(state, 0) + 1
        return dict(sorted(out.items()))

    def hand_page(self, *, table_id: str | None = None, preset: str | None = None, state: str | None = None,
                  limit: int = 50, offset: int = 0) -> tuple[list[HandView], int]:
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
        ids = [r[0] for r in self.db.execute(sql + " ORDER BY rowid DESC", args).fetchall()]
        if state is not None:
            ids = [h for h in ids if hand_state(self.db, h).value == state]
        return [self.get_hand(h) for h in ids[offset:offset + limit]], len(ids)

    def transparency_log(self) -> TransparencyLog:
        """The ledger's transparency log over the ledger's own connection (no migration: a
        ledger's schema already holds the log, ``m004_transparency_log``)."""
        from ...tlog.store import TransparencyLog

        return TransparencyLog(self.db, migrate=False)

    def latest_checkpoint(self) -> str | None:
        """The text of the last checkpoint the ledger's log stored (``None``: none yet)."""
        if not self.db["tlog_checkpoints"].exists():
            return None
        return self.transparency_log().latest_checkpoint()
