"""What an archive shows across its records: one server seed per hand, no statement dated ahead.

A file audit (one record, a JSON array, a JSON-lines archive) has no operator log to read
(:mod:`audit.auditor.sources.logscan` reads one); what it can still check across records, before the records
are audited, in one streaming pass over the archive (:func:`scan_archive`):

* no two hands share a server commitment or a revealed server seed (``seed_reuse``: both
  hands fail; two records of *one* hand -- a republished record -- are not a reuse);
* no statement of a record is dated later than the auditor's clock plus the skew
  (``future_time``, :mod:`audit.timecheck`).

The pass gives the same findings whatever order the records come in, and the parent of a
parallel audit computes them once and gives them to every partition, so ``--workers`` and
``--dask`` report byte for byte what one process reports.  Standard input cannot be read
twice: an archive piped in is not scanned (the report says so; audit the file instead).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from replay.faults import Fault, statement_label

from .seed_reuse import SeedIndex
from .item import Item
from ...timecheck import DEFAULT_SKEW, future_fault, is_future, parse_time


def _record_parts(data: Any) -> tuple[Any, Mapping[str, Any]] | None:
    if not isinstance(data, Mapping) or not isinstance(data.get("fairness"), Mapping):
        return None
    return data.get("hand_id"), data["fairness"]


def future_statements(fairness: Mapping[str, Any], now: datetime, skew: timedelta = DEFAULT_SKEW) -> list[Fault]:
    """A ``future_time`` fault for each of a record's statements dated after ``now`` plus ``skew``."""
    faults = []
    statements = fairness.get("statements")
    for number, signed in enumerate(statements if isinstance(statements, list) else (), start=1):
        st = signed.get("statement") if isinstance(signed, Mapping) else None
        if not isinstance(st, Mapping):
            continue
        text = st.get("time")
        if isinstance(text, str) and is_future(parse_time(text), now, skew):
            kind = st.get("kind") if isinstance(st.get("kind"), str) else None
            faults.append(future_fault(statement_label(number, kind), text, now, skew, statement=number))
    return faults


def scan_records(items: Iterable[Item], *, now: datetime, skew: timedelta = DEFAULT_SKEW) -> dict[Any, tuple[Fault, ...]]:
    """hand id -> the faults the archive's records show across records (module doc)."""
    seeds = SeedIndex()
    found: dict[Any, list[Fault]] = {}
    for item in items:
        parts = _record_parts(item.data) if item.error is None and item.status is None else None
        if parts is None:
            continue
        hand_id, fairness = parts
        seeds.add(hand_id, commitment=fairness.get("server_commitment"), seed=fairness.get("server_seed"))
        future = future_statements(fairness, now, skew)
        if future and isinstance(hand_id, str):
            found.setdefault(hand_id, []).extend(f for f in future if f not in found.get(hand_id, ()))
    for hand_id, faults in seeds.faults().items():
        found.setdefault(hand_id, []).extend(faults)
    return {h: tuple(fs) for h, fs in found.items()}


def scan_archive(source: str, *, now: datetime, skew: timedelta = DEFAULT_SKEW) -> dict[Any, tuple[Fault, ...]] | None:
    """The findings of the archive at ``source`` (a file), or ``None`` for standard input."""
    from .kinds import STDIN, kind_and_name
    from .reader import iter_source

    if kind_and_name(source)[0] == STDIN:
        return None
    return scan_records(iter_source(source), now=now, skew=skew)
