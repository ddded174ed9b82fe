"""Migration 007 / ``tlog-0002`` (the log's cached subtrees in their leaf's row): a ledger
written before it keeps every leaf and every subtree, proves the same, and goes on."""
from __future__ import annotations

import sqlite3

import pytest
import sqlite_utils

from audit.errors import LedgerIntegrityError
from audit.operator.ledger import Ledger
from audit.operator.publish import publish
from audit.tlog import merkle
from audit.tlog.store import TransparencyLog
from audit.tlog.tables import MIGRATIONS as TLOG_MIGRATIONS

from ledger_testkit import PLAYERS, advance, new_ledger

OLD_NODES_TABLE = next(sql for sql in TLOG_MIGRATIONS[0][1] if sql.startswith("CREATE TABLE tlog_nodes"))
OLD_LEAVES_TABLE = next(sql for sql in TLOG_MIGRATIONS[0][1] if sql.startswith("CREATE TABLE tlog_leaves"))


def as_before_0002(path, *, ledger_migration: bool = True) -> None:
    """Turn a log back into the layout ``tlog-0001`` made (a table of nodes, leaves without
    ``nodes``) with the very same rows, and forget the migrations that changed it."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    nodes = db.execute("SELECT level, idx, hash FROM tlog_nodes").fetchall()
    leaves = db.execute("SELECT idx, leaf_hash, entry FROM tlog_leaves").fetchall()
    for name in ("tlog_nodes_no_insert", "tlog_nodes_no_update", "tlog_nodes_no_delete"):
        db.execute(f"DROP TRIGGER {name}")
    db.execute("DROP VIEW tlog_nodes")
    db.execute("DROP TABLE tlog_leaves")
    db.execute(OLD_LEAVES_TABLE)
    db.execute(OLD_NODES_TABLE)
    db.executemany("INSERT INTO tlog_leaves VALUES (?, ?, ?)", leaves)
    db.executemany("INSERT INTO tlog_nodes VALUES (?, ?, ?)", nodes)
    for sql in TLOG_MIGRATIONS[0][1]:
        if sql.startswith("CREATE TRIGGER tlog_leaves") or sql.startswith("CREATE TRIGGER tlog_nodes"):
            db.execute(sql)
    db.execute("DROP TRIGGER IF EXISTS migrations_no_delete")
    db.execute("DELETE FROM migrations WHERE name IN ('tlog-0002-nodes-in-leaf-rows', '007_log_nodes_in_leaf_rows')")
    if ledger_migration:  # a ledger's migrations table is append-only too
        db.execute("CREATE TRIGGER [migrations_no_delete] BEFORE DELETE ON [migrations] "
                   "BEGIN SELECT RAISE(ABORT, 'migrations is append-only: DELETE refused'); END")
    db.execute("COMMIT")
    db.close()


def _log_rows(path):
    db = sqlite3.connect(path)
    rows = (sorted(db.execute("SELECT idx, leaf_hash, entry FROM tlog_leaves").fetchall()),
            sorted(db.execute("SELECT level, idx, hash FROM tlog_nodes").fetchall()))
    db.close()
    return rows


def test_an_old_ledger_keeps_every_leaf_and_subtree_and_goes_on(tmp_path):
    path = tmp_path / "old.db"
    ledger = new_ledger(str(path))
    for h in range(6):
        advance(ledger, f"w{h}", "reveal")
    advance(ledger, "h2", "deal")
    ledger.new_hand("t1", PLAYERS, hand_id="h4")
    publish(ledger, "w0")
    ledger.close()
    as_before_0002(path)
    raw = sqlite3.connect(path)
    assert "nodes" not in [r[1] for r in raw.execute("PRAGMA table_info(tlog_leaves)")]
    assert raw.execute("SELECT type FROM sqlite_master WHERE name = 'tlog_nodes'").fetchone() == ("table",)
    raw.close()
    leaves, nodes = _log_rows(path)
    assert len(leaves) > 80 and len(nodes) == len(leaves) - bin(len(leaves)).count("1")  # every complete subtree
    tree = merkle.MemoryTree(bytes(h) for _, h, _ in leaves)

    ledger = Ledger(str(path))  # migration 007
    assert _log_rows(path) == (leaves, nodes)
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT type FROM sqlite_master WHERE name = 'tlog_nodes'").fetchone() == ("view",)
    raw.close()
    log = TransparencyLog(ledger.db, migrate=False)
    log.check()
    n = len(leaves)
    for size in (1, n // 2, n - 1, n):
        assert log.root(size) == tree.root(size)
        assert log.consistency_proof(size // 3, size) == tree.consistency_proof(size // 3, size)
        assert log.inclusion_proof(size - 1, size) == tree.inclusion_proof(size - 1, size)
    ledger.commit("h4")
    ledger.finish("h2", {"hand_id": "h2", "moves": []})
    ledger.reveal("h2")
    assert ledger.verify_hand("h2").value == "revealed"
    log.check()
    assert log.size() == ledger.db.execute("SELECT count(*) FROM statements").fetchone()[0] == n + 3
    for table in ("tlog_leaves", "tlog_nodes"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            ledger.db.execute(f"DELETE FROM {table}")
    ledger.close()
    assert Ledger(str(path)).db.execute(
        "SELECT count(*) FROM migrations WHERE name LIKE '%0002%' OR name LIKE '007%'").fetchone()[0] == 2


@pytest.mark.parametrize("damage, what", [
    ("DELETE FROM tlog_leaves WHERE idx = 7", "has no leaf row"),   # node (3, 0) ends at leaf 7
    ("DELETE FROM tlog_nodes WHERE level = 1 AND idx = 3", "incomplete"),  # leaf 7 keeps (2, 1), (3, 0)
])
def test_a_damaged_old_log_stops_the_migration_and_changes_nothing(tmp_path, damage, what):
    path = tmp_path / "log.db"
    db = sqlite_utils.Database(path)
    log = TransparencyLog(db)
    with db.atomic():
        for i in range(12):
            log.append(f"entry {i}".encode())
    db.close()
    as_before_0002(path, ledger_migration=False)
    raw = sqlite3.connect(path, isolation_level=None)
    table = damage.split()[2]
    raw.execute(f"DROP TRIGGER {table}_no_delete")
    raw.execute(damage)
    raw.close()
    before = _log_rows(path)
    db = sqlite_utils.Database(path)
    with pytest.raises(LedgerIntegrityError, match=what):
        TransparencyLog(db)
    db.close()
    assert _log_rows(path) == before
    raw = sqlite3.connect(path)
    assert "nodes" not in [r[1] for r in raw.execute("PRAGMA table_info(tlog_leaves)")]
    raw.close()


def test_an_append_that_completes_subtrees_writes_no_page_for_them(tmp_path):
    """The point of ``tlog-0002``: the subtrees a leaf completes are in its row, so a
    statement whose leaf completes some writes the pages of one that completes none.  On
    this history the four seed commitments (leaves 522-525) wrote 4, 9, 4 and 7 pages with
    the table of nodes; then 4, 4, 6, 4 (the 6: a page of the statements' index split), and
    with format 3's seat-receipt (79 bytes longer: its ``hand_hash``) 4, 4, 6, 6."""
    from replay.fairness import commit_player_seed
    from ledger_testkit import SEEDS
    from test_ledger_migration_006 import _frames_per_commit

    path = tmp_path / "l.db"
    ledger = new_ledger(str(path))
    for h in range(40):  # a ledger past its first pages
        advance(ledger, f"w{h}", "reveal")
    advance(ledger, "h1", "commit")
    ledger.db.execute("PRAGMA wal_autocheckpoint = 0")
    ledger.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for seat, seed in enumerate(SEEDS):
        ledger.seed_commit("h1", seat, commit_player_seed("h1", seat, seed))
    assert TransparencyLog(ledger.db, migrate=False).size() == 526
    assert sum(_frames_per_commit(path)) <= 20
    ledger.close()
