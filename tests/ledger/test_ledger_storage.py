"""The SQLite file: migrations, append-only triggers, WAL, foreign keys, keys, atomic()."""
from __future__ import annotations

import sqlite3

import pytest

from audit.errors import AuthError
from audit.operator.ledger import Ledger, atomic, open_db
from audit.operator.ledger.migrations import APPEND_ONLY_TABLES, MIGRATIONS
from audit.operator.ledger.store import applied_migrations, migrate
from audit.signing import SigningKey, verify_statement

from ledger_testkit import advance, new_ledger, snapshot


def test_migrations_are_recorded_and_reopening_is_idempotent(tmp_path):
    path = tmp_path / "l.db"
    ledger = new_ledger(path)
    advance(ledger, "h1", "reveal")
    names = [name for name, _ in MIGRATIONS]
    # the ledger's own migrations, in order (the transparency log records its tlog-* ones too)
    assert [n for n in applied_migrations(ledger.db) if not n.startswith("tlog-")] == names
    before = snapshot(ledger)
    ledger.close()
    for _ in range(2):
        again = Ledger(path)
        assert [n for n in applied_migrations(again.db) if not n.startswith("tlog-")] == names
        assert snapshot(again) == before
        assert again.get_hand("h1").state.value == "revealed"
        again.close()
    db = open_db(str(path))
    assert migrate(db, MIGRATIONS) == []


def test_a_failing_migration_is_neither_applied_nor_recorded():
    db = open_db(":memory:")

    def broken(db):
        db.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        migrate(db, MIGRATIONS + (("003_broken", broken),))
    assert "half_done" not in db.table_names()
    assert "003_broken" not in applied_migrations(db)


def test_a_new_migration_is_applied_once_in_order():
    db = open_db(":memory:")
    calls = []
    extra = MIGRATIONS + (("003_extra", lambda db: calls.append(1)),)
    assert migrate(db, extra) == ["003_extra"]
    assert migrate(db, extra) == []
    assert calls == [1] and applied_migrations(db)[-1] == "003_extra"


@pytest.mark.parametrize("table", APPEND_ONLY_TABLES + ("migrations",))
def test_update_and_delete_fail_at_the_sqlite_level(table):
    ledger = new_ledger()
    advance(ledger, "h1", "reveal")
    advance(ledger, "h2", "commit")
    ledger.cancel("h2")
    ledger.new_operator("outside", key=SigningKey.generate(), store_key=True)
    before = snapshot(ledger)
    assert before[table], f"{table} should hold a row for this test"
    col = ledger.db.execute(f"SELECT * FROM [{table}]").description[0][0]
    conn = ledger.db.conn  # raw sqlite3, below the library
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute(f"UPDATE [{table}] SET [{col}] = [{col}]")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute(f"DELETE FROM [{table}]")
    conn.rollback()
    assert snapshot(ledger) == before


def test_wal_mode_and_foreign_keys_are_on(tmp_path):
    ledger = Ledger(tmp_path / "w.db", create=True)
    assert ledger.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert ledger.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with pytest.raises(sqlite3.IntegrityError, match=r"^FOREIGN KEY constraint failed$"):
        ledger.db.execute("INSERT INTO hand_seats (hand_id, seat, player) VALUES ('ghost', 0, 'x')")


def test_atomic_rolls_back_everything_on_error_and_nests_as_savepoints():
    ledger = new_ledger()
    db = ledger.db
    before = snapshot(ledger)
    with pytest.raises(ZeroDivisionError):
        with atomic(db):
            db.execute("INSERT INTO operators (name, public_key, key_id, created_at) VALUES ('x', 'p', 'k', 't')")
            with atomic(db):
                db.execute("INSERT INTO operators (name, public_key, key_id, created_at) VALUES ('y', 'q', 'k', 't')")
            1 / 0  # noqa: B018 - raises on purpose
    assert snapshot(ledger) == before
    with atomic(db):
        db.execute("INSERT INTO operators (name, public_key, key_id, created_at) VALUES ('x', 'p', 'k', 't')")
        with pytest.raises(ZeroDivisionError):
            with atomic(db):
                db.execute("INSERT INTO operators (name, public_key, key_id, created_at) VALUES ('y', 'q', 'k', 't')")
                1 / 0  # noqa: B018 - raises on purpose
    assert [r[0] for r in db.execute("SELECT name FROM operators ORDER BY rowid")] == ["acme", "x"]


