"""Read hand records from wherever they are, one at a time, never the whole archive.

Sources: a single record (``.json``), a JSON-lines file (one record per line; ``-`` is
standard input), a ledger database (``.db`` / ``.sqlite``), or an operator's URL
(``http(s)://``, through the JSON API).  Each item is an :class:`Item`: the record's JSON
value, or the :class:`~replay.errors.MalformedError` that stopped it, with where it came
from -- so a bad line is reported and the audit goes on with the next.
"""
from __future__ import annotations

import io
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any, Iterator

from datetime import datetime, timedelta

from replay.errors import MalformedError
from replay.records import load_json, load_json_kind

from .coverage import DEFAULT_GRACE, ledger_statuses, utc_now
from ...inputfiles import MAX_RECORD_BYTES
from .item import Item
from .kinds import LEDGER, RECORD, STDIN, URL, kind_and_name
from .splits import line_wire


def _bounded_lines(stream: Any, limit: int = MAX_RECORD_BYTES) -> Iterator[Any]:
    """The lines of ``stream``, each at most ``limit`` long; ``None`` for a longer one (read
    past in bounded pieces, never held whole: ``/dev/zero`` on standard input ends nothing)."""
    readline = stream.readline
    nl = "\n" if isinstance(stream, io.TextIOBase) else b"\n"
    while True:
        line = readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(nl):
            while True:
                rest = readline(1 << 20)
                if not rest or rest.endswith(nl):
                    break
            yield None
            continue
        yield line


def iter_jsonl(stream: io.BufferedIOBase | Any, name: str, *, raw: bool = False) -> Iterator[Item]:
    """One :class:`Item` per non-blank line of a JSON-lines stream (binary: lines end at
    ``\\n`` and each is decoded as UTF-8 on its own, as :mod:`audit.auditor.sources.splits` reads them, so a
    bad byte costs its own line only and both paths number lines alike).

    ``raw=True`` leaves each line as text (``data`` is the JSON text, parsed later by the
    audit)."""
    for lineno, line in enumerate(_bounded_lines(stream), 1):
        if line is None:
            yield Item(f"{name}:{lineno}", error=MalformedError(
                f"a line longer than {MAX_RECORD_BYTES // (1024 * 1024)} MiB: not one hand record"))
            continue
        if isinstance(line, str):
            line = line.encode("utf-8", "surrogateescape")
        wire = line_wire(line[:-1] if line.endswith(b"\n") else line, f"{name}:{lineno}")
        if wire is None:
            continue
        where, text, error = wire
        if error is not None or text is None:  # line_wire gives the text or an error
            yield Item(where, error=MalformedError(str(error)))
        elif raw:
            yield Item(where, data=text)
        else:
            try:
                data, kind = load_json_kind(text)
                yield Item(where, data=data, kind=kind)
            except MalformedError as exc:
                yield Item(where, error=exc)


def iter_db(path: Path, *, now: datetime | None = None, grace: timedelta = DEFAULT_GRACE) -> Iterator[Item]:
    """Every published record in a ledger database, in publication order, streamed; then
    the status of every hand without one (:func:`db_statuses`)."""
    from ...operator.ledger.store import open_readonly
    from ...operator.publish import published_rows

    db = open_readonly(path, intact=True)  # read-only: no migration, nothing left beside it
    try:
        for hand_id, text in published_rows(db):
            try:
                data, kind = load_json_kind(text)
                yield Item(f"{path}#{hand_id}", data=data, kind=kind)
            except MalformedError as exc:
                yield Item(f"{path}#{hand_id}", error=exc)
    finally:
        db.close()
    yield from db_statuses(path, now=now, grace=grace)


def db_statuses(path: Path | str, *, now: datetime | None = None,
                grace: timedelta = DEFAULT_GRACE) -> Iterator[Item]:
    """An item for each hand of the ledger at ``path`` that has no published record, named
    ``<path>#<hand id>`` like its records (the database is opened read-only)."""
    from .splits import connect_ro

    now = now or utc_now()
    try:
        conn = connect_ro(str(path))
        try:
            statuses = list(ledger_statuses(conn, now=now, grace=grace))
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise MalformedError(f"{path} is not a readable Tiplu ledger: {exc}") from None
    for status in statuses:
        yield Item(f"{path}#{status.hand_id}", status=status)


def iter_url(url: str, *, now: datetime | None = None, grace: timedelta = DEFAULT_GRACE,
             scope: Any = None) -> Iterator[Item]:
    """Every revealed record an operator's JSON API publishes (paged), and the status of
    every other hand it lists."""
    from .remote import iter_remote_records

    yield from iter_remote_records(url, now=now or utc_now(), grace=grace, scope=scope)


def iter_source(source: Any, *, raw: bool = False, now: datetime | None = None,
                grace: timedelta = DEFAULT_GRACE, scope: Any = None) -> Iterator[Item]:
    """The items of ``source`` (a :class:`~audit.auditor.sources.source.Source` or its name),
    by its kind (see the module docstring)."""
    return items_of(*kind_and_name(source), raw=raw, now=now, grace=grace, scope=scope)


def items_of(kind: str, name: str, *, raw: bool = False, now: datetime | None = None,
             grace: timedelta = DEFAULT_GRACE, scope: Any = None) -> Iterator[Item]:
    """Every item of the source ``name`` of ``kind`` (:mod:`audit.auditor.sources.kinds`).  ``now`` and ``grace`` judge the hands of a ledger or URL that
    have no record (:mod:`audit.auditor.sources.coverage`).  ``scope``
    (:class:`audit.auditor.sources.scope.OperatorScope`): only one operator's hands of a ledger or URL."""
    if kind == URL:
        yield from iter_url(name, now=now, grace=grace, scope=scope)
        return
    if kind == STDIN:
        yield from iter_jsonl(getattr(sys.stdin, "buffer", sys.stdin), "<stdin>", raw=raw)
        return
    from ...inputfiles import require_regular

    path = require_regular(name)  # a FIFO or a device is refused, never opened
    if kind == LEDGER:
        items = iter_db(path, now=now, grace=grace)
        yield from (items if scope is None else scope.filter(items))
        return
    if kind == RECORD:
        from ...inputfiles import read_bounded

        with path.open("rb") as fh:
            try:
                data = load_json(read_bounded(fh, str(path)).decode("utf-8", errors="strict"))
            except (MalformedError, UnicodeDecodeError) as exc:
                yield Item(str(path), error=exc if isinstance(exc, MalformedError) else MalformedError(str(exc)))
                return
            records = data if isinstance(data, list) else [data]
        for i, d in enumerate(records):
            yield Item(f"{path}" + (f"[{i}]" if isinstance(data, list) else ""), data=d)
        return
    with path.open("rb") as fh:
        yield from iter_jsonl(fh, str(path), raw=raw)


def write_jsonl(records: Any, path: Path) -> int:
    """Write records as JSON lines (canonical key order); returns how many."""
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n")
            n += 1
    return n
