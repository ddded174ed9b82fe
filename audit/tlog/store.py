"""The transparency log on SQLite: leaves, cached perfect subtrees and issued checkpoints.

**What a leaf is.**  Leaf ``i`` of Tiplu's log is the ``i``-th signed statement of the
ledger in ``seq`` order (leaf 0 = the statement with the smallest ``seq``).  Its *entry*
bytes are :func:`leaf_entry` of the signed statement: the canonical JSON
(:func:`replay.canonical.canonical_json`) of exactly ``{"statement", "key", "sig"}``.
The leaf hash is ``SHA-256(0x00 || entry)`` (RFC 9162).  Anyone holding the statements can
therefore recompute the whole tree.

**Tables** (in the ledger's database file, created by migrations named ``tlog-*`` and
recorded in the shared ``migrations`` table in the same transaction):

* ``tlog_leaves(idx INTEGER PRIMARY KEY, leaf_hash BLOB, entry BLOB, nodes BLOB)`` -- one
  row per leaf.  ``nodes`` holds every *complete* perfect subtree of ``2**level`` leaves
  (``level >= 1``) that this leaf completes -- levels ``1..t`` for ``t`` the trailing one
  bits of ``idx`` -- their 32-byte hashes concatenated by level, written with the leaf.
  Roots and proofs for any size up to the current one are folds of O(log n) of these
  hashes, never a rehash of all leaves; an append writes one row (its siblings are read
  in the same query as the log's size).  Until ``tlog-0002`` the subtrees had a table of
  their own, which cost an append a second B-tree page; ``tlog_nodes(level, idx, hash)`` is
  now a view of the same rows.
* ``tlog_checkpoints(id, size, root, time, text)`` -- every checkpoint issued; ``time`` is
  when this store signed it (UTC ``YYYY-MM-DDTHH:MM:SSZ``), a note beside the checkpoint: since
  format 3 it is not in the signed body, so it is no evidence of anything.

Both tables are append-only: triggers abort any ``UPDATE`` or ``DELETE`` (the view refuses
every write).

**Transactions.**  Every write goes through ``db.atomic()`` (sqlite-utils): inside the
caller's open transaction it is a savepoint and commits nothing -- the ledger inserts a
statement and appends its leaf in *its* ``with db.atomic():`` block, so both happen or
neither does; called outside any transaction, it commits on its own.  Writers must be serialised
(``BEGIN IMMEDIATE`` or one writer process); two racing appends fail on the primary key.
"""
from __future__ import annotations

import hmac
import sqlite3
from contextlib import AbstractContextManager
from datetime import datetime, timezone
from types import TracebackType
from typing import Any, Callable, Mapping, TypeVar

import sqlite_utils

from audit.errors import LedgerIntegrityError, NotFoundError, ProofError

from . import merkle
from .leaves import append_leaf as append_leaf, leaf_entry as leaf_entry  # the store's API too
from .leaves import leaf_entry_of as leaf_entry_of, leaf_entry_of_hex as leaf_entry_of_hex
from .tables import MIGRATIONS

_T = TypeVar("_T")

def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


