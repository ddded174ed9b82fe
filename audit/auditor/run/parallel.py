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


import itertools
import json
import sqlite3
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

from replay.faults import Fault, Reason

from datetime import datetime, timedelta

from ..sources.reader import Item, db_statuses
from ..sources.coverage import DEFAULT_GRACE, HandStatus, utc_now
from .report import AuditReport
from .runner import audit_one, with_findings
from ..sources.source import LEDGER, Source
from ..sources.splits import Split, Wire, plan
from ..verdict.verify import Verdict

Progress = Callable[[AuditReport], None]
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


@dataclass
class PartialReport(AuditReport):
    """A partition's report, with what its records' checkpoints did to the audit state."""

    state: Any = None


#: the log view a worker process judges records against (set by the pool's initializer)
_INSTALLED: dict[str, Any] = {"log": None}


def _install(log: Any) -> None:
    _INSTALLED["log"] = log


def _resolve(log: Any) -> Any:
    from ..evidence.ledger_log import LedgerLogRef

    return log.open() if isinstance(log, LedgerLogRef) else log


def _add(report: AuditReport, wire: Any, public_key: str | None, strict: bool, witnesses: Any = None,
         **checks: Any) -> None:
    """One partition entry into ``report``: a hand's status, an unreadable item, or a record."""
    if len(wire) == 2:  # (where, HandStatus): built only by the auditor, never read from a record
        report.add_status(wire[0], with_findings(wire[1], checks.get("findings")))
        return
    where, data, error = wire
    if error is not None:
        report.add_error(where, error)
    else:
        report.add(where, audit_one(data, public_key=public_key, strict=strict, witnesses=witnesses, **checks))


def audit_partition(items: Sequence[Wire | StatusWire] | Split, public_key: str | None = None, strict: bool = False,
                    witnesses: Any = None, *, log: Any = None, state: Any = None, trust: Any = None,
                    check_signatures: bool = False, findings: Any = None) -> AuditReport:
    """Audit one partition's items (read from the archive first if given a split) into a
    partial report (runs in the worker).  ``log`` is the whole log's view (default: the one
    this worker process was given, if any); ``state`` a fresh :class:`StateCheck` whose
    result comes back in the report (:class:`PartialReport`)."""
    if isinstance(items, Split):
        items = items.read()
    view = _resolve(log if log is not None else _INSTALLED["log"])
    report = PartialReport(state=state) if state is not None else AuditReport()
    checks = {k: v for k, v in (("log", view), ("state", state), ("trust", trust),
                                ("check_signatures", check_signatures), ("findings", findings)) if v}
    for wire in items:
        _add(report, wire, public_key, strict, witnesses, **checks)
    return report


def _task_args(items: Any, public_key: str | None, strict: bool, witnesses: Any) -> tuple:
    """A partition task's arguments; the witness policy only when there is one (so tasks of
    three parameters keep working)."""
    return (items, public_key, strict) if witnesses is None else (items, public_key, strict, witnesses)


@dataclass(frozen=True)
class _Checks:
    """What every task of a run gets besides its items: keyword arguments, only those set."""

    state: Any = None  # the parent's StateCheck; each task gets a fresh copy (``blank()``)
    trust: Any = None
    check_signatures: bool = False
    findings: Any = None  # hand id -> faults the whole log or archive shows (small: only hands with faults)

    def kwargs(self, **extra: Any) -> dict[str, Any]:
        out = {k: v for k, v in (("trust", self.trust), ("check_signatures", self.check_signatures),
                                 ("findings", self.findings)) if v}
        if self.state is not None:
            out["state"] = self.state.blank()
        out.update({k: v for k, v in extra.items() if v is not None})
        return out


def crashed_partition(part: Partition, exc: BaseException) -> AuditReport:
    """The report of a partition whose audit crashed: every record an ``internal_error``."""
    report = AuditReport()
    message = f"the auditor's partition {part.index} crashed: {type(exc).__name__}"
    items = part.items
    if isinstance(items, Split):
        try:
            items = items.read()
        except (OSError, sqlite3.Error) as err:
            report.add_error(f"{items.name}@{items.start}-{items.end}", f"{message}; cannot read it: {type(err).__name__}")
            return report
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


class _InOrder:
    """Merge partial reports in partition order, whatever order they finish in (and their
    audit-state results into ``state``)."""

    def __init__(self, progress: Progress | None, state: Any = None) -> None:
        self.report = AuditReport()
        self.waiting: dict[int, AuditReport] = {}
        self.next = 0
        self.progress = progress
        self.state = state

    def put(self, index: int, partial: AuditReport) -> None:
        self.waiting[index] = partial
        while self.next in self.waiting:
            part = self.waiting.pop(self.next)
            self.report.merge(part)
            if self.state is not None and getattr(part, "state", None) is not None:
                self.state.absorb(part.state)
            self.next += 1
            if self.progress:
                self.progress(self.report)


