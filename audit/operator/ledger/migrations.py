"""The ledger schema, as named migrations (applied by :func:`.store.migrate`).

A new schema change is a new function appended to :data:`MIGRATIONS` -- never an edit of
one already released: a ledger records by name which migrations it has applied.

Every table is append-only (triggers abort any UPDATE or DELETE).  A hand's state is
never stored as a mutable column: it is derived from which lifecycle rows exist
(see :mod:`.lifecycle`).  No secret is in this file: operators' stored private keys and the
unrevealed server seeds live in the separate secret store (:mod:`.secret_store`);
schema 1's ``operator_secrets`` and ``server_seeds`` tables are gone from every ledger
created or moved since (migration 005, ``tiplu move-secrets``).
"""
from __future__ import annotations

from sqlite_utils import Database

from .store import Migration, append_only

#: the tables of schema 1 that migration 002 made append-only (fixed: a released migration)
_SCHEMA_1_TABLES = (
    "operators", "operator_secrets", "ledger_tables", "hands", "hand_seats", "server_seeds",
    "hand_commitments", "seat_commitments", "seat_reveals", "hand_deals", "hand_records",
    "hand_reveals", "hand_cancels", "statements",
)
#: the append-only tables of schema 1 a ledger has today (the two secret ones left with 005)
APPEND_ONLY_TABLES = tuple(t for t in _SCHEMA_1_TABLES if t not in ("operator_secrets", "server_seeds"))

_SCHEMA_1 = [
    """CREATE TABLE operators (
        name TEXT PRIMARY KEY,
        public_key TEXT NOT NULL UNIQUE,
        key_id TEXT NOT NULL,
        created_at TEXT NOT NULL)""",
    """CREATE TABLE operator_secrets (
        operator TEXT PRIMARY KEY REFERENCES operators(name),
        private_key TEXT NOT NULL)""",
    """CREATE TABLE ledger_tables (
        id TEXT PRIMARY KEY,
        operator TEXT NOT NULL REFERENCES operators(name),
        preset TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        ruleset_hash TEXT NOT NULL,
        seats INTEGER NOT NULL,
        point_value TEXT NOT NULL,
        commission_pct TEXT NOT NULL,
        created_at TEXT NOT NULL)""",
    """CREATE TABLE hands (
        id TEXT PRIMARY KEY,
        table_id TEXT NOT NULL REFERENCES ledger_tables(id),
        operator TEXT NOT NULL REFERENCES operators(name),
        preset TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        ruleset_hash TEXT NOT NULL,
        n_seats INTEGER NOT NULL,
        dealer INTEGER NOT NULL,
        created_at TEXT NOT NULL)""",
    """CREATE TABLE hand_seats (
        hand_id TEXT NOT NULL REFERENCES hands(id),
        seat INTEGER NOT NULL,
        player TEXT NOT NULL,
        PRIMARY KEY (hand_id, seat))""",
    """CREATE TABLE statements (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        hand_id TEXT REFERENCES hands(id),
        kind TEXT NOT NULL,
        statement TEXT NOT NULL,
        key TEXT NOT NULL,
        sig TEXT NOT NULL,
        created_at TEXT NOT NULL)""",
    "CREATE INDEX statements_hand ON statements(hand_id, seq)",
    """CREATE TABLE server_seeds (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        seed TEXT NOT NULL)""",
    """CREATE TABLE hand_commitments (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        commitment TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq))""",
    """CREATE TABLE seat_commitments (
        hand_id TEXT NOT NULL REFERENCES hands(id),
        seat INTEGER NOT NULL,
        commitment TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq),
        PRIMARY KEY (hand_id, seat))""",
    """CREATE TABLE seat_reveals (
        hand_id TEXT NOT NULL REFERENCES hands(id),
        seat INTEGER NOT NULL,
        seed TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq),
        PRIMARY KEY (hand_id, seat))""",
    """CREATE TABLE hand_deals (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        seq INTEGER NOT NULL REFERENCES statements(seq))""",
    """CREATE TABLE hand_records (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        record TEXT NOT NULL,
        record_hash TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq))""",
    """CREATE TABLE hand_reveals (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        server_seed TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq))""",
    """CREATE TABLE hand_cancels (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        missing_seats TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq))""",
    "CREATE INDEX hands_table ON hands(table_id)",
]


