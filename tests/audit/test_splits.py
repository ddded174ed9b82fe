"""Splits: workers read their own part of a local archive (``audit/auditor/sources/splits.py``)."""
from __future__ import annotations

import io
import os

import pytest
from hypothesis import given, settings, strategies as st

from audit.auditor.sources import splits
from audit.auditor.sources.reader import iter_jsonl
from audit.operator.ledger import Ledger
from audit.auditor.run.parallel import Partition, audit_parallel, audit_partition, audit_partitions_local, plan_partitions
from audit.operator.publish import iter_published
from audit.auditor.run.runner import audit_source
from audit.operator.sim.tables import simulate_table
from audit.auditor.sources.splits import Split, plan, splittable
from replay.errors import MalformedError


def wires_of(path, name):
    """What the single process reads from a JSON-lines file, as (where, text, error)."""
    with open(path, "rb") as fh:
        return [(i.where, i.data, None if i.error is None else str(i.error)) for i in iter_jsonl(fh, name, raw=True)]


def read_all(path, lines):
    return [w for s in plan(str(path), lines) for w in s.read()]


LINE = st.one_of(
    st.just(b""), st.just(b"   "), st.just(b"\r"), st.just("\u00a0".encode()),  # blank, CR, unicode space
    st.just(b'{"hand_id": "x"}'), st.just(b'{"a": 1}\r'), st.just(b"{not json"),
    st.just(b"\xff\xfe{}"), st.just("{\"p\": \"\u0928\u0947\u092a\u093e\u0932\"}".encode()),
    st.binary(max_size=12).filter(lambda b: b"\n" not in b),
)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(LINE, max_size=25), trailing=st.booleans(), per=st.integers(1, 6), block=st.integers(1, 40),
       taper=st.sampled_from([0, 0, 1, 2, 3]))
def test_splits_read_exactly_what_the_single_process_reads(tmp_path_factory, lines, trailing, per, block, taper):
    path = tmp_path_factory.mktemp("s") / "a.jsonl"
    data = b"\n".join(lines) + (b"\n" if trailing and lines else b"")
    path.write_bytes(data)
    old = splits.BLOCK
    splits.BLOCK = block  # line ends fall on and across every block boundary
    try:
        got = list(plan(str(path), per, taper=taper))
    finally:
        splits.BLOCK = old
    # the byte ranges tile the file; without a taper every split but the last holds exactly
    # `per` lines, with one the sizes only shrink, never below the smallest
    assert b"".join(data[s.start:s.end] for s in got) == data
    sizes = [data[s.start:s.end].count(b"\n") for s in got[:-1]]
    if taper:
        assert sizes == sorted(sizes, reverse=True) and all(splits.smallest(per) <= n <= per for n in sizes)
    else:
        assert sizes == [per] * len(sizes)
    assert [s.first_line for s in got] == [1 + sum(sizes[:k]) for k in range(len(got))]
    assert [w for s in got for w in s.read()] == wires_of(path, str(path))


