"""Partitions: a source cut into numbered runs of consecutive items, each audited alone.

A partition holds its items as they travel to a worker (:data:`Wire`, :data:`StatusWire`), or
the :class:`~audit.auditor.sources.splits.Split` a worker reads them from itself.  A partition
whose audit crashed has its records reported as ``internal_error`` (:func:`crashed_partition`).
"""
from __future__ import annotations

import itertools
import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Iterable, Iterator, Sequence

from replay.faults import Fault, Reason

from ..sources.coverage import DEFAULT_GRACE, HandStatus, utc_now
from ..sources.item import Item
from ..sources.reader import db_statuses
from ..sources.source import LEDGER, Source
from ..sources.splits import Split, Wire, plan
from ..verdict.verify import Verdict
from .report import AuditReport

CHUNK_SIZE = 500

#: a hand with no record to audit, as it travels: (where, status)
StatusWire = tuple[str, HandStatus]


@dataclass(frozen=True, slots=True)
class Partition:
    """Consecutive items of the source: partition number ``index`` of the run -- the items
    themselves, or the :class:`Split` a worker reads them from."""

    index: int
    items: tuple[Wire | StatusWire, ...] | Split

def partitions(items: Iterable[Item], size: int = CHUNK_SIZE) -> Iterator[Partition]:
    """Cut a stream of items into numbered partitions of ``size`` (the last may be shorter)."""
    if size < 1:
        raise ValueError("partition size must be at least 1")
    it = iter(items)
    for index in itertools.count():
        chunk = tuple(_wire(i) for i in itertools.islice(it, size))
        if not chunk:
            return
        yield Partition(index, chunk)

def _wire(item: Item) -> Wire | StatusWire:
    if item.status is not None:
        return (item.where, item.status)
    return (item.where, item.data, None if item.error is None else str(item.error))

def plan_partitions(source: "str | Source", chunk_size: int = CHUNK_SIZE, *, read_in_workers: bool = True,
                    now: datetime | None = None, grace: timedelta = DEFAULT_GRACE,
                    taper: int = 0, scope: Any = None) -> Iterator[Partition]:
    """The partitions of ``source``: splits the workers read, when it is a local archive and
    ``read_in_workers`` (the last ones smaller, for ``taper`` workers: :func:`audit.auditor.sources.splits.plan`);
    else the records themselves, streamed by the parent.  A ledger's
    hands without a published record (:mod:`audit.auditor.sources.coverage`) come last, as the single
    process reads them: the parent looks them up (one query) and ships their statuses."""
    now = now or utc_now()
    source = Source.of(source)
    if read_in_workers and source.splittable() and scope is None:  # one operator's hands: the parent picks them
        return _split_partitions(source, chunk_size, now, grace, taper)
    return partitions(source.items(raw=True, now=now, grace=grace, scope=scope), chunk_size)

def _split_partitions(source: Source, chunk_size: int, now: datetime, grace: timedelta,
                      taper: int = 0) -> Iterator[Partition]:
    n = 0
    for n, split in enumerate(plan(source.text, chunk_size, taper=taper), 1):
        yield Partition(n - 1, split)
    if source.kind == LEDGER:
        for k, part in enumerate(partitions(db_statuses(source.text, now=now, grace=grace), chunk_size)):
            yield Partition(n + k, part.items)

def crashed_partition(part: Partition, exc: BaseException) -> AuditReport:
    """The report of a partition whose audit crashed: every record an ``internal_error``."""
    report = AuditReport()
    message = f"the auditor's partition {part.index} crashed: {type(exc).__name__}"
    items: Sequence[Wire | StatusWire]
    if isinstance(part.items, Split):
        split = part.items
        try:
            items = split.read()
        except (OSError, sqlite3.Error) as err:
            report.add_error(f"{split.name}@{split.start}-{split.end}", f"{message}; cannot read it: {type(err).__name__}")
            return report
    else:
        items = part.items
    for wire in items:
        if len(wire) == 2:
            report.add_status(wire[0], wire[1])
            continue
        where, data, error = wire
        if error is not None:
            report.add_error(where, error)
            continue
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                data = None
        hand_id = data.get("hand_id") if isinstance(data, dict) else None
        report.add(where, Verdict(hand_id if isinstance(hand_id, str) else None, None,
                                  (Fault(Reason.INTERNAL_ERROR, message),)))
    return report
