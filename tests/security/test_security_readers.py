"""Readers never wait for writers: opening an up-to-date ledger takes no write lock.

The web app opens a :class:`~audit.operator.ledger.Ledger` per request and authenticates tokens per
request.  If either took SQLite's write lock (``BEGIN IMMEDIATE``) just to check migrations,
every public read would queue behind every write -- and a flood of reads would starve the
writers.  With another connection holding the write lock, a fresh ledger opens, reads a
hand and checks a token at once (WAL readers do not block).
"""
from __future__ import annotations

import sqlite3
import time

from audit.operator.ledger import Ledger
from audit.operator.tokens import authenticate, issue_operator_token


def test_opening_and_reading_while_a_writer_holds_the_lock(tmp_path):
    path = str(tmp_path / "r.db")
    with Ledger(path, create=True) as ledger:
        ledger.new_operator("op")
        ledger.new_table("t", operator="op", preset="kitti", seats=3)
        ledger.new_hand("t", ["a", "b", "c"], hand_id="h1")
        _, token = issue_operator_token(ledger.db, "op")
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # a writer in the middle of its transaction
    try:
        start = time.monotonic()
        with Ledger(path) as reader:
            reader.db.conn.execute("PRAGMA busy_timeout = 200")
            assert reader.get_hand("h1").state.value == "created"
            assert authenticate(reader.db, token).operator == "op"
        assert time.monotonic() - start < 4.0  # not the 5 s busy timeout of a blocked open
    finally:
        writer.execute("ROLLBACK")
        writer.close()