class _Savepoint:
    """A savepoint named ``tlog_append`` (SQLite allows nesting the same name)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("SAVEPOINT tlog_append")

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is not None and self.conn.in_transaction:
            self.conn.execute("ROLLBACK TO tlog_append")
        if self.conn.in_transaction:
            self.conn.execute("RELEASE tlog_append")


class TransparencyLog:
    """An RFC 9162 Merkle tree stored beside the ledger in a :class:`sqlite_utils.Database`.

    ``clock`` (a callable returning an aware UTC datetime) only stamps migrations.
    """

    def __init__(self, db: sqlite_utils.Database, *, clock: Callable[[], datetime] = _utc_now,
                 migrate: bool = True) -> None:
        self.db = db
        self._conn = db.conn
        self._clock = clock
        if migrate:
            self.migrate()

    # -- schema --------------------------------------------------------------------------
    def migrate(self) -> list[str]:
        """Apply the ``tlog-*`` migrations not yet recorded; return their names."""
        conn = self._conn
        applied: list[str] = []
        with self.db.atomic():
            conn.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
            done = {row[0] for row in conn.execute("SELECT name FROM migrations WHERE name LIKE 'tlog-%'")}
            for name, statements in MIGRATIONS:
                if name in done:
                    continue
                for sql in statements:
                    if callable(sql):
                        sql(conn)
                    else:
                        conn.execute(sql)
                conn.execute("INSERT INTO migrations (name, applied_at) VALUES (?, ?)",
                             (name, self._clock().isoformat(timespec="seconds")))
                applied.append(name)
        return applied

    # -- writing -------------------------------------------------------------------------
    def append(self, entry: bytes) -> int:
        """Append one entry; return its index.  Runs inside the caller's transaction (no commit)."""
        if not isinstance(entry, (bytes, bytearray)):
            raise TypeError("a log entry is bytes (see leaf_entry)")
        with self._unit():
            return self._append(bytes(entry))

    def append_in_transaction(self, entry: bytes, *, index: int | None = None) -> int:
        """:meth:`append` for a caller whose open transaction rolls back as a whole on any
        error (the ledger's :func:`~audit.operator.ledger.store.atomic`): no savepoint of its own.

        ``index``: the index the caller expects the entry to get (the ledger: ``seq - 1``);
        when the log's size is not that, nothing is appended and the size is returned."""
        if not self._conn.in_transaction:
            raise RuntimeError("append_in_transaction needs an open transaction")
        return self._append(bytes(entry), index)

    def _unit(self) -> AbstractContextManager[object]:
        """``db.atomic()``, but inside an open transaction a savepoint with a fixed name.

        (sqlite-utils names each savepoint randomly, so SQLite recompiles it every time;
        a fixed name keeps the statement cached -- a third of an append's cost.)
        """
        if not self._conn.in_transaction:
            return self.db.atomic()
        return _Savepoint(self._conn)

    def _append(self, entry: bytes, expect: int | None = None) -> int:
        """Append leaf ``n`` (the size) with the subtrees it completes, in one row
        (:func:`append_leaf`)."""
        if expect is not None:
            return append_leaf(self._conn, entry, expect)
        index = self.size()
        size = append_leaf(self._conn, entry, index)
        if size != index:
            raise LedgerIntegrityError(f"transparency log size changed during an append ({index} -> {size})")
        return index

    def append_statement(self, signed: Mapping[str, Any]) -> int:
        """Append a signed statement (its :func:`leaf_entry`); return its index."""
        return self.append(leaf_entry(signed))

    def record_checkpoint(self, size: int, root: bytes, time: str, text: str) -> None:
        """Store an issued checkpoint (see :func:`audit.tlog.checkpoint.make_checkpoint`)."""
        with self.db.atomic():
            self._conn.execute("INSERT INTO tlog_checkpoints (size, root, time, text) VALUES (?, ?, ?, ?)",
                               (size, root, time, text))

    # -- reading -------------------------------------------------------------------------
    def size(self) -> int:
        row = self._conn.execute("SELECT max(idx) FROM tlog_leaves").fetchone()
        return 0 if row[0] is None else row[0] + 1

    @staticmethod
    def _missing(level: int, index: int) -> bytes:
        raise LedgerIntegrityError(f"transparency log is missing subtree ({level}, {index})")

    def _perfect_many(self, keys: set[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
        """Fetch many perfect subtrees in one query per 400 rows: subtree ``(level, idx)`` is
        in the row of its last leaf, ``((idx + 1) << level) - 1``."""
        if not keys:
            return {}
        rows_of: dict[int, list[tuple[int, int]]] = {}
        for level, idx in keys:
            rows_of.setdefault(((idx + 1) << level) - 1, []).append((level, idx))
        found: dict[tuple[int, int], bytes] = {}
        ends = sorted(rows_of)
        for lo in range(0, len(ends), 400):  # stay far below SQLite's parameter limit
            chunk = ends[lo:lo + 400]
            sql = f"SELECT idx, leaf_hash, nodes FROM tlog_leaves WHERE idx IN ({','.join('?' * len(chunk))})"
            for end, leaf, nodes in self._conn.execute(sql, chunk):
                for level, idx in rows_of[end]:
                    h = bytes(leaf) if level == 0 else bytes(nodes[merkle.HASH_SIZE * (level - 1):merkle.HASH_SIZE * level])
                    if len(h) == merkle.HASH_SIZE:
                        found[(level, idx)] = h
        return found

    def _prefetched(self, compute: Callable[[merkle.PerfectHash], _T]) -> _T:
        """Run ``compute(perfect)`` with every subtree it needs fetched in one query.

        A dry run with placeholder hashes records which subtrees the (data-independent)
        recursion visits; they are fetched together, then ``compute`` runs for real.
        """
        wanted: set[tuple[int, int]] = set()

        def record(level: int, index: int) -> bytes:
            wanted.add((level, index))
            return bytes(merkle.HASH_SIZE)

        compute(record)
        found = self._perfect_many(wanted)

        def lookup(level: int, index: int) -> bytes:
            try:
                return found[(level, index)]
            except KeyError:
                raise LedgerIntegrityError(f"transparency log is missing subtree ({level}, {index})") from None

        return compute(lookup)

    def _check_size(self, size: int | None) -> int:
        current = self.size()
        if size is None:
            return current
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise ProofError(f"tree size must be a non-negative integer, not {size!r}")
        if size > current:
            raise NotFoundError(f"no tree of size {size}: the log has {current} leaves")
        return size

    def root(self, size: int | None = None) -> bytes:
        """MTH of the first ``size`` leaves (default: all)."""
        size = self._check_size(size)
        return self._prefetched(lambda perfect: merkle.range_hash(0, size, perfect))

    def leaf_hash(self, index: int) -> bytes:
        row = self._conn.execute("SELECT leaf_hash FROM tlog_leaves WHERE idx = ?", (index,)).fetchone()
        if row is None:
            raise NotFoundError(f"no leaf {index} in the transparency log")
        return bytes(row[0])

    def entry(self, index: int) -> bytes:
        row = self._conn.execute("SELECT entry FROM tlog_leaves WHERE idx = ?", (index,)).fetchone()
        if row is None:
            raise NotFoundError(f"no leaf {index} in the transparency log")
        return bytes(row[0])

    def entries(self, start: int, end: int) -> list[tuple[int, bytes]]:
        """``(index, entry)`` for ``start <= index < end``, in order."""
        rows = self._conn.execute("SELECT idx, entry FROM tlog_leaves WHERE idx >= ? AND idx < ? ORDER BY idx",
                                  (start, end))
        return [(row[0], bytes(row[1])) for row in rows]

    def tile(self, level: int, index: int, width: int) -> bytes:
        """C2SP ``tlog-tiles`` tile ``(level, index)`` of ``width`` hashes (256: a full tile):
        hash ``i`` is the tree hash of the ``256**level`` leaves from ``(index*256 + i) *
        256**level``, a perfect subtree the store keeps.  Raises :class:`NotFoundError` when
        the log is too small to have it."""
        if not (0 <= level <= 63 and index >= 0 and 1 <= width <= 256):
            raise NotFoundError(f"no tile ({level}, {index}) of width {width}")
        span = 1 << (8 * level)
        if (index * 256 + width) * span > self.size():
            raise NotFoundError(f"the log is too small for tile ({level}, {index}) of width {width}")
        keys = [(8 * level, index * 256 + i) for i in range(width)]
        found = self._perfect_many(set(keys))
        return b"".join(found.get(k) or self._missing(*k) for k in keys)

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        """PATH(index, D[size]) (RFC 9162 §2.1.3.1)."""
        size = self._check_size(size)
        return self._prefetched(lambda perfect: merkle.inclusion_path(index, size, perfect))

    def consistency_proof(self, first: int, second: int | None = None) -> list[bytes]:
        """PROOF(first, D[second]) (RFC 9162 §2.1.4.1)."""
        second = self._check_size(second)
        return self._prefetched(lambda perfect: merkle.consistency_path(first, second, perfect))

    def latest_checkpoint(self, origin: str | None = None) -> str | None:
        """The text of the last checkpoint issued, if any; with ``origin``, the last one of that
        log (one operator's: :func:`audit.tlog.logs.operator_origin`)."""
        if origin is None:
            row = self._conn.execute("SELECT text FROM tlog_checkpoints ORDER BY id DESC LIMIT 1").fetchone()
        else:
            head = origin + "\n"
            row = self._conn.execute("SELECT text FROM tlog_checkpoints WHERE substr(text, 1, ?) = ?"
                                     " ORDER BY id DESC LIMIT 1", (len(head), head)).fetchone()
        return None if row is None else row[0]

    def checkpoints(self) -> list[str]:
        return [row[0] for row in self._conn.execute("SELECT text FROM tlog_checkpoints ORDER BY id")]

    def checkpoint_time(self, text: str) -> str | None:
        """When this store issued the checkpoint ``text`` (its first issue), ``None`` if it did
        not: the store's own note, not signed by anyone (``docs/transparency-log.md``)."""
        row = self._conn.execute("SELECT time FROM tlog_checkpoints WHERE text = ? ORDER BY id LIMIT 1",
                                 [text]).fetchone()
        return None if row is None else row[0]

    # -- self-check ----------------------------------------------------------------------
    def check(self) -> None:
        """Recompute every leaf hash from its entry and every cached node from its children.

        Raises :class:`LedgerIntegrityError` at the first stored hash that does not match
        (e.g. a database edited with the triggers dropped).  O(n): for audits, not requests.
        """
        tree = merkle.MemoryTree()
        stored_nodes: list[tuple[int, bytes]] = []
        for idx, stored, entry, nodes in self._conn.execute(
                "SELECT idx, leaf_hash, entry, nodes FROM tlog_leaves ORDER BY idx"):
            if idx != tree.size:
                raise LedgerIntegrityError(f"transparency log leaf {tree.size} is missing")
            h = merkle.leaf_hash(bytes(entry))
            if not hmac.compare_digest(h, bytes(stored)):
                raise LedgerIntegrityError(f"leaf {idx}'s hash does not match its entry")
            tree.append_leaf_hash(h)
            stored_nodes.append((idx, bytes(nodes)))
        missing = 0
        for idx, nodes in stored_nodes:
            levels = _trailing_ones(idx)  # the subtrees leaf idx completes: levels 1..levels
            if len(nodes) > merkle.HASH_SIZE * levels or len(nodes) % merkle.HASH_SIZE:
                raise LedgerIntegrityError(f"leaf {idx}'s cached subtrees cover leaves the log does not have")
            missing += levels - len(nodes) // merkle.HASH_SIZE
            for k in range(len(nodes) // merkle.HASH_SIZE):
                level = k + 1
                node = ((idx + 1) >> level) - 1
                if not hmac.compare_digest(tree.levels[level][node], nodes[merkle.HASH_SIZE * k:merkle.HASH_SIZE * level]):
                    raise LedgerIntegrityError(f"cached subtree ({level}, {node}) does not match its leaves")
        if missing:
            raise LedgerIntegrityError(f"{missing} cached subtrees are missing")


def _trailing_ones(i: int) -> int:
    return ((i ^ (i + 1)).bit_length()) - 1
