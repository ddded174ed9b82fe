"""Splits: a run of consecutive records of a local archive, named by *where* it is, not by
its contents, so a worker reads its own records and the parent ships a few numbers.

This is how the parallel audit scales (``docs/scale.md``): the parent only plans -- it scans
a JSON-lines file for line ends (``bytes.count``, no parsing) or a ledger for the row ids of
its published records -- and merges the partial reports.  Every record is read, decoded,
parsed and audited in the worker that owns its split.

* **JSON lines:** a :class:`Split` is the byte range ``[start, end)`` of ``lines``
  consecutive lines and the number of its first line, so the worker names each record
  ``<file>:<line>`` exactly as a single process does.  Lines end at ``\\n`` (a ``\\r``
  before it is JSON whitespace); each line is decoded as UTF-8 on its own, so a bad byte
  costs its line only.
* **ledger databases:** a :class:`Split` is the inclusive row-id range of ``lines``
  consecutive published records; the worker opens the database read-only.  Published
  records are append-only (``audit/operator/ledger``), so a range planned once stays the same.

Splits need the archive to be readable at the same path by every worker: always true for
local processes and a Dask ``LocalCluster``; for a real cluster only with shared storage
(``tiplu audit --read-in-workers``).
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from replay.errors import MalformedError

from .kinds import JSONL, LEDGER, kind_and_name, kind_of

#: One item as it travels or is read in a worker: (where, record JSON text, error text).
Wire = tuple[str, "str | None", "str | None"]

BLOCK = 1 << 20


@dataclass(frozen=True, slots=True)
class Split:
    """Records ``start``..``end`` of the archive at ``path`` (see the module docstring)."""

    kind: str  # "jsonl" or "db"
    path: str  # as the worker opens it (absolute)
    name: str  # as the report names it (what the user typed)
    start: int  # jsonl: first byte; db: first row id
    end: int  # jsonl: the byte after the last; db: the last row id (inclusive)
    first_line: int = 1  # jsonl: the number of the split's first line

    def read(self) -> list[Wire]:
        """The split's items, in archive order (runs in the worker)."""
        return _read_jsonl(self) if self.kind == "jsonl" else _read_db(self)

    def head(self, n: int) -> list[Wire]:
        """The first ``n`` items :meth:`read` gives (fewer if the split has fewer), reading
        only those: what the parent samples to warm up before it starts the workers
        (:mod:`audit.auditor.run.warmup`)."""
        return _head_jsonl(self, n) if self.kind == "jsonl" else _read_db(self, n)


def splittable(source: Any) -> bool:
    """Whether ``source`` (a :class:`~audit.auditor.sources.source.Source` or its name) is a
    local archive that workers can read themselves: a ledger or a JSON-lines file."""
    kind, name = kind_and_name(source)
    return kind in (LEDGER, JSONL) and Path(name).is_file()


def plan(source: str, lines: int, *, taper: int = 0) -> Iterator[Split]:
    """The splits of ``source``, ``lines`` records each (the last may be shorter), lazily.

    ``taper`` (the number of workers, 0 for none) shrinks the last splits: once fewer than
    ``2 * taper * lines`` records remain, each split is a ``2 * taper``-th of what is left
    (but at least :func:`smallest` records), so the workers finish together instead of one
    auditing a whole last split while the others wait (:func:`next_size`)."""
    if lines < 1:
        raise ValueError("partition size must be at least 1")
    path = Path(source)
    if not path.is_file():
        raise MalformedError(f"no such file: {source}")
    if kind_of(str(source)) == LEDGER:
        return _plan_db(path, str(path), lines, taper)
    return _plan_jsonl(path, str(path), lines, taper)