def m001_initial_schema(db: Database) -> None:
    """Operators, tables, hands and their lifecycle rows, the statements log."""
    for sql in _SCHEMA_1:
        db.execute(sql)


def m002_append_only_triggers(db: Database) -> None:
    """Every ledger table refuses UPDATE and DELETE (RAISE(ABORT))."""
    for table in _SCHEMA_1_TABLES:
        append_only(db, table)


def m003_published_records(db: Database) -> None:
    """The public artifact of each revealed hand: the record as published (record +
    statements + server seed), stored once at publication and served as is."""
    db.execute("""CREATE TABLE published_records (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        record TEXT NOT NULL,
        preset TEXT NOT NULL,
        table_id TEXT NOT NULL,
        published_at TEXT NOT NULL)""")
    db.execute("CREATE INDEX published_records_table ON published_records(table_id)")
    append_only(db, "published_records")


def m004_transparency_log(db: Database) -> None:
    """Every statement becomes a leaf of the RFC 9162 transparency log, in seq order:
    the log's tables, and the leaves of any statement stored before this migration."""
    from ...tlog.store import TransparencyLog
    from ...tlog.tables import MIGRATIONS as TLOG_MIGRATIONS

    log = TransparencyLog(db, migrate=False)
    done = {r[0] for r in db.execute("SELECT name FROM migrations WHERE name LIKE 'tlog-%'")}
    if not all(name in done for name, _ in TLOG_MIGRATIONS):
        log.migrate()
    from .statements import iter_statements

    for st in iter_statements(db, since_seq=log.size()):
        log.append_statement(st.signed)


def m005_secrets_apart(db: Database) -> None:
    """Secrets leave the public file (:mod:`.secret_store`): the two secret tables of schema 1
    are dropped when empty (every new ledger).  An older ledger that still holds secrets keeps
    them, read as a fallback, until ``tiplu move-secrets`` moves them out
    (:func:`.secret_store.move_secrets`)."""
    for table in ("operator_secrets", "server_seeds"):
        if db.execute(f"SELECT 1 FROM [{table}] LIMIT 1").fetchone() is None:
            db.execute(f"DROP TABLE [{table}]")


#: the lifecycle tables of small rows that migration 006 keeps in their primary key's B-tree
#: (``WITHOUT ROWID``): one page written per insert instead of the table's and its index's
_KEYED_STEP_TABLES = {
    "hand_commitments": """CREATE TABLE hand_commitments (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        commitment TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq)) WITHOUT ROWID""",
    "seat_commitments": """CREATE TABLE seat_commitments (
        hand_id TEXT NOT NULL REFERENCES hands(id),
        seat INTEGER NOT NULL,
        commitment TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq),
        PRIMARY KEY (hand_id, seat)) WITHOUT ROWID""",
    "seat_reveals": """CREATE TABLE seat_reveals (
        hand_id TEXT NOT NULL REFERENCES hands(id),
        seat INTEGER NOT NULL,
        seed TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq),
        PRIMARY KEY (hand_id, seat)) WITHOUT ROWID""",
    "hand_deals": """CREATE TABLE hand_deals (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        seq INTEGER NOT NULL REFERENCES statements(seq)) WITHOUT ROWID""",
    "hand_reveals": """CREATE TABLE hand_reveals (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        server_seed TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq)) WITHOUT ROWID""",
    "hand_cancels": """CREATE TABLE hand_cancels (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        missing_seats TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq)) WITHOUT ROWID""",
}


_STATEMENTS_SQL = """CREATE TABLE statements (
        seq INTEGER PRIMARY KEY,
        hand_id TEXT REFERENCES hands(id),
        kind TEXT NOT NULL,
        statement TEXT NOT NULL,
        key TEXT NOT NULL,
        sig TEXT NOT NULL,
        created_at TEXT NOT NULL)"""
#: as in schema 1 (a record is large: it stays in a rowid table)
_HAND_RECORDS_SQL = """CREATE TABLE hand_records (
        hand_id TEXT PRIMARY KEY REFERENCES hands(id),
        record TEXT NOT NULL,
        record_hash TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES statements(seq))"""


