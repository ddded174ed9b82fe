"""Migration 006 (fewer pages per append): a ledger written before it keeps every row, every
trigger and every reference, and goes on numbering statements where it stopped."""
from __future__ import annotations

import sqlite3
import struct

import pytest

import audit.operator.ledger.opening as opening
from audit.operator.ledger import Ledger
from audit.operator.ledger.migrations import APPEND_ONLY_TABLES, MIGRATIONS
from audit.operator.publish import publish
from audit.tlog.store import TransparencyLog
from replay.fairness import commit_player_seed

from ledger_testkit import PLAYERS, SEEDS, advance, new_ledger, snapshot

BEFORE_006 = tuple(m for m in MIGRATIONS if m[0] < "006")
STEP_TABLES = ("hand_commitments", "seat_commitments", "seat_reveals", "hand_deals", "hand_reveals", "hand_cancels")


def _old_ledger(path, monkeypatch) -> None:
    """A ledger file as the code before migration 006 left it, with hands in every state."""
    monkeypatch.setattr(opening, "MIGRATIONS", BEFORE_006)
    ledger = new_ledger(str(path))
    assert "AUTOINCREMENT" in ledger.db.execute("SELECT sql FROM sqlite_master WHERE name = 'statements'").fetchone()[0]
    advance(ledger, "h1", "reveal")
    advance(ledger, "h2", "deal")
    advance(ledger, "h3", "seed_commit")
    ledger.cancel("h3")
    ledger.new_hand("t1", PLAYERS, hand_id="h4")
    publish(ledger, "h1")
    ledger.close()
    monkeypatch.setattr(opening, "MIGRATIONS", MIGRATIONS)


def _schema(db, name: str) -> str:
    return db.execute("SELECT sql FROM sqlite_master WHERE name = ?", [name]).fetchone()[0]


def test_an_old_ledger_keeps_every_row_and_goes_on(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    _old_ledger(path, monkeypatch)
    raw = sqlite3.connect(path)
    before = {t: sorted(raw.execute(f"SELECT * FROM [{t}]").fetchall(), key=repr)
              for (t,) in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
              if t != "sqlite_sequence" and t != "migrations"}
    raw.close()

    ledger = Ledger(str(path))
    after = snapshot(ledger)
    for table, rows in before.items():
        assert after[table] == rows, table
    assert "AUTOINCREMENT" not in _schema(ledger.db, "statements")
    for table in STEP_TABLES:
        assert _schema(ledger.db, table).rstrip().endswith("WITHOUT ROWID"), table
    assert "WITHOUT ROWID" not in _schema(ledger.db, "hand_records")
    assert ledger.db.execute("PRAGMA foreign_key_check").fetchall() == []
    assert ledger.db.execute("SELECT count(*) FROM sqlite_master WHERE name LIKE '%006%'").fetchone()[0] == 0
    triggers = {r[0] for r in ledger.db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    for table in APPEND_ONLY_TABLES:
        assert {f"{table}_no_update", f"{table}_no_delete"} <= triggers, table
    for table in ("statements", *STEP_TABLES, "hand_records"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            ledger.db.execute(f"DELETE FROM [{table}]")
    with pytest.raises(sqlite3.IntegrityError, match=r"^FOREIGN KEY constraint failed$"):  # references still hold
        ledger.db.execute("INSERT INTO hand_deals (hand_id, seq) VALUES ('h4', 999999)")

    last = ledger.db.execute("SELECT max(seq) FROM statements").fetchone()[0]
    ledger.commit("h4")
    assert [st.seq for st in ledger.statements(since_seq=last)] == [last + 1]
    ledger.finish("h2", {"hand_id": "h2", "moves": []})
    ledger.reveal("h2")
    assert ledger.verify_hand("h2").value == "revealed"
    TransparencyLog(ledger.db, migrate=False).check()
    assert TransparencyLog(ledger.db, migrate=False).size() == ledger.db.execute(
        "SELECT count(*) FROM statements").fetchone()[0]


def _frames_per_commit(path) -> list[int]:
    wal = (path.parent / (path.name + "-wal")).read_bytes()
    counts, n, off = [], 0, 32
    while off + 24 <= len(wal):
        _, commit = struct.unpack(">II", wal[off:off + 8])
        n += 1
        if commit:
            counts.append(n)
            n = 0
        off += 24 + 4096
    return counts


@pytest.mark.parametrize("migrations, pages", [(BEFORE_006, 6), (MIGRATIONS, 4)], ids=["before-006", "after"])
def test_a_seed_commitment_writes_fewer_pages(tmp_path, monkeypatch, migrations, pages):
    """The cause of the slow appends: pages written per statement (each one goes to the WAL
    and is synced).  A seat's seed commitment wrote 6; after migration 006 it writes 4."""
    monkeypatch.setattr(opening, "MIGRATIONS", migrations)
    path = tmp_path / "l.db"
    ledger = new_ledger(str(path))
    for h in range(40):  # a ledger past its first pages
        advance(ledger, f"w{h}", "reveal")
    advance(ledger, "h1", "commit")
    ledger.db.execute("PRAGMA wal_autocheckpoint = 0")
    ledger.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for seat, seed in enumerate(SEEDS):
        ledger.seed_commit("h1", seat, commit_player_seed("h1", seat, seed))
    assert min(_frames_per_commit(path)) == pages
    ledger.close()
