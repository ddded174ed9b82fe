"""A parallel audit on local worker processes (``--workers N``): :func:`audit_partitions_local`."""
from __future__ import annotations

import itertools
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import Any, Callable, Iterable, Iterator

from .partitions import Partition, crashed_partition
from .report import AuditReport
from .task import Handoff, InOrder, Progress, audit_partition, install

#: the module a worker must have imported (its task, and everything the audit needs)
PARALLEL = "audit.auditor.run.parallel"

def audit_partitions_local(parts: Iterable[Partition], *, workers: int, handoff: Handoff = Handoff(),
                           progress: Progress | None = None, max_in_flight: int | None = None,
                           mp_context: BaseContext | None = None, task: Callable[..., AuditReport] = audit_partition,
                           warm: bool = True) -> AuditReport:
    """Audit partitions on a pool of ``workers`` local processes (:func:`start_context` by
    default), each task under the run's policy (``handoff``); the policy's ``log`` (a
    shippable view: :func:`shippable_log`) is given to each worker process once.
    With ``warm`` the parent first audits a few samples of the first partition
    (:mod:`audit.auditor.run.warmup`), so forked workers start with the game's modules and tables built."""
    ctx = mp_context or start_context()
    limit = max_in_flight or 2 * workers
    merger = InOrder(progress, handoff.terms.state)
    source = iter(parts)
    if warm and ctx.get_start_method() != "spawn":  # a spawned worker would not inherit it
        source, modules = warm_first(source, handoff)
        if ctx.get_start_method() == "forkserver":
            ctx.set_forkserver_preload([PARALLEL, *modules])
    pool = _pool(workers, ctx, handoff)
    in_flight: dict[Future[AuditReport], Partition] = {}
    suspects: list[Partition] = []
    try:
        while True:
            while (not suspects and len(in_flight) < limit and len(merger.waiting) < limit
                   and (part := next(source, None)) is not None):
                try:
                    args, kwargs = handoff.task(part.items)
                    in_flight[pool.submit(task, *args, **kwargs)] = part
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
                    merger.put(part.index, _retry_alone(part, ctx, task, handoff))
                suspects.clear()
                pool = _pool(workers, ctx, handoff)
    finally:
        pool.shutdown(cancel_futures=True)
    return merger.report

def warm_first(source: Iterator[Partition], handoff: Handoff) -> tuple[Iterator[Partition], tuple[str, ...]]:
    """Warm this process up on the first partition's samples (:func:`audit.auditor.run.warmup.warm_up`);
    the partitions, all of them still to come, and the modules the warm-up imported."""
    from .warmup import warm_up

    first = next(source, None)
    if first is None:
        return source, ()
    def audit(chosen: Any) -> AuditReport:
        args, kwargs = handoff.task(chosen, log=handoff.log)
        return audit_partition(*args, **kwargs)

    modules = warm_up(first.items, audit)
    return itertools.chain([first], source), modules

def start_context() -> BaseContext:
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
        ctx.set_forkserver_preload([PARALLEL])
        return ctx
    return multiprocessing.get_context("spawn")

def _pool(workers: int, ctx: BaseContext, handoff: Handoff) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, each given the run's shippable log view once (:func:`install`)."""
    log = handoff.log
    if log is None:
        return ProcessPoolExecutor(workers, mp_context=ctx)
    return ProcessPoolExecutor(workers, mp_context=ctx, initializer=install, initargs=(log,))

def _retry_alone(part: Partition, ctx: BaseContext, task: Callable[..., AuditReport],
                 handoff: Handoff) -> AuditReport:
    """Run one partition in a fresh one-process pool; a second crash makes it internal errors."""
    with _pool(1, ctx, handoff) as solo:
        try:
            args, kwargs = handoff.task(part.items)
            return solo.submit(task, *args, **kwargs).result()
        except Exception as exc:  # noqa: BLE001
            return crashed_partition(part, exc)
