"""TransparencyLog on SQLite: agrees with the in-memory tree, append-only, atomic with the caller."""
from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

import pytest
import sqlite_utils
from hypothesis import given, settings, strategies as st

from audit.errors import LedgerIntegrityError, NotFoundError, ProofError
from audit.signing import SigningKey
from audit.tlog import merkle
from audit.tlog.store import TransparencyLog, leaf_entry, leaf_entry_of, leaf_entry_of_hex
from replay.canonical import canonical_json
from replay.errors import MalformedError


def clock() -> datetime:
    return datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


@pytest.fixture()
def db(tmp_path):
    return sqlite_utils.Database(tmp_path / "ledger.db")


def filled(db, n: int) -> TransparencyLog:
    log = TransparencyLog(db, clock=clock)
    with db.atomic():
        for i in range(n):
            assert log.append(f"entry {i}".encode()) == i
    return log


def test_roots_and_proofs_equal_the_memory_tree(db):
    n = 70
    log = filled(db, n)
    tree = merkle.MemoryTree(merkle.leaf_hash(f"entry {i}".encode()) for i in range(n))
    assert log.size() == n
    for size in range(n + 1):
        assert log.root(size) == tree.root(size)
        for m in range(size):
            assert log.inclusion_proof(m, size) == tree.inclusion_proof(m, size)
        for m in range(size + 1):
            assert log.consistency_proof(m, size) == tree.consistency_proof(m, size)
    assert log.root() == tree.root() and log.entry(5) == b"entry 5"
    assert log.leaf_hash(5) == merkle.leaf_hash(b"entry 5")
    assert log.entries(3, 6) == [(3, b"entry 3"), (4, b"entry 4"), (5, b"entry 5")]
    log.check()


def test_a_node_row_is_written_only_for_complete_subtrees(db):
    log = filled(db, 6)
    rows = sorted((r["level"], r["idx"]) for r in db["tlog_nodes"].rows)
    assert rows == [(1, 0), (1, 1), (1, 2), (2, 0)]  # leaves 0-1, 2-3, 4-5 and 0-3
    assert log.root(0) == merkle.EMPTY_ROOT


def test_empty_log_and_out_of_range(db):
    log = TransparencyLog(db)
    assert log.size() == 0 and log.root() == merkle.EMPTY_ROOT and log.latest_checkpoint() is None
    with pytest.raises(NotFoundError, match=r"^no tree of size 1: the log has 0 leaves$"):
        log.root(1)
    with pytest.raises(NotFoundError, match=r"^no leaf 0 in the transparency log$"):
        log.entry(0)
    with pytest.raises(NotFoundError, match=r"^no leaf 0 in the transparency log$"):
        log.leaf_hash(0)
    filled_log = filled(db, 3)
    with pytest.raises(ProofError, match=r"^no leaf 3 in a tree of size 3$"):
        filled_log.inclusion_proof(3, 3)
    with pytest.raises(NotFoundError, match=r"^no tree of size 4: the log has 3 leaves$"):
        filled_log.consistency_proof(1, 4)
    with pytest.raises(ProofError, match=r"^first size 3 is larger than second size 2$"):
        filled_log.consistency_proof(3, 2)


def test_tables_are_append_only(db):
    log = filled(db, 4)
    log.record_checkpoint(4, log.root(), "t", "text")
    for sql in ["UPDATE tlog_leaves SET entry = x'00' WHERE idx = 1", "DELETE FROM tlog_leaves WHERE idx = 3",
                "UPDATE tlog_nodes SET hash = x'00'", "DELETE FROM tlog_nodes",
                "UPDATE tlog_checkpoints SET text = 'x'", "DELETE FROM tlog_checkpoints"]:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(sql)
    assert log.entry(1) == b"entry 1" and log.size() == 4


