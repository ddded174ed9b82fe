"""Parallel audits (--workers, --dask) give the single-process report, byte for byte."""
from __future__ import annotations

import itertools
import json
import os

import pytest
from click.testing import CliRunner

from audit.auditor.sources.reader import Item, iter_source, write_jsonl
from audit.cli import main
from audit.operator.ledger import Ledger
from audit.auditor.run.parallel import (Partition, audit_parallel, audit_partition, audit_partitions_dask,
                            audit_partitions_local, dask_client, partitions)
from audit.auditor.run.runner import audit_source
from audit.operator.sim.tables import simulate_table
from audit.operator.sim.tamper import TamperContext, _resign_record, tamper
from replay.stream import Stream

CHUNK = 3  # small partitions, so every table's hands are spread over several


def report_bytes(report) -> bytes:
    return json.dumps(report.to_json(), sort_keys=True).encode()


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """Two Kitti tables interleaved, two tampered records, one bad line, and a pot-carry
    break between hands 2 and 3 of table kA (which fall in partitions 0 and 1 of size 3)."""
    ledger = Ledger(":memory:")
    ledger.new_operator("demo-operator")
    tables = {}
    for tid in ("kA", "kB"):
        out: list[dict] = []
        simulate_table(ledger, preset="kitti", players=4, hands=6, seed="par", table_id=tid,
                       on_record=lambda r, k: out.append(r))  # noqa: B023 - called within this iteration
        tables[tid] = out
    ctx = TamperContext(ledger.signing_key("demo-operator"), Stream(bytes(32), bytes(32), "par"))
    a = tables["kA"]
    a[3] = _resign_record({**a[3], "table": {**a[3]["table"], "carry": {"pot_before": a[3]["table"]["carry"]["pot_before"] + 7}}}, ctx)
    records = list(a[:4]) + [r for pair in itertools.zip_longest(a[4:], tables["kB"]) for r in pair if r is not None]
    records[5] = tamper(records[5], "inflated_payout", ctx)
    records[8] = tamper(records[8], "forged_signature", ctx)
    path = tmp_path_factory.mktemp("par") / "archive.jsonl"
    write_jsonl(records, path)
    with path.open("a") as fh:
        fh.write("{not json\n")
    return path, ledger


def test_the_archive_splits_a_table_and_its_carry_break_across_partitions(archive):
    # rule D-14 is Kitti's pot carry: hand 3 of kA must start with what hand 2 left
    path, _ = archive
    parts = list(partitions(iter_source(str(path)), CHUNK))
    where_kA = {p.index for p in parts for w, d, e in p.items if d and d["table"]["table_id"] == "kA"}
    assert len(where_kA) > 1
    single = audit_source(str(path))
    faults = single.table_faults()
    assert list(faults) == ["kA"] and faults["kA"][0].startswith("hand 3 starts with pot")
    assert single.failed >= 3  # two tampered records and the bad line at least


def test_workers_give_the_single_process_report_byte_for_byte(archive):
    path, _ = archive
    single = report_bytes(audit_source(str(path)))
    parallel = audit_parallel(str(path), workers=2, chunk_size=CHUNK)
    assert report_bytes(parallel) == single
    assert parallel.table_faults()["kA"]  # the carry break between partitions is still seen


def test_dask_local_cluster_gives_the_single_process_report_byte_for_byte(archive):
    pytest.importorskip("distributed")
    path, _ = archive
    single = report_bytes(audit_source(str(path)))
    seen = []
    parallel = audit_parallel(str(path), dask_address="local:2", chunk_size=CHUNK,
                              progress=lambda r: seen.append(r.total))
    assert report_bytes(parallel) == single
    assert seen == sorted(seen) and seen[-1] == parallel.total and len(seen) > 1


def test_cli_workers_json_equals_the_single_process_json(archive):
    path, _ = archive
    runner = CliRunner()
    one = runner.invoke(main, ["audit", str(path), "--json", "--no-progress"])
    two = runner.invoke(main, ["audit", str(path), "--json", "--no-progress", "--workers", "2"])
    assert one.exit_code == two.exit_code == 1  # the archive has failures
    assert one.output == two.output and '"total"' in one.output


def die_on_marked(items, terms=None, **kwargs):
    """A partition task whose worker process dies on the partition holding hand kB-h0001."""
    if any(d and d.get("hand_id") == "kB-h0001" for _, d, _ in items):
        os._exit(3)
    return audit_partition(items, terms, **kwargs)


def raise_on_marked(items, terms=None, **kwargs):
    if any(d and d.get("hand_id") == "kB-h0001" for _, d, _ in items):
        raise RuntimeError("boom")
    return audit_partition(items, terms, **kwargs)


