"""The parent warms up on a few samples before it starts the workers (audit/auditor/run/warmup.py):
forked workers start with the game's modules and tables built, and nothing else changes --
not a verdict, not a byte of the report."""
from __future__ import annotations

import itertools
import json
import multiprocessing
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from audit.operator.ledger import Ledger
from audit.auditor.run.parallel import audit_parallel, audit_partitions_local, plan_partitions
from audit.auditor.run.runner import audit_source
from audit.auditor.sources.splits import plan
from audit.auditor.run.warmup import HEAD, samples, warm_up

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "records"


def report_bytes(report) -> bytes:
    return json.dumps(report.to_json(), sort_keys=True).encode()


@pytest.fixture(scope="module")
def every_preset(tmp_path_factory) -> Path:
    """Every fixture record (every preset, clean and tampered), presets interleaved, with a
    line that is not JSON, a blank line and a line that is not UTF-8 among them."""
    manifest = json.loads((FIXTURES / "manifest.json").read_text())
    by_preset: dict[str, list[str]] = {}
    for entry in manifest["records"]:
        text = json.dumps(json.loads((FIXTURES / entry["file"]).read_text()), separators=(",", ":"))
        by_preset.setdefault(entry["preset"], []).append(text)
    lines: list[bytes] = [b"{not json", b"", b"\xff\xfe"]
    for row in itertools.zip_longest(*by_preset.values()):
        lines.extend(t.encode() for t in row if t is not None)
    path = tmp_path_factory.mktemp("warm") / "every-preset.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 7, HEAD, 10_000])
def test_a_split_s_head_is_what_its_read_gives_first(tmp_path, n):
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"a":1}\r\n\n  \n\xff\n{"b":2}\n{not json\n{"c":3}')  # CRLF, blanks, bad UTF-8, no final newline
    for split in plan(str(path), 3):
        assert split.head(n) == split.read()[:n]


def test_a_ledger_split_s_head_is_what_its_read_gives_first(tmp_path):
    from audit.operator.sim.tables import simulate_table

    db = tmp_path / "l.db"
    with Ledger(str(db), create=True) as ledger:
        ledger.new_operator("demo-operator")
        simulate_table(ledger, preset="kitti", players=3, hands=5, seed="head", table_id="t")
    for split in plan(str(db), 2):
        for n in (0, 1, 2, 5):
            assert split.head(n) == split.read()[:n]


def test_the_samples_are_the_first_record_of_each_ruleset(every_preset):
    head = next(iter(plan(str(every_preset), 500))).head(HEAD)
    chosen = samples(head, limit=100)
    ruleset = lambda text: json.dumps(json.loads(text)["ruleset"], sort_keys=True)  # noqa: E731
    records = [(where, ruleset(text)) for where, text, error in head if error is None and text.startswith('{"')]
    firsts = {}
    for where, key in records:
        firsts.setdefault(key, where)
    assert [where for where, _, _ in chosen] == list(firsts.values())  # the first of each, in archive order
    assert {json.loads(text)["ruleset"]["preset"] for _, text, _ in chosen} == {
        "kitti", "marriage/nepal", "marriage/classic", "rummy13"}
    assert chosen[0][0].endswith(":4")  # lines 1-3 (not JSON, blank, not UTF-8) are not samples
    assert len(samples(head, limit=2)) == 2


def test_a_warm_up_that_fails_changes_nothing_and_raises_nothing(every_preset):
    first = next(iter(plan(str(every_preset), 500)))

    def broken(chosen):
        raise RuntimeError("boom")

    assert isinstance(warm_up(first, broken), tuple)
    assert warm_up((("x:1", None, "not UTF-8 text"), ("x:2", "{not json", None)), broken) == ()


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_warm_workers_give_the_single_process_report_for_every_preset(every_preset, method):
    single = report_bytes(audit_source(str(every_preset)))
    got = audit_partitions_local(plan_partitions(str(every_preset), 3, taper=2), workers=2,
                                 mp_context=multiprocessing.get_context(method))
    records = len(json.loads((FIXTURES / "manifest.json").read_text())["records"])
    assert got.total == records + 2  # every fixture record and the two unreadable lines
    assert report_bytes(got) == single


PROBE = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {root!r})
    import multiprocessing
    from audit.auditor.run.parallel import audit_partition, audit_partitions_local, plan_partitions

    def probe(items, *args, **kwargs):  # what the worker has before it audits its partition
        had = ["replay.kitti.ranking" in sys.modules, "replay.marriage.maal" in sys.modules]
        report = audit_partition(items, *args, **kwargs)
        report.add_error("probe", json.dumps(had))
        return report

    if __name__ == "__main__":
        assert "replay.kitti" not in sys.modules and "replay.marriage" not in sys.modules
        ctx = multiprocessing.get_context({method!r})
        report = audit_partitions_local(plan_partitions({path!r}, 500), workers=2, mp_context=ctx,
                                        task=probe, warm={warm!r})
        print(json.dumps([f["faults"][0]["message"] for f in report.to_json()["failures"] if f["where"] == "probe"]))
""")


def _worker_had(path: Path, method: str, warm: bool, tmp_path: Path) -> list:
    script = tmp_path / f"probe_{method}_{warm}.py"
    script.write_text(PROBE.format(root=str(ROOT), path=str(path), method=method, warm=warm))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(m) for m in json.loads(done.stdout)]


@pytest.mark.parametrize("method", ["fork", "forkserver"])
def test_workers_start_with_the_archive_s_games_imported(every_preset, method, tmp_path):
    # a fresh parent (nothing of the games imported); one partition, so the one worker that
    # audits it has never audited a record before
    assert _worker_had(every_preset, method, True, tmp_path) == [[True, True]]
    assert _worker_had(every_preset, method, False, tmp_path) == [[False, False]]  # what the warm-up saves


def test_a_local_dask_cluster_forks_its_workers_from_the_warm_parent(every_preset):
    pytest.importorskip("distributed")
    from audit.auditor.run.parallel import dask_client

    import replay.kitti.ranking  # noqa: F401 - the parent has it: forked workers have it too

    client = dask_client("local:2")
    try:
        loaded = client.run(eval, "'replay.kitti.ranking' in __import__('sys').modules")
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    if sys.platform.startswith("linux"):
        assert list(loaded.values()) == [True, True]
    report = audit_parallel(str(every_preset), dask_address="local:2", chunk_size=3)
    assert report_bytes(report) == report_bytes(audit_source(str(every_preset)))


@pytest.mark.parametrize("address", ["local:x", "local:0", "local:-1", "local:65", "local:²"])
def test_a_bad_local_cluster_size_is_one_line_and_a_non_zero_exit(every_preset, address):
    from click.testing import CliRunner

    from web.cli import main

    result = CliRunner().invoke(main, ["audit", str(every_preset), "--dask", address])
    assert result.exit_code != 0 and "internal error" not in result.output
    assert "local:N takes a number of workers from 1 to 64" in result.output
    assert len(result.output.strip().splitlines()) == 1