def test_a_key_kept_outside_the_file_signs_only_when_passed_in(tmp_path):
    path = tmp_path / "k.db"
    key = SigningKey.generate()
    ledger = Ledger(path, create=True)
    op = ledger.new_operator("acme", key=key, store_key=False)
    assert not op.key_stored and op.public_key == key.public_hex
    ledger.new_table("t1", operator="acme", preset="kitti", seats=4)
    ledger.close()
    assert key.to_hex() not in path.read_bytes().hex() and key.to_hex().encode() not in path.read_bytes()
    without = Ledger(path)
    before = snapshot(without)
    with pytest.raises(AuthError, match=r"^operator 'acme' keeps its signing key outside the ledger: pass it in$"):
        without.new_hand("t1", ["a", "b"], hand_id="h1")
    assert snapshot(without) == before
    without.close()
    with_key = Ledger(path, keys=[key])
    signed = with_key.new_hand("t1", ["a", "b"], hand_id="h1")
    verify_statement(signed, key.public_hex)


def test_public_reads_never_return_a_private_key():
    ledger = new_ledger()
    private = ledger._secrets().ensure().execute("SELECT private_key FROM operator_keys").fetchone()[0]
    advance(ledger, "h1", "reveal")
    op = ledger.operator("acme")
    seen = " ".join([repr(op), str(op.to_json()), repr(ledger), repr(ledger.table("t1")),
                     str(ledger.get_hand("h1").to_json())]
                    + [str(st.to_json()) for st in ledger.statements()])
    assert private not in seen and op.key_stored
    assert ledger.public_key("acme") == SigningKey.from_hex(private).public_hex


def test_two_ledgers_on_one_file_see_each_other_and_cannot_both_commit(tmp_path):
    path = tmp_path / "shared.db"
    first = new_ledger(path)
    advance(first, "h1", "new")
    second = Ledger(path)
    first.commit("h1")
    before = snapshot(second)
    from audit.errors import LedgerStateError

    with pytest.raises(LedgerStateError, match=r"^hand 'h1' is committed: cannot commit \(the server seed is committed once, right after the hand is created\)$"):
        second.commit("h1")
    assert snapshot(second) == before
    assert second.get_hand("h1").server_seed_commitment == first.get_hand("h1").server_seed_commitment


def test_stored_statement_text_is_the_canonical_json_that_was_signed():
    from replay.canonical import canonical_json

    ledger = new_ledger()
    advance(ledger, "h1", "reveal")
    for (text,), st in zip(ledger.db.execute("SELECT statement FROM statements ORDER BY seq"), ledger.statements()):
        assert text.encode("utf-8") == canonical_json(st.statement)


def test_the_operators_key_is_read_from_the_secret_store_once_per_ledger(tmp_path, monkeypatch):
    """Each statement used to re-read and re-parse the stored private key; now the first one
    loads it and later statements sign with the key held in memory."""
    from audit.operator.ledger.secret_store import SecretStore
    from ledger_testkit import advance, new_ledger

    reads = []
    real = SecretStore.private_key
    monkeypatch.setattr(SecretStore, "private_key", lambda self, pub: reads.append(pub) or real(self, pub))
    ledger = new_ledger(str(tmp_path / "tiplu.db"))
    advance(ledger, "h1", "reveal")
    advance(ledger, "h2", "reveal")
    assert ledger.get_hand("h2").state.value == "revealed"
    assert len(reads) == 1  # 26 statements, one read
    assert all(st.verify(ledger.public_key("acme")) for st in ledger.statements())


def test_a_hands_fixed_facts_are_read_once_and_never_from_a_rolled_back_write(tmp_path):
    from audit.errors import NotFoundError
    from ledger_testkit import advance, new_ledger

    ledger = new_ledger(str(tmp_path / "tiplu.db"))
    reads = []
    ledger.db.conn.set_trace_callback(lambda sql: reads.append(sql) if "dealer, ruleset FROM hands" in sql
                                      or "FROM hand_seats" in sql else None)
    advance(ledger, "h1", "reveal")  # 13 statements
    assert len(reads) == 2  # the hand's row and its players, once each (they were read 12 and 8 times)
    with pytest.raises(RuntimeError):  # a caller's transaction that creates a hand, reads it, rolls back
        with atomic(ledger.db):
            ledger.new_hand("t1", ["a", "b", "c", "d"], hand_id="gone")
            ledger.get_hand("gone")
            ledger.cancel("gone")
            raise RuntimeError("the caller gives up")
    with pytest.raises(NotFoundError, match=r"^no hand 'gone'$"):
        ledger.commit("gone")
