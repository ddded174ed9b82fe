"""The ledger schema, as named migrations (applied by :func:`.store.migrate`).

A new schema change is a new function appended to :data:`MIGRATIONS` -- never an edit of
one already released: a ledger records by name which migrations it has applied.

Every table is append-only (triggers abort any UPDATE or DELETE).  A hand's state is
never stored as a mutable column: it is derived from which lifecycle rows exist
(see :mod:`.lifecycle`).  Private rows -- operators' stored private keys and the server
seeds -- live in their own tables (``operator_secrets``, ``server_seeds``) that no public
read function selects from.
"""
from __future__ import annotations

from sqlite_utils import Database

from .store import Migration, append_only

APPEND_ONLY_TABLES = (
    "operators", "operator_secrets", "ledger_tables", "hands", "hand_seats", "server_seeds",
    "hand_commitments", "seat_commitments", "seat_reveals", "hand_deals", "hand_records",
    "hand_reveals", "hand_cancels", "statements",
)

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
    for table in APPEND_ONLY_TABLES:
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


MIGRATIONS: tuple[Migration, ...] = (
    ("001_initial_schema", m001_initial_schema),
    ("002_append_only_triggers", m002_append_only_triggers),
    ("003_published_records", m003_published_records),
)