def audit_partitions_local(parts: Iterable[Partition], *, workers: int, public_key: str | None = None,
                           strict: bool = False, witnesses: Any = None, progress: Progress | None = None,
                           max_in_flight: int | None = None, mp_context: Any = None,
                           task: Callable[..., AuditReport] = audit_partition, log: Any = None,
                           checks: _Checks = _Checks(), warm: bool = True) -> AuditReport:
    """Audit partitions on a pool of ``workers`` local processes (:func:`start_context` by
    default); ``log`` (a shippable view: :func:`shippable_log`) is given to each worker process once.
    With ``warm`` the parent first audits a few samples of the first partition
    (:mod:`audit.auditor.run.warmup`), so forked workers start with the game's modules and tables built."""
    ctx = mp_context or start_context()
    limit = max_in_flight or 2 * workers
    merger = _InOrder(progress, checks.state)
    source = iter(parts)
    if warm and ctx.get_start_method() != "spawn":  # a spawned worker would not inherit it
        source, modules = _warm(source, public_key, strict, witnesses, log, checks)
        if ctx.get_start_method() == "forkserver":
            ctx.set_forkserver_preload([__name__, *modules])
    init = {"initializer": _install, "initargs": (log,)} if log is not None else {}
    pool = ProcessPoolExecutor(workers, mp_context=ctx, **init)
    in_flight: dict[Future, Partition] = {}
    suspects: list[Partition] = []
    try:
        while True:
            while (not suspects and len(in_flight) < limit and len(merger.waiting) < limit
                   and (part := next(source, None)) is not None):
                try:
                    in_flight[pool.submit(task, *_task_args(part.items, public_key, strict, witnesses),
                                          **checks.kwargs())] = part
                except BrokenProcessPool:  # the pool broke since the last wait: retry it alone too
                    suspects.append(part)
            if not in_flight and not suspects:
                break
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for fut in done:
                part = in_flight.pop(fut)
                try:
                    merger.put(part.index, fut.result())
                except BrokenProcessPool:
                    suspects.append(part)  # maybe the culprit, maybe a bystander: retried alone below
                except Exception as exc:  # noqa: BLE001 - one partition's crash must not end the run
                    merger.put(part.index, crashed_partition(part, exc))
            if suspects and not in_flight:
                pool.shutdown(cancel_futures=True)
                for part in sorted(suspects, key=lambda p: p.index):
                    merger.put(part.index, _retry_alone(part, ctx, task, public_key, strict, witnesses, init, checks))
                suspects.clear()
                pool = ProcessPoolExecutor(workers, mp_context=ctx, **init)
    finally:
        pool.shutdown(cancel_futures=True)
    return merger.report


def _warm(source: Iterator[Partition], public_key: str | None, strict: bool, witnesses: Any, log: Any,
          checks: _Checks) -> tuple[Iterator[Partition], tuple[str, ...]]:
    """Warm this process up on the first partition's samples (:func:`audit.auditor.run.warmup.warm_up`);
    the partitions, all of them still to come, and the modules the warm-up imported."""
    from .warmup import warm_up

    first = next(source, None)
    if first is None:
        return source, ()
    modules = warm_up(first.items, lambda chosen: audit_partition(chosen, public_key, strict, witnesses, log=log,
                                                                  **checks.kwargs()))
    return itertools.chain([first], source), modules


def start_context() -> Any:
    """How local workers start.  ``fork`` when it is safe -- on Linux, from a parent with no
    thread but its own: the workers begin with every module the parent has imported (the
    audit's import is ~0.5 CPU-second a process, most of a short run's fixed cost; measured
    in ``docs/scale.md``).  Otherwise a ``forkserver`` that imports this module once and
    forks the workers from it, or, where neither exists, ``spawn``.  A worker only reads
    its split (or the items it is sent) and returns a plain value, whichever way it starts."""
    import multiprocessing
    import sys
    import threading

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([__name__])
        return ctx
    return multiprocessing.get_context("spawn")


def _retry_alone(part: Partition, ctx: Any, task: Callable[..., AuditReport], public_key: str | None,
                 strict: bool, witnesses: Any = None, init: dict | None = None,
                 checks: _Checks = _Checks()) -> AuditReport:
    """Run one partition in a fresh one-process pool; a second crash makes it internal errors."""
    with ProcessPoolExecutor(1, mp_context=ctx, **(init or {})) as solo:
        try:
            return solo.submit(task, *_task_args(part.items, public_key, strict, witnesses),
                               **checks.kwargs()).result()
        except Exception as exc:  # noqa: BLE001
            return crashed_partition(part, exc)


