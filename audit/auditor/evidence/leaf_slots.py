"""Each hand's leaves, read from the log entries themselves -- never from a side column.

A ledger audit asks, for each record, which leaves of the log are about its hand
(``log_duplicate``: a second statement set logged later).  The ledger's ``statements`` table
has a ``hand_id`` column, but an operator that writes its own database can file a forged
statement under another hand there: the audit reads each leaf's hand, kind and seat from
the leaf's own entry (``tlog_leaves.entry``) instead.

The log has no index by hand, so the map is built by one read of every leaf (SQLite's JSON
functions, no Python parse).  It is kept per ledger file and extended by the new leaves
only, so a site that judges one record per request (the verdict API) reads each leaf once,
not once per request; a view of a smaller size filters the map by index.  The cached map is
checked against the file by the hash of its last leaf read: another file at the same path
starts afresh.
"""
from __future__ import annotations

import threading
from typing import Any, Iterator

Slots = dict[Any, list[tuple[int, tuple[str | None, int | None]]]]

#: each log leaf's slot (:func:`audit.auditor.evidence.logcheck.slot_of`): its hand only when that is text, its
#: kind only when that is text, its seat only when that is a JSON integer (and, below, only
#: for a seat kind) -- exactly the types ``slot_of`` keeps
_SLOTS = ("SELECT idx,"
          " CASE json_type(e, '$.statement.hand_id') WHEN 'text' THEN json_extract(e, '$.statement.hand_id') END,"
          " CASE json_type(e, '$.statement.kind') WHEN 'text' THEN json_extract(e, '$.statement.kind') END,"
          " CASE json_type(e, '$.statement.seat') WHEN 'integer' THEN json_extract(e, '$.statement.seat') END"
          " FROM (SELECT idx, CAST(entry AS TEXT) AS e FROM tlog_leaves WHERE idx >= ? AND idx < ?) ORDER BY idx")
SEAT_KINDS = ("seat-receipt", "seat-reveal")

#: database file -> (leaves read, the last one's hash, slots); guarded by the lock
_CACHE: dict[str, tuple[int, bytes | None, Slots]] = {}
_LOCK = threading.Lock()
_MAX_FILES = 8


def read_slots(db: Any, start: int, end: int, into: Slots | None = None) -> Slots:
    """hand id -> ``(leaf index, slot)`` of each of its leaves in ``[start, end)``, added to ``into``."""
    slots: Slots = {} if into is None else into
    for idx, hand_id, kind, seat in db.execute(_SLOTS, [start, end]):
        if hand_id is not None:
            slots.setdefault(hand_id, []).append((idx, (kind, seat if kind in SEAT_KINDS else None)))
    return slots


def _file_of(db: Any) -> str | None:
    try:
        row = db.execute("PRAGMA database_list").fetchone()
    except Exception:  # noqa: BLE001 - no file name: no cache
        return None
    return row[2] if row and row[2] else None


def _last_hash(db: Any, read: int) -> bytes | None:
    row = db.execute("SELECT leaf_hash FROM tlog_leaves WHERE idx = ?", [read - 1]).fetchone() if read else None
    return bytes(row[0]) if row else None


def leaf_slots(db: Any, size: int) -> "Slots | SlotView":
    """Every hand's leaves below ``size`` (module doc: cached per file, extended, filtered)."""
    name = _file_of(db)
    if name is None:
        return read_slots(db, 0, size)
    with _LOCK:
        read, last, slots = _CACHE.get(name, (0, None, {}))
        if read and _last_hash(db, read) != last:  # another log at this path
            read, last, slots = 0, None, {}
        if size > read:
            read_slots(db, read, size, slots)
            read, last = size, _last_hash(db, size)
            if name not in _CACHE and len(_CACHE) >= _MAX_FILES:
                _CACHE.pop(next(iter(_CACHE)))
            _CACHE[name] = (read, last, slots)
        return SlotView(slots, size)


class SlotView:
    """The cached map seen at ``size`` leaves: each hand's leaves below it, filtered on use
    (the map may hold more leaves, read for a larger view)."""

    __slots__ = ("_all", "_size")

    def __init__(self, slots: Slots, size: int) -> None:
        self._all, self._size = slots, size

    def get(self, hand_id: Any, default: Any = ()) -> Any:
        with _LOCK:
            got = tuple(self._all.get(hand_id, ()))
        mine = [s for s in got if s[0] < self._size]
        return mine if mine else default

    def items(self) -> Iterator[tuple[Any, Any]]:
        with _LOCK:
            hands = tuple(self._all)
        for hand_id in hands:
            got = self.get(hand_id)
            if got:
                yield hand_id, got
