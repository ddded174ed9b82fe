"""What a source named by one string is: the one place that decides it (:func:`kind_of`).

``url`` -- an operator's site (``http(s)://``), read through its JSON API; ``ledger`` -- a
ledger's SQLite file (:data:`DB_SUFFIXES`), read read-only; ``stdin`` -- ``-``, JSON lines
on standard input; ``record`` -- one record, or a JSON array of them (``.json``); ``jsonl``
-- a JSON-lines file (anything else).  :class:`audit.auditor.sources.source.Source` holds
the answer; the modules below it ask here.
"""
from __future__ import annotations

from pathlib import Path

URL, LEDGER, STDIN, RECORD, JSONL = "url", "ledger", "stdin", "record", "jsonl"

#: the suffixes of a ledger's file
DB_SUFFIXES = (".db", ".sqlite", ".sqlite3")


def kind_of(text: str) -> str:
    """What the source named ``text`` is: ``url``, ``ledger``, ``stdin``, ``record`` or ``jsonl``
    (by its form alone: whether the file exists is asked when it is read)."""
    if text.startswith(("http://", "https://")):
        return URL
    if text == "-":
        return STDIN
    suffix = Path(text).suffix
    if suffix in DB_SUFFIXES:
        return LEDGER
    return RECORD if suffix == ".json" else JSONL


def kind_and_name(source: object) -> tuple[str, str]:
    """``(kind, name)`` of a :class:`~audit.auditor.sources.source.Source` or of a source's name."""
    kind, text = getattr(source, "kind", None), getattr(source, "text", None)
    return (kind, text) if isinstance(kind, str) and isinstance(text, str) else (kind_of(str(source)), str(source))