def dask_client(address: str):
    """A ``distributed.Client``: ``local:N`` starts an in-process LocalCluster of N worker
    processes (one thread each, forked from this process on Linux: :func:`_local_start`);
    anything else is a scheduler address (``tcp://host:8786``)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on the install
        from replay.errors import TipluError

        raise TipluError("--dask needs dask.distributed: pip install 'tiplu[dask]'") from exc
    if address.startswith("local:"):
        import dask

        n = _local_size(address)
        # The audit is CPU-bound Python: the workers' statistical profiler (a stack sample
        # every 10 ms, for a dashboard we do not start), a 100 ms memory poll and a 20 ms
        # event-loop tick only take the GIL from it.  Nannies hand this config to the worker processes they start.
        with dask.config.set({**LEAN_WORKER_CONFIG, **_local_start()}):
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster)
    return Client(address)


def _local_start() -> dict[str, str]:
    """How a ``local:N`` cluster's nannies start their workers: forked from this process on
    Linux -- warm, with the audit imported and the samples' tables built (``docs/scale.md``:
    0.4 s to a running cluster instead of 3-4 s of spawned interpreters importing Dask and
    the audit) -- else Dask's default (spawn)."""
    import sys

    return {"distributed.worker.multiprocessing-method": "fork"} if sys.platform.startswith("linux") else {}


def _local_size(address: str) -> int:
    """N of ``local:N`` (2 for ``local:``); :class:`MalformedError` unless N is 1 to 64."""
    from replay.errors import MalformedError

    text = address.split(":", 1)[1] or "2"
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 64):
        raise MalformedError(f"--dask {address}: local:N takes a number of workers from 1 to 64")
    return int(text)


#: Dask settings for an audit cluster (set on a LocalCluster; for a real cluster, set them in
#: the workers' configuration: ``docs/scale.md``).
LEAN_WORKER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.tick.interval": "200ms",
    # each worker imports the audit as it starts (~0.5 CPU-second), not on its first partition
    "distributed.worker.preload": ["audit.auditor.run.parallel"],
}


def audit_partitions_dask(parts: Iterable[Partition], client: Any, *, public_key: str | None = None,
                          strict: bool = False, witnesses: Any = None, progress: Progress | None = None,
                          max_in_flight: int | None = None,
                          task: Callable[..., AuditReport] = audit_partition, log: Any = None,
                          checks: _Checks = _Checks()) -> AuditReport:
    """Audit partitions on a Dask cluster with at most ``max_in_flight`` futures out at a time;
    ``log`` (a shippable view) is broadcast to the workers once."""
    from distributed import as_completed

    limit = max_in_flight or 2 * dask_workers(client)
    merger = _InOrder(progress, checks.state)
    source = iter(parts)
    owner: dict[str, Partition] = {}
    from ..evidence.log_index import LogIndex

    shared = client.scatter(log, broadcast=True, hash=False) if isinstance(log, LogIndex) else log

    def submit(part: Partition):
        fut = client.submit(task, *_task_args(part.items, public_key, strict, witnesses), pure=False,
                            **checks.kwargs(log=shared))
        owner[fut.key] = part
        return fut

    first = [submit(p) for p in itertools.islice(source, limit)]
    pending = as_completed(first, with_results=False)
    for fut in pending:
        part = owner.pop(fut.key)
        try:
            merger.put(part.index, fut.result())
        except Exception as exc:  # noqa: BLE001 - KilledWorker, a raised error, a lost worker
            merger.put(part.index, crashed_partition(part, exc))
        fut.release()
        # top up; finished-but-unmerged partials count too, so a slow partition cannot
        # make the parent buffer without bound
        while len(owner) < limit and len(merger.waiting) < limit and (nxt := next(source, None)) is not None:
            pending.add(submit(nxt))
    return merger.report


def dask_workers(client: Any) -> int:
    """How many workers the cluster has now (at least 1)."""
    return max(1, len(client.scheduler_info().get("workers", {})))


def shippable_log(log: Any, *, reads_files: bool) -> Any:
    """What the workers get of the parent's whole-log view: a ledger by file name and size
    when they can read the file (:class:`LedgerLogRef`), else every leaf hash and hand slot
    (:class:`LogIndex`); ``None`` for no log."""
    if log is None:
        return None
    from ..evidence.ledger_log import LedgerLog
    from ..evidence.log_index import LogIndex

    if isinstance(log, LedgerLog) and reads_files and log.ref() is not None:
        return log.ref()
    if isinstance(log, LogIndex):
        return log
    return log.index()


