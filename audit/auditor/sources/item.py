"""One item a record source yields (:mod:`audit.auditor.sources.reader`, :mod:`audit.auditor.sources.remote`).

A hand record's JSON value, or the :class:`~replay.errors.MalformedError` that stopped it,
or a hand with no record to audit (its :class:`~audit.auditor.sources.coverage.HandStatus`), with where it
came from.  Its own module so that the sources and the remote reader, which both make
items, do not import each other.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replay.errors import MalformedError

from .coverage import HandStatus


@dataclass(frozen=True, slots=True)
class Item:
    where: str
    data: Any = None
    error: MalformedError | None = None
    status: HandStatus | None = None  # a hand with no record to audit (ledger and URL sources)
    kind: int | None = None  # replay.canonical.json_kind(data), when the source decoded it


__all__ = ["Item"]
