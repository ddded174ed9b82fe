"""The collusion review of a large archive in parallel: local processes (``--workers N``) or a
Dask cluster (``--dask ADDRESS``, ``local:N`` included), as the audit's runs
(:mod:`audit.auditor.run.parallel`, whose Dask client and process start it shares).

The parent reads the source and ships partitions of :data:`CHUNK_SIZE` consecutive records;
each worker audits and replays its records and observes their decisions
(:func:`observe_partition`, module-level so it pickles by name) into a partial
:class:`~audit.auditor.collusion.observe.Observations`; the parent merges the partials **in
partition order** (:func:`merge_into`), so every account's decisions, and the hand count of
each, come out in the order a single process sees them, and the report is the same.  At most
``max_in_flight`` partitions are out at a time and as many finished ones wait to be merged,
so the parent's memory is a few partitions, however big the archive.
"""
from __future__ import annotations

import itertools
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Callable, Iterable, Iterator, Sequence

from .observe import Observations, observe_items

CHUNK_SIZE = 200
#: a record as it travels: (its reading error or None, its parsed JSON or None)
Wire = tuple[Any, Any]


class _Shipped:
    """An :class:`~audit.auditor.sources.item.Item`'s two fields :func:`observe_items` reads."""

    __slots__ = ("error", "data")

    def __init__(self, error: Any, data: Any) -> None:
        self.error, self.data = error, data


def observe_partition(wires: Sequence[Wire], trust: Any = None) -> Observations:
    """One partition's observations (a worker's task)."""
    return observe_items((_Shipped(e, d) for e, d in wires), trust=trust)


def partitions(items: Iterable[Any], size: int = CHUNK_SIZE) -> Iterator[list[Wire]]:
    it = iter(items)
    while chunk := [(item.error, item.data) for item in itertools.islice(it, size)]:
        yield chunk


def merge_into(into: Observations, part: Observations) -> None:
    """Add the partition after everything already in ``into``: decisions appended in order,
    each account's hand numbers moved past the hands it already had."""
    for key, xs in part.excesses.items():
        into.excesses[key].extend(xs)
        offset = into.hands_by_account[key[0]]
        into.hand_of[key].extend(h + offset for h in part.hand_of.get(key, ()))
    for name, n in part.hands_by_account.items():
        into.hands_by_account[name] += n
    for pair, n in part.together.items():
        into.together[pair] += n
    for pair, amount in part.flows.items():
        into.flows[pair] += amount
    for triple, xs in part.pair_excesses.items():   # one value per shared hand, in order
        into.pair_excesses[triple].extend(xs)
    for why, n in part.skipped.items():
        into.skipped[why] += n
    into.hands += part.hands
    into.games |= part.games


class _InOrder:
    def __init__(self, progress: Callable[[int], None] | None) -> None:
        self.out = Observations()
        self.waiting: dict[int, tuple[Observations, int]] = {}
        self.next = 0
        self.progress = progress
        self.records = 0

    def put(self, index: int, part: Observations, records: int) -> None:
        self.waiting[index] = (part, records)
        while self.next in self.waiting:
            done, n = self.waiting.pop(self.next)
            merge_into(self.out, done)
            self.next += 1
            self.records += n
            if self.progress:
                self.progress(self.records)


def observe_parallel(items: Iterable[Any], *, trust: Any = None, workers: int = 2, dask_address: str | None = None,
                     chunk_size: int = CHUNK_SIZE, max_in_flight: int | None = None,
                     progress: Callable[[int], None] | None = None) -> Observations:
    """:func:`~audit.auditor.collusion.observe.observe_items` of ``items`` over ``workers``
    local processes, or on the Dask scheduler at ``dask_address``: the same observations."""
    parts = enumerate(partitions(items, chunk_size))
    merger = _InOrder(progress)
    if dask_address:
        from ..run.cluster import dask_client, dask_workers

        client = dask_client(dask_address)
        try:
            _run_dask(parts, client, trust, max_in_flight or 2 * dask_workers(client), merger)
        finally:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None and dask_address.startswith("local:"):
                cluster.close()
        return merger.out
    from ..run.pool import start_context

    limit = max_in_flight or 2 * workers
    with ProcessPoolExecutor(workers, mp_context=start_context()) as pool:
        out: dict[Any, tuple[int, int]] = {}
        for index, wires in itertools.islice(parts, limit):
            out[pool.submit(observe_partition, wires, trust)] = (index, len(wires))
        while out:
            done, _ = wait(out, return_when=FIRST_COMPLETED)
            for fut in done:
                index, n = out.pop(fut)
                merger.put(index, fut.result(), n)
            while len(out) < limit and len(merger.waiting) < limit and (nxt := next(parts, None)) is not None:
                out[pool.submit(observe_partition, nxt[1], trust)] = (nxt[0], len(nxt[1]))
    return merger.out


def _run_dask(parts: Iterator[tuple[int, list[Wire]]], client: Any, trust: Any, limit: int, merger: _InOrder) -> None:
    from distributed import as_completed

    owner: dict[str, tuple[int, int]] = {}

    def submit(index: int, wires: list[Wire]):
        fut = client.submit(observe_partition, wires, trust, pure=False)
        owner[fut.key] = (index, len(wires))
        return fut

    pending = as_completed([submit(i, w) for i, w in itertools.islice(parts, limit)], with_results=False)
    for fut in pending:
        index, n = owner.pop(fut.key)
        merger.put(index, fut.result(), n)
        fut.release()
        while len(owner) < limit and len(merger.waiting) < limit and (nxt := next(parts, None)) is not None:
            pending.add(submit(*nxt))