def _check_crash_report(report, path):
    single = audit_source(str(path)).to_json()
    got = report.to_json()
    parts = list(partitions(iter_source(str(path)), CHUNK))
    bad = next(p for p in parts if any(d and d.get("hand_id") == "kB-h0001" for _, d, _ in p.items))
    bad_where = {w for w, d, e in bad.items}
    crashed = [f for f in got["failures"] if f["reason"] == "internal_error"]
    assert {f["where"] for f in crashed} == bad_where
    assert all("crashed" in f["faults"][0]["message"] for f in crashed)
    # every other record keeps exactly its single-process verdict
    keep = lambda fs: [f for f in fs if f["where"] not in bad_where]  # noqa: E731
    assert keep(got["failures"]) == keep(single["failures"])
    assert got["total"] == single["total"]


def test_a_dying_worker_costs_only_its_partition(archive):
    path, _ = archive
    report = audit_partitions_local(partitions(iter_source(str(path)), CHUNK), workers=2, task=die_on_marked)
    _check_crash_report(report, path)


def test_a_raising_partition_costs_only_itself_on_dask(archive):
    pytest.importorskip("distributed")
    path, _ = archive
    client = dask_client("local:2")
    try:
        report = audit_partitions_dask(partitions(iter_source(str(path)), CHUNK), client, task=raise_on_marked)
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    _check_crash_report(report, path)


def test_partitions_are_cut_lazily_from_an_endless_stream():
    endless = (Item(f"x:{i}", data={"hand_id": str(i)}) for i in itertools.count())
    first = list(itertools.islice(partitions(endless, 4), 2))
    assert [p.index for p in first] == [0, 1]
    assert [w for w, _, _ in first[1].items] == ["x:4", "x:5", "x:6", "x:7"]


def test_in_flight_partitions_are_bounded(archive):
    # memory stays flat: when the first result is merged, only a few partitions were read
    path, _ = archive
    pulled = []

    def counting():
        for n, p in enumerate(partitions(iter_source(str(path)), 1)):
            pulled.append(n)
            yield p
    first_seen = []
    audit_partitions_local(counting(), workers=1, max_in_flight=2,
                           progress=lambda r: first_seen.append(len(pulled)) if not first_seen else None)
    assert first_seen[0] <= 3 and len(pulled) > 10


def test_a_ledger_database_is_audited_as_published(tmp_path):
    # rules: the ledger's records with their statements and revealed seeds audit clean
    db = tmp_path / "ledger.db"
    ledger = Ledger(str(db), create=True)
    ledger.new_operator("demo-operator")
    simulate_table(ledger, preset="kitti", players=3, hands=5, seed="db", table_id="kdb")
    ledger.close()
    single = audit_source(str(db))
    assert single.ok and single.total == 5 and single.tables["kdb"].hands == 5
    parallel = audit_parallel(str(db), workers=2, chunk_size=2)
    assert report_bytes(parallel) == report_bytes(single)


def test_partition_values_are_plain_and_picklable(archive):
    import pickle

    path, _ = archive
    part = next(partitions(iter_source(str(path)), CHUNK))
    assert isinstance(part, Partition)
    report = audit_partition(part.items)
    assert report_bytes(pickle.loads(pickle.dumps(report))) == report_bytes(report)


def test_workers_fork_from_a_single_threaded_parent_else_from_a_preloaded_forkserver(monkeypatch):
    # fork copies a parent's locks as they are: only safe when no other thread could hold one
    import sys
    import threading

    from audit.auditor.run.parallel import start_context

    if not sys.platform.startswith("linux"):
        pytest.skip("fork is used on Linux only")
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert start_context().get_start_method() == "fork"
    monkeypatch.setattr(threading, "active_count", lambda: 3)  # e.g. a Dask client's threads
    ctx = start_context()
    assert ctx.get_start_method() == "forkserver"
    from multiprocessing import forkserver

    assert "audit.auditor.run.parallel" in forkserver._forkserver._preload_modules  # imported once, in the server


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_every_start_method_gives_the_single_process_report(archive, method):
    import multiprocessing

    from audit.auditor.run.parallel import plan_partitions

    path, _ = archive
    got = audit_partitions_local(plan_partitions(str(path), CHUNK, taper=2), workers=2,
                                 mp_context=multiprocessing.get_context(method))
    assert report_bytes(got) == report_bytes(audit_source(str(path)))


def test_a_local_dask_cluster_s_workers_import_the_audit_as_they_start():
    # (not on their first partition, inside the audit's time); eval is pickled by name, so
    # asking does not itself import anything of ours into the workers
    pytest.importorskip("distributed")
    client = dask_client("local:2")
    try:
        loaded = client.run(eval, "'audit.auditor.run.parallel' in __import__('sys').modules")
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    assert list(loaded.values()) == [True, True]