def _drop_append_only(db: Database, table: str) -> None:
    for op in ("update", "delete"):
        db.execute(f"DROP TRIGGER IF EXISTS [{table}_no_{op}]")


def m006_fewer_pages_per_append(db: Database) -> None:
    """Fewer pages written per statement, the same rows: ``statements.seq`` becomes a plain
    ``INTEGER PRIMARY KEY`` (``AUTOINCREMENT`` rewrote ``sqlite_sequence`` on every insert; the
    table is append-only, so the next seq is ``max + 1`` either way), and the lifecycle tables
    of small rows become ``WITHOUT ROWID`` (a row lived in the table and again in its primary
    key's index).  Every row is copied as it is; the index and the append-only triggers are
    made again.  The tables that reference ``statements`` are set aside (as temporary copies)
    while it is rebuilt, so no reference is ever left without its row; the migration runs in
    one transaction and a failure leaves the file as it was."""
    children = {**_KEYED_STEP_TABLES, "hand_records": _HAND_RECORDS_SQL}
    for table in children:
        _drop_append_only(db, table)
        db.execute(f"CREATE TEMP TABLE [{table}_006] AS SELECT * FROM main.[{table}]")
        db.execute(f"DROP TABLE main.[{table}]")
    _drop_append_only(db, "statements")
    db.execute("DROP INDEX statements_hand")
    db.execute(_STATEMENTS_SQL.replace("CREATE TABLE statements (", "CREATE TABLE statements_006 (", 1))
    db.execute("INSERT INTO statements_006 (seq, hand_id, kind, statement, key, sig, created_at)"
               " SELECT seq, hand_id, kind, statement, key, sig, created_at FROM statements ORDER BY seq")
    db.execute("DROP TABLE statements")
    db.execute("ALTER TABLE statements_006 RENAME TO statements")
    db.execute("DELETE FROM sqlite_sequence WHERE name = 'statements'")
    db.execute("CREATE INDEX statements_hand ON statements(hand_id, seq)")
    append_only(db, "statements")
    for table, sql in children.items():
        db.execute(sql)
        db.execute(f"INSERT INTO main.[{table}] SELECT * FROM temp.[{table}_006]")
        db.execute(f"DROP TABLE temp.[{table}_006]")
        append_only(db, table)
    problems = db.execute("PRAGMA foreign_key_check").fetchall()
    if problems:  # never on a ledger this code wrote; the transaction rolls back, nothing changes
        raise ValueError(f"migration 006 would leave rows without their parent: {problems[:5]}")


def m007_log_nodes_in_leaf_rows(db: Database) -> None:
    """The transparency log keeps each cached subtree in the row of the leaf that completes
    it (``tlog-0002``, :mod:`audit.tlog.store`): an append writes one log row, not two in two
    B-trees.  Every leaf and subtree is kept; a ledger made since 004 already has it."""
    from ...tlog.store import TransparencyLog

    TransparencyLog(db, migrate=False).migrate()


def m008_moves_as_played(db: Database) -> None:
    """Format 3: the moves of a hand as they are played (``tiplu hand move``), one row per
    move with the move chain's head after it (:mod:`replay.movechain`) and the time of the
    move receipt the operator signed for it.  Move receipts are not log leaves: the logged
    ``record`` statement carries the final head."""
    db.execute("""CREATE TABLE hand_moves (
        hand_id TEXT NOT NULL REFERENCES hands(id),
        n INTEGER NOT NULL,
        move TEXT NOT NULL,
        head TEXT NOT NULL,
        time TEXT NOT NULL,
        PRIMARY KEY (hand_id, n)) WITHOUT ROWID""")
    append_only(db, "hand_moves")


MIGRATIONS: tuple[Migration, ...] = (
    ("001_initial_schema", m001_initial_schema),
    ("002_append_only_triggers", m002_append_only_triggers),
    ("003_published_records", m003_published_records),
    ("004_transparency_log", m004_transparency_log),
    ("005_secrets_apart", m005_secrets_apart),
    ("006_fewer_pages_per_append", m006_fewer_pages_per_append),
    ("007_log_nodes_in_leaf_rows", m007_log_nodes_in_leaf_rows),
    ("008_moves_as_played", m008_moves_as_played),
)
