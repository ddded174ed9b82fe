"""The log's tables in the ledger's SQLite file, as named migrations (:data:`MIGRATIONS`,
applied by :class:`audit.tlog.store.TransparencyLog` and the ledger's own migrations); the
tables themselves are described in :mod:`audit.tlog.store`.
"""
from __future__ import annotations

import sqlite3
from typing import Any

from audit.errors import LedgerIntegrityError

from . import merkle


#: ``tlog_nodes`` as a view of the ``nodes`` column (``tlog-0002``): one row per stored
#: subtree, ``(level, idx, hash)`` as the table had them; it refuses writes like the table did
_NODES_VIEW = (
    "CREATE VIEW tlog_nodes (level, idx, hash) AS"
    " WITH RECURSIVE lv(level) AS (SELECT 1 UNION ALL SELECT level + 1 FROM lv WHERE level < 63)"
    " SELECT lv.level, ((l.idx + 1) >> lv.level) - 1, substr(l.nodes, 32 * lv.level - 31, 32)"
    " FROM tlog_leaves l JOIN lv ON length(l.nodes) >= 32 * lv.level",
    *(f"CREATE TRIGGER tlog_nodes_no_{verb.lower()} INSTEAD OF {verb} ON tlog_nodes"
      " BEGIN SELECT RAISE(ABORT, 'tlog_nodes is append-only'); END" for verb in ("INSERT", "UPDATE", "DELETE")),
)


def _nodes_into_leaf_rows(conn: sqlite3.Connection) -> None:
    """``tlog-0002``: each cached subtree moves into the row of the leaf that completed it.

    Leaf ``i`` completes the perfect subtrees of levels ``1..t`` ending at it (``t`` = the
    trailing one bits of ``i``); their hashes, concatenated by level, become that row's
    ``nodes``.  An append then writes one row in one B-tree instead of a leaf row plus, on
    average, a node row in another B-tree (a page more per statement, synced at each
    commit).  Every node row is kept (readable as before through the ``tlog_nodes`` view);
    a node whose leaf row is missing, or a gap in a row's levels, stops the migration and
    its transaction rolls back."""
    conn.execute("ALTER TABLE tlog_leaves ADD COLUMN nodes BLOB NOT NULL DEFAULT x''")
    by_leaf: dict[int, dict[int, bytes]] = {}
    for level, idx, h in conn.execute("SELECT level, idx, hash FROM tlog_nodes"):
        by_leaf.setdefault(((idx + 1) << level) - 1, {})[level] = bytes(h)
    conn.execute("DROP TRIGGER tlog_leaves_no_update")
    for leaf, levels in sorted(by_leaf.items()):
        if sorted(levels) != list(range(1, len(levels) + 1)) or any(len(h) != merkle.HASH_SIZE for h in levels.values()):
            raise LedgerIntegrityError(f"transparency log subtrees ending at leaf {leaf} are incomplete")
        cur = conn.execute("UPDATE tlog_leaves SET nodes = ? WHERE idx = ?",
                           (b"".join(levels[lv] for lv in sorted(levels)), leaf))
        if cur.rowcount != 1:
            raise LedgerIntegrityError(f"transparency log subtree ending at leaf {leaf} has no leaf row")
    conn.execute("CREATE TRIGGER tlog_leaves_no_update BEFORE UPDATE ON tlog_leaves"
                 " BEGIN SELECT RAISE(ABORT, 'tlog_leaves is append-only'); END")
    conn.execute("DROP TABLE tlog_nodes")  # its triggers go with it
    for sql in _NODES_VIEW:
        conn.execute(sql)


MIGRATIONS: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("tlog-0001-leaves-nodes-checkpoints", (
        "CREATE TABLE tlog_leaves (idx INTEGER PRIMARY KEY, leaf_hash BLOB NOT NULL, entry BLOB NOT NULL)",
        "CREATE TABLE tlog_nodes (level INTEGER NOT NULL, idx INTEGER NOT NULL, hash BLOB NOT NULL,"
        " PRIMARY KEY (level, idx)) WITHOUT ROWID",
        "CREATE TABLE tlog_checkpoints (id INTEGER PRIMARY KEY, size INTEGER NOT NULL, root BLOB NOT NULL,"
        " time TEXT NOT NULL, text TEXT NOT NULL)",
        *(f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table}"
          f" BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
          for table in ("tlog_leaves", "tlog_nodes", "tlog_checkpoints") for verb in ("UPDATE", "DELETE")),
    )),
    ("tlog-0002-nodes-in-leaf-rows", (_nodes_into_leaf_rows,)),
)