def audit_parallel(source: "str | Source", *, workers: int = 2, dask_address: str | None = None,
                   public_key: str | None = None, strict: bool = False, progress: Progress | None = None,
                   witnesses: Any = None, chunk_size: int = CHUNK_SIZE, max_in_flight: int | None = None,
                   read_in_workers: bool | None = None, now: datetime | None = None,
                   grace: timedelta = DEFAULT_GRACE, trust: Any = None, check_signatures: bool = False,
                   log: Any = None, state: Any = None, scope: Any = None, findings: Any = None) -> AuditReport:
    """Audit ``source`` (a :class:`~audit.auditor.sources.source.Source` or its name) in parallel into one report,
    the same report -- byte for byte in ``to_json`` -- as :func:`audit.auditor.run.runner.audit_items`
    with the same ``trust``, ``check_signatures``, ``log`` (the whole log's view,
    :class:`~audit.auditor.evidence.ledger_log.LedgerLog` or :class:`~audit.auditor.evidence.remote_log.RemoteLog`) and
    ``state`` (a :class:`~audit.auditor.run.auditstate.StateCheck`, which ends holding what every
    partition accepted), and ``findings`` (what the whole log or archive shows of each hand,
    computed once by the parent: :mod:`audit.auditor.sources.logscan`, :mod:`audit.auditor.sources.archive_scan`).

    ``read_in_workers`` (default: yes for local processes and ``local:N``, no for a remote
    scheduler) lets each worker read its own split of a local archive.

    A ledger source is held open by this process for the whole run (a reading connection,
    :func:`audit.operator.ledger.store.connect_reading`), so the ``-wal``/``-shm`` files the workers'
    reads make are removed when it closes, last."""
    from pathlib import Path

    from ..sources.splits import connect_ro

    source = Source.of(source)
    hold = None
    if source.kind == LEDGER and Path(source.text).is_file():
        hold = connect_ro(source.text)
    try:
        return _audit_parallel(source, workers=workers, dask_address=dask_address, public_key=public_key,
                               strict=strict, progress=progress, witnesses=witnesses, chunk_size=chunk_size,
                               max_in_flight=max_in_flight, read_in_workers=read_in_workers, now=now, grace=grace,
                               trust=trust, check_signatures=check_signatures, log=log, state=state, scope=scope,
                               findings=findings)
    finally:
        if hold is not None:
            hold.close()


def _audit_parallel(source: Source, *, workers: int, dask_address: str | None, public_key: str | None, strict: bool,
                    progress: Progress | None, witnesses: Any, chunk_size: int, max_in_flight: int | None,
                    read_in_workers: bool | None, now: datetime | None, grace: timedelta, trust: Any,
                    check_signatures: bool, log: Any, state: Any, scope: Any, findings: Any = None) -> AuditReport:
    local_workers = not dask_address or dask_address.startswith("local:")
    if read_in_workers is None:
        read_in_workers = local_workers
    shipped = shippable_log(log, reads_files=read_in_workers or local_workers)
    checks = _Checks(state, trust, check_signatures, findings or None)
    if dask_address:
        parts: Iterator[Partition] | None = None
        if dask_address.startswith("local:"):  # the workers fork from this process: warm it first
            parts = plan_partitions(source, chunk_size, read_in_workers=read_in_workers, now=now, grace=grace, scope=scope,
                                    taper=_local_size(dask_address))
            parts, _ = _warm(iter(parts), public_key, strict, witnesses, shipped, checks)
        client = dask_client(dask_address)
        try:
            if parts is None:
                parts = plan_partitions(source, chunk_size, read_in_workers=read_in_workers, now=now, grace=grace, scope=scope,
                                        taper=dask_workers(client))
            return audit_partitions_dask(parts, client, public_key=public_key, strict=strict, witnesses=witnesses,
                                         progress=progress, max_in_flight=max_in_flight, log=shipped,
                                         checks=checks)
        finally:
            cluster = getattr(client, "cluster", None) if dask_address.startswith("local:") else None
            client.close()
            if cluster is not None:
                cluster.close()
    parts = plan_partitions(source, chunk_size, read_in_workers=read_in_workers, now=now, grace=grace, scope=scope,
                            taper=workers)
    return audit_partitions_local(parts, workers=workers, public_key=public_key, strict=strict, witnesses=witnesses,
                                  progress=progress, max_in_flight=max_in_flight, log=shipped, checks=checks)
