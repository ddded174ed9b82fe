"""Issue 29 items 6 and 8: what the audit is given.

* item 6 -- a torn ledger copy (the file and its -wal copied apart) that SQLite calls
  malformed is refused in one line, and an empty input is not a pass: "nothing audited" is
  exit 1, never "0 records audited, 0 failed" and exit 0;
* item 8 -- read-only commands leave no -wal/-shm beside a ledger (or beside a foreign file
  they refuse); a FIFO or a device is refused without being opened (no hang); no read is
  unbounded (/dev/zero on standard input is one line, not a MemoryError).
"""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def tiplu(*args, cwd, stdin=None, timeout=120):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TIPLU_DB", None)
    return subprocess.run([sys.executable, "-m", "audit.cli", *map(str, args)], cwd=cwd, env=env, stdin=stdin,
                          capture_output=True, text=True, timeout=timeout)


def one_line_error(res, *words):
    assert res.returncode == 1, (res.returncode, res.stdout[-500:], res.stderr[-500:])
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tiplu: error:"), res.stderr
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr
    for w in words:
        assert w in lines[0], lines[0]


def sidecars(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(("-wal", "-shm")))


@pytest.fixture(scope="module")
def ledger_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("ledger")
    res = tiplu("simulate", "--preset", "kitti", "--hands", "3", "--db", "led.db", "--out", "hands.jsonl", cwd=d)
    assert res.returncode == 0, res.stderr
    assert sidecars(d) == []
    return d


@pytest.mark.parametrize("args", [
    ["audit", "led.db"], ["audit", "led.db", "--workers", "2"], ["audit", "led.db", "--json"],
    ["stats", "led.db"], ["hand", "list", "--db", "led.db"],
], ids=lambda a: " ".join(a))
def test_read_only_commands_leave_no_wal_or_shm(ledger_dir, args):
    res = tiplu(*args, cwd=ledger_dir)
    assert res.returncode == 0, res.stderr
    assert sidecars(ledger_dir) == []


def test_a_refused_foreign_database_gets_no_wal_or_shm(tmp_path):
    conn = sqlite3.connect(tmp_path / "other.db")
    conn.execute("PRAGMA journal_mode=wal")
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    assert sidecars(tmp_path) == []
    for args in (["audit", "other.db"], ["stats", "other.db"], ["hand", "list", "--db", "other.db"]):
        one_line_error(tiplu(*args, cwd=tmp_path), "not a Tiplu ledger")
        assert sidecars(tmp_path) == [], args


@pytest.mark.parametrize("args", [["audit", "pipe.jsonl"], ["stats", "pipe.jsonl"], ["replay", "pipe.json"],
                                  ["eval", "kitti", "pipe.jsonl"], ["audit", "pipe.json"]],
                         ids=lambda a: " ".join(a))
def test_a_fifo_is_refused_without_blocking(tmp_path, args):
    os.mkfifo(tmp_path / args[-1])
    one_line_error(tiplu(*args, cwd=tmp_path, timeout=60), "FIFO")


@pytest.mark.parametrize("args", [["audit", "/dev/zero"], ["replay", "/dev/zero"], ["eval", "kitti", "/dev/zero"],
                                  ["stats", "/dev/zero"]], ids=lambda a: " ".join(a))
def test_a_device_is_refused(tmp_path, args):
    one_line_error(tiplu(*args, cwd=tmp_path, timeout=60), "device")


@pytest.mark.parametrize("args,words", [(["replay", "-"], ["larger than 32 MiB"]),
                                        (["eval", "kitti"], ["longer than 32 MiB"])], ids=["replay", "eval"])
def test_endless_input_on_stdin_is_bounded(tmp_path, args, words):
    with open("/dev/zero", "rb") as zero:
        one_line_error(tiplu(*args, cwd=tmp_path, stdin=zero, timeout=120), *words)


def test_an_endless_line_is_one_failed_line(tmp_path):
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.Popen([sys.executable, "-m", "audit.cli", "audit", "-", "--no-progress"], cwd=tmp_path,
                                env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        chunk = zero.read(1 << 20)
        for _ in range(40):  # 40 MiB without a newline, then the end
            proc.stdin.write(chunk)
        proc.stdin.close()
        out = proc.stdout.read().decode()
        proc.wait(timeout=120)
    assert proc.returncode == 1 and "longer than 32 MiB" in out and "1 records audited, 1 failed" in out


@pytest.mark.parametrize("content", ["", "\n\n"], ids=["empty", "blank"])
def test_nothing_audited_is_not_a_pass(tmp_path, content):
    (tmp_path / "none.jsonl").write_text(content)
    res = tiplu("audit", "none.jsonl", cwd=tmp_path)
    assert res.returncode == 1
    assert "nothing audited is not a pass" in res.stdout and "0 failed" not in res.stdout
    res = tiplu("audit", "none.jsonl", "--json", cwd=tmp_path)
    report = json.loads(res.stdout)
    assert res.returncode == 1 and report["ok"] is False and report["nothing_audited"] is True


def test_all_malformed_input_fails(tmp_path):
    (tmp_path / "junk.jsonl").write_text("junk\n{\"a\": 1}\n")
    res = tiplu("audit", "junk.jsonl", cwd=tmp_path)
    assert res.returncode == 1 and "2 records audited, 2 failed" in res.stdout


def _torn_copy(tmp_path: Path) -> Path:
    """A ledger copied while written: the database file taken at one moment, its -wal at a
    later one, after a checkpoint moved the earlier frames into the database (which the copy
    of the file does not have)."""
    from audit.operator.ledger import Ledger
    from audit.operator.sim.tables import simulate_table

    live = tmp_path / "live"
    live.mkdir()
    ledger = Ledger(str(live / "tiplu.db"), create=True)
    ledger.new_operator("demo-operator")
    ledger.db.execute("PRAGMA wal_autocheckpoint = 0")
    simulate_table(ledger, preset="kitti", players=4, hands=4, seed="torn", table_id="t1")
    torn = tmp_path / "torn"
    torn.mkdir()
    shutil.copy(live / "tiplu.db", torn / "tiplu.db")  # the file, without the frames in the -wal
    ledger.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    simulate_table(ledger, preset="kitti", players=4, hands=4, seed="torn", table_id="t2")
    shutil.copy(live / "tiplu.db-wal", torn / "tiplu.db-wal")  # 50 ms later: a -wal of another history
    ledger.close()
    return torn


def test_a_torn_ledger_copy_is_refused_not_a_clean_audit(tmp_path):
    torn = _torn_copy(tmp_path)
    probe = tmp_path / "probe"  # the precondition, on a copy of the copy: SQLite calls it damaged
    shutil.copytree(torn, probe)
    try:
        rows = sqlite3.connect(probe / "tiplu.db").execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as exc:
        rows = [(str(exc),)]
    assert rows != [("ok",)]
    before = {p.name: p.read_bytes() for p in torn.iterdir()}
    for args in (["audit", "tiplu.db"], ["audit", "tiplu.db", "--json"], ["audit", "tiplu.db", "--workers", "2"]):
        res = tiplu(*args, cwd=torn)
        assert "0 records audited, 0 failed" not in res.stdout
        one_line_error(res, "damaged", "nothing audited")
    assert {p.name: p.read_bytes() for p in torn.iterdir() if p.name in before} == before  # never written
