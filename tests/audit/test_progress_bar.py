"""Long audits show a real progress bar (position, percent, rate, ETA) on a terminal, and
nothing when stderr is not a terminal."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import pathlib

from audit.cli.progress import count_items

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _archive(tmp_path, kitti_archive, copies=60):
    recs = [r for r, _ in kitti_archive[2]]
    path = tmp_path / "a.jsonl"
    path.write_text("".join(json.dumps(recs[i % len(recs)]) + "\n" for i in range(copies)) + "\n\n")
    return path


def test_count_items_counts_records_cheaply(tmp_path, kitti_archive):
    path = _archive(tmp_path, kitti_archive)
    assert count_items(str(path)) == 60  # blank lines are not records
    assert count_items("-") is None and count_items("https://example.org/") is None


def _run(args, *, tty):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    if not tty:
        return subprocess.run([sys.executable, "-m", "audit.cli", *args], capture_output=True, text=True, env=env,
                              cwd=ROOT, timeout=300).stderr
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "audit.cli", *args], stdout=subprocess.DEVNULL, stderr=slave,
                            env=env, cwd=ROOT)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=300)
    os.close(master)
    return out.decode("utf-8", "replace")


def test_a_terminal_gets_a_bar_with_percent_and_rate(tmp_path, kitti_archive):
    path = _archive(tmp_path, kitti_archive)
    err = _run(["audit", str(path)], tty=True)
    assert "Auditing" in err and "100%" in err and "60/60" in err
    assert "records/s" in err


def test_no_bar_when_stderr_is_not_a_terminal(tmp_path, kitti_archive):
    path = _archive(tmp_path, kitti_archive)
    err = _run(["audit", str(path)], tty=False)
    assert "Auditing" not in err and "records/s" not in err


def test_a_bar_without_a_known_total_reads_stdin(tmp_path, kitti_archive):
    """Issue 29 item 1: ``cat kitti.jsonl | tiplu audit`` at a terminal crashed with
    ``TypeError: iterable or length is required`` (a progress bar with no length)."""
    path = _archive(tmp_path, kitti_archive, copies=5)
    import pty
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    with path.open("rb") as stdin:
        proc = subprocess.Popen([sys.executable, "-m", "audit.cli", "audit"], stdin=stdin,
                                stdout=subprocess.PIPE, stderr=slave, env=env, cwd=ROOT)
        os.close(slave)
        err = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
        out = proc.communicate(timeout=300)[0].decode()
    os.close(master)
    text = err.decode("utf-8", "replace")
    assert "internal error" not in text and "Traceback" not in text
    assert "Auditing" in text and "records/s" in text
    assert "5 records audited, 0 failed" in out  # (the copies repeat hand numbers: a table fault, exit 1)