def test_append_joins_the_callers_transaction(db):
    log = filled(db, 2)
    db.execute("CREATE TABLE statements (seq INTEGER PRIMARY KEY, statement TEXT)")
    with pytest.raises(RuntimeError, match=r"^ledger fails after the append$"):
        with db.atomic():  # the ledger's transaction: statement + leaf, then a failure
            db.execute("INSERT INTO statements (statement) VALUES ('s')")
            log.append(b"entry 2")
            assert log.size() == 3
            raise RuntimeError("ledger fails after the append")
    assert log.size() == 2 and db.execute("SELECT count(*) FROM statements").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM tlog_nodes").fetchone()[0] == 1  # the (1, 1) node was rolled back too
    log.check()


def test_append_in_transaction_commits_and_rolls_back_with_the_caller(db):
    log = filled(db, 2)
    with pytest.raises(RuntimeError, match="open transaction"):
        log.append_in_transaction(b"entry 2")  # alone it would commit nothing atomically
    with pytest.raises(RuntimeError, match="ledger fails"):
        with db.atomic():
            assert log.append_in_transaction(b"entry 2") == 2
            raise RuntimeError("ledger fails after the append")
    assert log.size() == 2 and db.execute("SELECT count(*) FROM tlog_nodes").fetchone()[0] == 1
    with db.atomic():
        assert log.append_in_transaction(b"entry 2") == 2
    assert log.size() == 3
    log.check()


def test_migrations_are_named_recorded_and_idempotent(db):
    TransparencyLog(db, clock=clock)
    rows = list(db["migrations"].rows)
    assert rows == [{"name": name, "applied_at": "2026-11-30T12:00:00+00:00"}
                    for name in ("tlog-0001-leaves-nodes-checkpoints", "tlog-0002-nodes-in-leaf-rows")]
    assert TransparencyLog(db).migrate() == []
    assert len(list(db["migrations"].rows)) == 2


def test_leaf_entry_is_the_canonical_signed_statement():
    key = SigningKey.from_hex("11" * 32)
    signed = key.sign({"kind": "reveal", "hand_id": "h1"})
    signed["extra"] = "not logged"
    assert leaf_entry(signed) == canonical_json({"statement": signed["statement"], "key": key.public_hex,
                                                 "sig": signed["sig"]})
    with pytest.raises(MalformedError, match=r"^a signed statement needs 'statement', 'key' and 'sig'$"):
        leaf_entry({"statement": {}})


def test_check_detects_a_database_edited_behind_the_triggers(db):
    log = filled(db, 5)
    db.execute("DROP TRIGGER tlog_leaves_no_update")
    db.execute("UPDATE tlog_leaves SET entry = ? WHERE idx = 2", [b"forged"])
    with pytest.raises(LedgerIntegrityError, match="leaf 2"):
        log.check()


text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)))  # no lone surrogates: not UTF-8
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(statement=st.dictionaries(text, json_values, max_size=8),
       key=st.text(alphabet="0123456789abcdef", min_size=64, max_size=64),
       sig=st.text(alphabet="0123456789abcdef", min_size=128, max_size=128))
def test_leaf_entry_of_is_leaf_entry_without_a_second_serialisation(statement, key, sig):
    """The ledger builds each leaf from the statement's canonical JSON it already signed."""
    signed = {"statement": statement, "key": key, "sig": sig}
    assert leaf_entry_of(canonical_json(statement), key, sig) == leaf_entry(signed)


@settings(max_examples=300, deadline=None)
@given(statement=st.dictionaries(text, json_values, max_size=8),
       key=st.one_of(st.text(alphabet="0123456789abcdefABCDEF", max_size=64), text),
       sig=st.one_of(st.text(alphabet="0123456789abcdef", min_size=128, max_size=128), text))
def test_leaf_entry_of_hex_is_leaf_entry_for_any_key_and_sig(statement, key, sig):
    """The append path's fast join of hex strings gives the same bytes, and anything that is
    not hex (quotes, backslashes, control characters) goes the general way."""
    signed = {"statement": statement, "key": key, "sig": sig}
    assert leaf_entry_of_hex(canonical_json(statement), key, sig) == leaf_entry(signed)
