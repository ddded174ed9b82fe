"""Crash safety: writers killed with SIGKILL at random points lose nothing they acknowledged.

200 short-lived writer processes (four at a time, all on one SQLite file in WAL mode)
drive hand lifecycles and report each statement once its call returned; each is killed at
a random moment (often mid-transaction, sometimes while it opens the file).  Afterwards
(:func:`bench.crashkit.check_after_crashes`): ``integrity_check`` passes, every
acknowledged statement is stored with its signature, every signed checkpoint is a prefix of
the final transparency log, and a freshly opened ledger finishes every half-done hand.
The full-size run is ``python bench/crash.py``.
"""
from __future__ import annotations

import os
import sqlite3
import sys

import pytest

from bench import crashkit

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "win32", reason="needs fork and SIGKILL")


@pytest.mark.slow
def test_two_hundred_sigkills_lose_no_acknowledged_statement(tmp_path):
    path = str(tmp_path / "crash.db")
    crashkit.setup(path)
    storm = crashkit.kill_storm(path, kills=200, concurrency=4, max_delay=0.1, seed=20261130)
    assert storm.kills == 200 and storm.writers >= 200
    assert len(storm.acks) > 200 and storm.checkpoints  # the writers did real work between kills
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    checked = crashkit.check_after_crashes(path, storm)
    assert checked.acked == len(storm.acks) <= checked.statements
    assert checked.finished_after_restart > 0  # some hands were left half-way and were finished


def test_the_checker_notices_a_lost_statement(tmp_path):
    """The check can fail: an acknowledgement with no stored statement is reported lost."""
    path = str(tmp_path / "crash.db")
    crashkit.setup(path)
    storm = crashkit.kill_storm(path, kills=3, concurrency=2, max_delay=0.2, seed=1)
    storm.acks.append({"hand": "ghost", "kind": "commitment", "sig": "00" * 64})
    with pytest.raises(AssertionError, match="lost"):
        crashkit.check_after_crashes(path, storm)


def test_the_checker_notices_a_checkpoint_the_log_contradicts(tmp_path):
    """A signed checkpoint whose root is not a prefix of the final log is caught."""
    from audit.errors import ProofError
    from audit.tlog.checkpoint import sign_checkpoint
    from audit.tlog.store import TransparencyLog

    path = str(tmp_path / "crash.db")
    crashkit.setup(path)
    storm = crashkit.kill_storm(path, kills=3, concurrency=2, max_delay=0.2, seed=2)
    forged = sign_checkpoint(crashkit.LOG_KEY, origin=crashkit.ORIGIN, size=1, root=b"\x07" * 32)
    with crashkit.Ledger(path, keys=[crashkit.KEY]) as ledger:  # a stored checkpoint the log contradicts
        TransparencyLog(ledger.db).record_checkpoint(forged.size, forged.root, "2026-11-30T00:00:00Z", forged.text)
    with pytest.raises(ProofError):
        crashkit.check_after_crashes(path, storm)
