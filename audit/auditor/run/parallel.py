"""Audit an archive in parallel: local processes (``--workers N``) or a Dask cluster (``--dask``).

How it works (``docs/scale.md`` has the long form):

1. The parent cuts the source into *partitions* of ``chunk_size`` consecutive items,
   numbered 0, 1, 2, ...  For a local archive (a JSON-lines file or a ledger database) a
   partition is a :class:`~audit.auditor.sources.splits.Split` -- a byte or row-id range that the worker
   reads itself, so the parent reads no record at all; otherwise (standard input, a URL, or
   a remote cluster without shared storage) the parent streams the source
   (:func:`audit.auditor.sources.reader.iter_source`) and ships each record's JSON text.
2. Each partition is audited by :func:`audit_partition` -- a module-level function, so it
   pickles by name under ``spawn``/``forkserver`` and on Dask -- into a partial
   :class:`~audit.auditor.run.report.AuditReport` (a plain, picklable value).
3. At most ``max_in_flight`` partitions are out at a time, and at most as many finished
   ones wait to be merged, so the parent's memory is a few partitions, however big the
   archive.
4. The parent merges the partial reports **in partition order** (a finished partition
   waits in a small buffer until those before it are merged).  Counting, money and the
   Kitti pot-carry check are sums and a union keyed by hand number, so any partitioning
   gives the same totals; merging in order also keeps the capped failure list exactly the
   one a single process keeps.  ``to_json`` sorts, so the JSON is byte for byte the one a
   single-process run prints.

When the source holds the operator's whole log (a ledger or an operator's URL) the
workers judge every record against it too (:mod:`audit.auditor.evidence.logcheck`: ``log_inconsistent``,
``not_in_log``, ``log_duplicate``), exactly as a single process does: each worker gets a
read-only view of one fixed snapshot of the log -- a ledger's file and size
(:class:`~audit.auditor.evidence.ledger_log.LedgerLogRef`: the worker opens it itself) or, when the workers
cannot read the file (an operator's URL, a remote cluster), the parent's
:class:`~audit.auditor.evidence.log_index.LogIndex` (every leaf hash and each hand's leaves), sent once per
worker (the pool's initializer, or a Dask broadcast).  The parent does no per-record work.
With ``--state`` each partition checks its records' checkpoints against the stored one
(:class:`audit.auditor.run.auditstate.StateCheck` -- order-independent) and the parent merges what
they accepted, in partition order.

Before the workers start, the parent audits a few samples of the first partition and
throws their verdicts away (:mod:`audit.auditor.run.warmup`): forked workers -- local ones, and a
``local:N`` Dask cluster's, which fork from the parent too -- begin with the archive's game
modules imported and their immutable tables built, instead of each building them on its
first partition.

A partition that crashes (its worker process dies, or the audit code raises outside the
per-record guard) does not end the run: it is retried once on its own, and if it fails
again each of its records is reported as an ``internal_error`` verdict with its place,
while every other partition's verdicts are kept.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Iterator

from ..sources.coverage import DEFAULT_GRACE
from ..sources.source import LEDGER, Source
from ..verdict.audit_policy import AuditPolicy, options
from .cluster import LEAN_WORKER_CONFIG, audit_partitions_dask, dask_client, dask_workers, local_size  # noqa: F401
from .partitions import CHUNK_SIZE, Partition, partitions, plan_partitions  # noqa: F401 - the API, named here
from .pool import audit_partitions_local, start_context, warm_first  # noqa: F401 - start_context: the API, named here
from .report import AuditReport
from .task import Handoff, Progress, audit_partition  # noqa: F401 - the API, named here

if TYPE_CHECKING:
    from ..evidence.ledger_log import LedgerLogRef
    from ..evidence.log_index import LogIndex
    from ..evidence.logcheck import LogView

def shippable_log(log: LogView | None, *, reads_files: bool) -> LedgerLogRef | LogIndex | None:
    """What the workers get of the parent's whole-log view: a ledger by file name and size
    when they can read the file (:class:`LedgerLogRef`), else every leaf hash and hand slot
    (:class:`LogIndex`); ``None`` for no log."""
    if log is None:
        return None
    from ..evidence.ledger_log import LedgerLog
    from ..evidence.log_index import LogIndex
    from ..evidence.remote_log import RemoteLog

    if isinstance(log, LedgerLog) and reads_files and log.ref() is not None:
        return log.ref()
    if isinstance(log, LogIndex):
        return log
    if isinstance(log, (LedgerLog, RemoteLog)):
        return log.index()
    raise TypeError(f"a {type(log).__name__} is no log view an audit can ship to its workers")

def audit_parallel(source: "str | Source", terms: AuditPolicy | None = None, *, workers: int = 2,
                   dask_address: str | None = None, progress: Progress | None = None, chunk_size: int = CHUNK_SIZE,
                   max_in_flight: int | None = None, read_in_workers: bool | None = None,
                   now: datetime | None = None, grace: timedelta = DEFAULT_GRACE, scope: Any = None,
                   findings: Any = None, **given: Any) -> AuditReport:
    """Audit ``source`` (a :class:`~audit.auditor.sources.source.Source` or its name) in parallel into one report,
    the same report -- byte for byte in ``to_json`` -- as :func:`audit.auditor.run.runner.audit_items`
    under the same ``terms`` (an :class:`AuditPolicy`, or its options as keywords: its
    ``trust``, ``check_signatures``, ``log`` (the whole log's view,
    :class:`~audit.auditor.evidence.ledger_log.LedgerLog` or :class:`~audit.auditor.evidence.remote_log.RemoteLog`) and
    ``state`` (a :class:`~audit.auditor.run.auditstate.StateCheck`, which ends holding what every
    partition accepted), and ``findings`` (what the whole log or archive shows of each hand,
    computed once by the parent: :mod:`audit.auditor.sources.logscan`, :mod:`audit.auditor.sources.archive_scan`)).

    ``read_in_workers`` (default: yes for local processes and ``local:N``, no for a remote
    scheduler) lets each worker read its own split of a local archive.

    A ledger source is held open by this process for the whole run (a reading connection,
    :func:`audit.operator.ledger.store.connect_reading`), so the ``-wal``/``-shm`` files the workers'
    reads make are removed when it closes, last."""
    from pathlib import Path

    from ..sources.splits import connect_ro

    source = Source.of(source)
    terms = options(terms, given)
    hold = None
    if source.kind == LEDGER and Path(source.text).is_file():
        hold = connect_ro(source.text)
    try:
        return _audit_parallel(source, terms, workers=workers, dask_address=dask_address, progress=progress,
                               chunk_size=chunk_size, max_in_flight=max_in_flight, read_in_workers=read_in_workers,
                               now=now, grace=grace, scope=scope, findings=findings)
    finally:
        if hold is not None:
            hold.close()

def _audit_parallel(source: Source, terms: AuditPolicy, *, workers: int, dask_address: str | None,
                    progress: Progress | None, chunk_size: int, max_in_flight: int | None,
                    read_in_workers: bool | None, now: datetime | None, grace: timedelta, scope: Any,
                    findings: Any = None) -> AuditReport:
    local_workers = not dask_address or dask_address.startswith("local:")
    if read_in_workers is None:
        read_in_workers = local_workers
    shipped = shippable_log(terms.log, reads_files=read_in_workers or local_workers)
    handoff = Handoff(replace(terms, log=None), findings or None, shipped)  # the one policy the workers audit with
    if dask_address:
        parts: Iterator[Partition] | None = None
        if dask_address.startswith("local:"):  # the workers fork from this process: warm it first
            parts = plan_partitions(source, chunk_size, read_in_workers=read_in_workers, now=now, grace=grace, scope=scope,
                                    taper=local_size(dask_address))
            parts, _ = warm_first(iter(parts), handoff)
        client = dask_client(dask_address)
        try:
            if parts is None:
                parts = plan_partitions(source, chunk_size, read_in_workers=read_in_workers, now=now, grace=grace, scope=scope,
                                        taper=dask_workers(client))
            return audit_partitions_dask(parts, client, handoff=handoff, progress=progress,
                                         max_in_flight=max_in_flight)
        finally:
            cluster = getattr(client, "cluster", None) if dask_address.startswith("local:") else None
            client.close()
            if cluster is not None:
                cluster.close()
    parts = plan_partitions(source, chunk_size, read_in_workers=read_in_workers, now=now, grace=grace, scope=scope,
                            taper=workers)
    return audit_partitions_local(parts, workers=workers, handoff=handoff, progress=progress,
                                  max_in_flight=max_in_flight)
