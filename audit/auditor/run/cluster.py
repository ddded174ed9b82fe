"""A parallel audit on a Dask cluster (``--dask ADDRESS``, ``local:N``): :func:`audit_partitions_dask`."""
from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable

from .partitions import Partition, crashed_partition
from .report import AuditReport
from .task import Handoff, InOrder, Progress, audit_partition

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

        n = local_size(address)
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

def local_size(address: str) -> int:
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

def audit_partitions_dask(parts: Iterable[Partition], client: Any, *, handoff: Handoff = Handoff(),
                          progress: Progress | None = None, max_in_flight: int | None = None,
                          task: Callable[..., AuditReport] = audit_partition) -> AuditReport:
    """Audit partitions on a Dask cluster with at most ``max_in_flight`` futures out at a time,
    each task under the run's policy (``handoff``); the policy's ``log`` (a shippable view) is
    broadcast to the workers once."""
    from distributed import as_completed

    limit = max_in_flight or 2 * dask_workers(client)
    merger = InOrder(progress, handoff.terms.state)
    source = iter(parts)
    owner: dict[str, Partition] = {}
    from ..evidence.log_index import LogIndex

    log = handoff.log
    shared = client.scatter(log, broadcast=True, hash=False) if isinstance(log, LogIndex) else log

    def submit(part: Partition):
        args, kwargs = handoff.task(part.items, log=shared)
        fut = client.submit(task, *args, pure=False, **kwargs)
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