def test_the_last_splits_shrink_so_the_workers_finish_together(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"hand_id": "x"}\n' * 6000)
    sizes = [s.end - s.start for s in plan(str(path), 500, taper=2)]
    per_line = len(b'{"hand_id": "x"}\n')
    lines = [n // per_line for n in sizes]
    assert sum(lines) == 6000 and lines[:8] == [500] * 8
    # the tail: a quarter of what is left each time, down to a tenth of a split
    assert lines[8:] == sorted(lines[8:], reverse=True) and lines[-2] == 50 and lines[9] < 500
    assert [s.first_line for s in plan(str(path), 500)] == [1 + 500 * k for k in range(12)]


def test_ledger_splits_shrink_at_the_end_too(ledger_db):
    got = list(plan(str(ledger_db), 3, taper=1))  # 7 records: 3, then half of the 4 left, ...
    assert [s.end - s.start + 1 for s in got] == [3, 2, 1, 1]
    assert [w for s in got for w in s.read()] == [w for s in plan(str(ledger_db), 3) for w in s.read()]


def test_a_line_that_is_not_utf8_costs_only_itself(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"a": 1}\n\xff\xfe\n{"b": 2}\n')
    assert read_all(path, 2) == [(f"{path}:1", '{"a": 1}', None), (f"{path}:2", None, "not UTF-8 text"),
                                 (f"{path}:3", '{"b": 2}', None)]


def test_the_report_names_records_by_what_the_user_typed(tmp_path, monkeypatch):
    (tmp_path / "a.jsonl").write_text('{"a": 1}\n\n{"b": 2}\n')
    monkeypatch.chdir(tmp_path)
    (split,) = plan("a.jsonl", 10)
    assert split.name == "a.jsonl" and os.path.isabs(split.path)
    assert [w for w, _, _ in split.read()] == ["a.jsonl:1", "a.jsonl:3"]


def test_text_streams_still_work_for_iter_jsonl():
    items = list(iter_jsonl(io.StringIO('{"a": 1}\n\n[1]\n'), "<s>"))
    assert [(i.where, i.data) for i in items] == [("<s>:1", {"a": 1}), ("<s>:3", [1])]


@pytest.fixture(scope="module")
def ledger_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "ledger.db"
    ledger = Ledger(str(db), create=True)
    ledger.new_operator("demo-operator")
    simulate_table(ledger, preset="kitti", players=3, hands=7, seed="splits", table_id="ks")
    ledger.close()
    return db


def test_ledger_splits_are_row_id_ranges_read_read_only(ledger_db):
    got = list(plan(str(ledger_db), 3))
    assert [s.kind for s in got] == ["db"] * 3
    ledger = Ledger(str(ledger_db))
    try:
        published = [(f"{ledger_db}#{h}", text, None) for h, text in iter_published(ledger)]
    finally:
        ledger.close()
    assert [w for s in got for w in s.read()] == published
    assert [len(s.read()) for s in got] == [3, 3, 1]


def test_a_database_that_is_not_a_ledger_is_a_clear_error(tmp_path):
    import sqlite3

    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(MalformedError, match="not a readable Tiplu ledger"):
        list(plan(str(other), 3))


def test_what_can_be_split(tmp_path, ledger_db):
    (tmp_path / "r.json").write_text("{}")
    (tmp_path / "a.jsonl").write_text("{}\n")
    assert splittable(str(tmp_path / "a.jsonl")) and splittable(str(ledger_db))
    assert not any(splittable(s) for s in ("-", "https://op.example/api", str(tmp_path / "r.json"),
                                           str(tmp_path / "missing.jsonl")))
    # a record file is shipped; an archive is split unless told otherwise
    assert all(not isinstance(p.items, Split) for p in plan_partitions(str(tmp_path / "r.json"), 2))
    assert all(isinstance(p.items, Split) for p in plan_partitions(str(ledger_db), 2))
    assert all(not isinstance(p.items, Split) for p in plan_partitions(str(ledger_db), 2, read_in_workers=False))


def test_read_in_workers_and_shipped_records_give_the_same_report(ledger_db):
    single = audit_source(str(ledger_db)).to_json()
    assert single["total"] == 7 and single["failed"] == 0  # no log given: judged alone, so "unproven"
    for read_in_workers in (True, False):
        rep = audit_parallel(str(ledger_db), workers=2, chunk_size=2, read_in_workers=read_in_workers)
        assert rep.to_json() == single


def die_on_second_split(items, terms=None, **kwargs):
    if isinstance(items, Split) and items.start != 1:
        os._exit(3)
    return audit_partition(items, terms, **kwargs)


def test_a_split_whose_worker_dies_costs_only_its_records(ledger_db):
    parts = list(plan_partitions(str(ledger_db), 4))
    report = audit_partitions_local(iter(parts), workers=2, task=die_on_second_split).to_json()
    lost = {w for w, _, _ in parts[1].items.read()}
    crashed = {f["where"] for f in report["failures"] if f["reason"] == "internal_error"}
    assert crashed == lost and len(lost) == 3 and report["total"] == 7


def test_partitions_of_splits_are_small_on_the_wire(ledger_db):
    import pickle

    part = next(plan_partitions(str(ledger_db), 500))
    assert isinstance(part, Partition) and len(pickle.dumps(part.items)) < 1000


def test_cli_reads_in_workers_or_ships_records_with_one_report(ledger_db):
    from click.testing import CliRunner

    from audit.cli import main

    runner = CliRunner()
    runs = [runner.invoke(main, ["audit", str(ledger_db), "--json", "--no-progress", *extra])
            for extra in ([], ["--workers", "2"], ["--workers", "2", "--ship-records"], ["--workers", "2", "--read-in-workers"])]
    assert {r.exit_code for r in runs} == {0}
    assert len({r.output for r in runs}) == 1 and '"total": 7' in runs[0].output