def smallest(lines: int) -> int:
    """The fewest records a tapered split holds: a tenth of a full one."""
    return max(1, lines // 10)


def next_size(lines: int, taper: int, remaining: float) -> int:
    """How many records the next split holds, with about ``remaining`` left to plan."""
    if taper < 1:
        return lines
    return max(smallest(lines), min(lines, -int(-remaining // (2 * taper))))


def _plan_jsonl(path: Path, name: str, lines: int, taper: int = 0) -> Iterator[Split]:
    full = str(path.resolve())
    size = path.stat().st_size if taper else 0
    start, first_line, counted, offset, want = 0, 1, 0, 0, lines
    with path.open("rb") as fh:
        while block := fh.read(BLOCK):
            i = 0
            while block.count(b"\n", i) >= want - counted:
                for _ in range(want - counted):
                    i = block.index(b"\n", i) + 1
                end = offset + i
                yield Split("jsonl", full, name, start, end, first_line)
                start, first_line, counted = end, first_line + want, 0
                if taper:  # the lines left, estimated from the bytes per line so far; never growing
                    want = min(want, next_size(lines, taper, (size - end) * (first_line - 1) / end))
            counted += block.count(b"\n", i)
            offset += len(block)
    if offset > start:
        yield Split("jsonl", full, name, start, offset, first_line)


def _read_jsonl(split: Split) -> list[Wire]:
    with open(split.path, "rb") as fh:
        fh.seek(split.start)
        data = fh.read(split.end - split.start)
    lines = (line_wire(raw, f"{split.name}:{n}") for n, raw in enumerate(data.split(b"\n"), split.first_line))
    return [wire for wire in lines if wire is not None]


def _head_jsonl(split: Split, n: int) -> list[Wire]:
    out: list[Wire] = []
    with open(split.path, "rb") as fh:
        fh.seek(split.start)
        left, number = split.end - split.start, split.first_line
        while len(out) < n and left > 0:
            raw = fh.readline(left)
            left -= len(raw)
            wire = line_wire(raw[:-1] if raw.endswith(b"\n") else raw, f"{split.name}:{number}")
            number += 1
            if wire is not None:
                out.append(wire)
    return out


def line_wire(raw: bytes, where: str) -> Wire | None:
    """One JSON-lines line as an item: its text, or "not UTF-8 text"; ``None`` if blank.

    The one definition both the single process (:func:`audit.auditor.sources.reader.iter_jsonl`) and the
    workers use, so they skip, number and reject lines alike."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return (where, None, "not UTF-8 text")
    return None if not text.strip() else (where, text, None)


def connect_ro(path: str) -> sqlite3.Connection:
    """A reading connection that leaves no ``-wal``/``-shm`` behind (:func:`audit.operator.ledger.store.connect_reading`)."""
    from ...operator.ledger.store import connect_reading

    return connect_reading(path)


def _plan_db(path: Path, name: str, lines: int, taper: int = 0) -> Iterator[Split]:
    full = str(path.resolve())
    try:
        conn = connect_ro(full)
        remaining = conn.execute("SELECT COUNT(*) FROM published_records").fetchone()[0] if taper else 0
        rows = conn.execute("SELECT rowid FROM published_records ORDER BY rowid")
    except sqlite3.Error as exc:
        raise MalformedError(f"{name} is not a readable Tiplu ledger: {exc}") from None
    try:
        first: int | None = None
        last = 0  # read only once a row has set it (first is not None)
        count, want = 0, next_size(lines, taper, remaining)
        for (rowid,) in rows:
            first = rowid if first is None else first
            last, count = rowid, count + 1
            if count == want:
                yield Split("db", full, name, first, last)
                first, count, remaining = None, 0, remaining - want
                want = next_size(lines, taper, remaining)
        if first is not None:
            yield Split("db", full, name, first, last)
    finally:
        conn.close()


def _read_db(split: Split, limit: int = -1) -> list[Wire]:
    conn = connect_ro(split.path)
    try:
        rows = conn.execute("SELECT hand_id, record FROM published_records WHERE rowid BETWEEN ? AND ?"
                            " ORDER BY rowid LIMIT ?", (split.start, split.end, limit)).fetchall()
    finally:
        conn.close()
    return [(f"{split.name}#{hand_id}", text, None) for hand_id, text in rows]
