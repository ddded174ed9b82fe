"""A ledger's log as an auditor holds it: :class:`LedgerLog` over the ledger's SQLite file, and
:class:`LedgerLogRef`, the same view by name for the workers of a parallel audit.

One of the three back-ends of :class:`~audit.auditor.evidence.logcheck.LogView` (the others:
:class:`~audit.auditor.evidence.log_index.LogIndex`, plain values sent to a worker, and
:class:`~audit.auditor.evidence.remote_log.RemoteLog`, an operator's served log).
"""
from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .leaf_slots import SlotView, Slots, leaf_slots
from .log_index import LogIndex

if TYPE_CHECKING:
    from ...operator.ledger import Ledger


class LedgerLog:
    """:class:`LogView` over a ledger's database (its transparency log and statements).

    ``size`` fixes the view at that many leaves (default: the log's size on first use), so
    the processes of one parallel audit judge every record against the same tree even while
    the operator appends.  ``path`` (when the database was opened from a file) lets a
    parallel audit's workers open the same view themselves (:meth:`ref`)."""

    def __init__(self, db: Any, *, size: int | None = None, path: str | None = None) -> None:
        from ...tlog.store import TransparencyLog

        self._db = db
        self._log = TransparencyLog(db, migrate=False)
        self._size = size
        self._roots: dict[int, bytes] = {}
        self._leaves: dict[int, bytes] = {}
        self._slots: Slots | SlotView | None = None  # each hand's leaves, from the log entries (:mod:`audit.auditor.evidence.leaf_slots`)
        self.path = path

    @classmethod
    def of_ledger(cls, ledger: Ledger, *, size: int | None = None) -> "LedgerLog":
        """The view of an opened ledger's log, through the ledger's own connection (the site's
        way: it hands over its :class:`~audit.operator.ledger.Ledger`, never the connection)."""
        return cls(ledger.db, size=size)

    def size(self) -> int:
        if self._size is None:
            self._size = self._log.size()
        return self._size

    def root(self, size: int) -> bytes:
        if size not in self._roots:
            self._roots[size] = self._log.root(size)
        return self._roots[size]

    #: leaves read ahead on a miss: a record's statements are neighbours in the log
    READ_AHEAD = 32

    def leaf_hash(self, index: int) -> bytes | None:
        if not 0 <= index < self.size():
            return None
        hit = self._leaves.get(index)
        if hit is None:
            if len(self._leaves) > 4096:
                self._leaves.clear()
            end = min(index + self.READ_AHEAD, self.size())
            self._leaves.update((i, bytes(h)) for i, h in self._db.execute(
                "SELECT idx, leaf_hash FROM tlog_leaves WHERE idx >= ? AND idx < ?", (index, end)))
            hit = self._leaves.get(index)
        return hit

    def hand_slots(self, hand_id: str) -> Iterable[tuple[int, tuple[str | None, int | None]]]:
        slots = self._slots
        if slots is None:
            slots = self._slots = leaf_slots(self._db, self.size())
        return iter(slots.get(hand_id, ()))

    def entries(self) -> Iterator[tuple[int, bytes]]:
        """``(leaf index, entry bytes)`` of every leaf of the view, in log order."""
        for idx, entry in self._db.execute("SELECT idx, entry FROM tlog_leaves WHERE idx < ? ORDER BY idx",
                                           [self.size()]):
            yield idx, bytes(entry)

    def ref(self) -> "LedgerLogRef | None":
        """What a worker process needs to open this very view (``None`` without a path)."""
        return None if self.path is None else LedgerLogRef(self.path, self.size())

    def index(self) -> LogIndex:
        """The whole view as a :class:`LogIndex` (for workers that cannot read the file)."""
        size = self.size()
        hashes = b"".join(bytes(h) for (h,) in self._db.execute(
            "SELECT leaf_hash FROM tlog_leaves WHERE idx < ? ORDER BY idx", [size]))
        if self._slots is None:
            self._slots = leaf_slots(self._db, size)
        return LogIndex(hashes, self._slots)


class LedgerLogRef:
    """A ledger's log view by name -- its file and fixed size -- small enough to send to every
    worker of a parallel audit; :meth:`open` gives the :class:`LedgerLog`, one per process
    and thread.

    An SQLite connection must not cross a fork (SQLite's "how to corrupt" guide, 2.6) nor,
    as Python opens it, a thread: a worker forked from a parent that had opened the view
    (the parent warms up on a few records first), or a Dask worker running tasks on its
    own threads, opens its own.  The parent's inherited view is kept referenced, never
    used or closed in the child."""

    __slots__ = ("path", "size")
    _open: "dict[tuple[int, int, str, int], LedgerLog]" = {}

    def __init__(self, path: str, size: int) -> None:
        self.path, self.size = path, size

    def __reduce__(self) -> tuple[type[LedgerLogRef], tuple[str, int]]:
        return (LedgerLogRef, (self.path, self.size))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LedgerLogRef) and (self.path, self.size) == (other.path, other.size)

    def __hash__(self) -> int:
        return hash((self.path, self.size))

    def open(self) -> LedgerLog:
        key = (os.getpid(), threading.get_ident(), self.path, self.size)
        view = LedgerLogRef._open.get(key)
        if view is None:
            from ...operator.ledger.store import close_at_exit, open_readonly

            db = open_readonly(self.path)
            close_at_exit(db)  # cached for the process's life: closed when it ends (no -wal/-shm left)
            view = LedgerLogRef._open[key] = LedgerLog(db, size=self.size, path=self.path)
        return view
