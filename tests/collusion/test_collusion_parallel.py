"""The collusion review in parallel (audit/auditor/collusion/parallel.py): local processes and
a Dask cluster give the very report a single process gives -- every account's decisions in
the same order, each at the same hand count -- whatever the partitioning."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from audit.auditor.collusion import observe_items, review
from audit.auditor.collusion.parallel import observe_parallel
from audit.auditor.sources.reader import iter_source
from web.cli import main


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    out = tmp_path_factory.mktemp("collusion-parallel") / "a.jsonl"
    res = CliRunner().invoke(main, ["simulate", "--preset", "kitti", "--hands", "60", "--tables", "2",
                                    "--seed", "parallel-peek", "--peek-seat", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return str(out)


def _same(a, b):
    assert dict(a.excesses) == dict(b.excesses) and dict(a.hand_of) == dict(b.hand_of)
    assert dict(a.hands_by_account) == dict(b.hands_by_account) and dict(a.together) == dict(b.together)
    assert dict(a.flows) == dict(b.flows) and a.hands == b.hands and dict(a.skipped) == dict(b.skipped)


def test_small_partitions_on_two_processes_observe_what_one_process_does(archive):
    single = observe_items(iter_source(archive))
    split = observe_parallel(iter_source(archive), workers=2, chunk_size=7)   # 120 records in 18 parts
    _same(single, split)
    assert review(split).to_json() == review(single).to_json()
    assert review(split).series == review(single).series


def test_on_a_local_dask_cluster_too(archive):
    _same(observe_items(iter_source(archive)), observe_parallel(iter_source(archive), dask_address="local:2",
                                                                chunk_size=11))


@pytest.mark.parametrize("mode", [["--workers", "2"], ["--dask", "local:2"]], ids=["workers", "dask"])
def test_the_cli_prints_the_same_review(archive, mode):
    args = ["collusion", archive, "--json", "--no-progress"]
    single = CliRunner().invoke(main, args)
    parallel = CliRunner().invoke(main, args + mode)
    assert single.exit_code == parallel.exit_code == 1                # the superuser is flagged
    assert json.loads(parallel.output) == json.loads(single.output)
    assert [f["account"] for f in json.loads(single.output)["flags"]]
