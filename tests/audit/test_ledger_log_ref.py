"""A ledger's log view by name (`LedgerLogRef`) opens one SQLite connection per process and
thread: a parallel audit's parent opens it while warming up, then forks its workers, and a
Dask worker runs its tasks on threads of its own.  Before, the child reused the parent's
cached connection and every record of a `--dask local:2` ledger audit failed with the
auditor's internal error (sqlite3.ProgrammingError)."""
from __future__ import annotations

import os
import threading

import pytest

from audit.operator.ledger import Ledger
from audit.auditor.evidence.ledger_log import LedgerLog, LedgerLogRef
from audit.operator.sim.archive import simulate_archive


@pytest.fixture(scope="module")
def ref(tmp_path_factory):
    path = tmp_path_factory.mktemp("logref") / "ledger.db"
    with Ledger(str(path), create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 1)], seed="logref")
        size = LedgerLog(ledger.db).size()
    return LedgerLogRef(str(path), size)


def test_a_thread_gets_its_own_view_that_reads_the_same_log(ref):
    here = ref.open()
    assert ref.open() is here  # cached within a thread
    got: dict = {}

    def read():
        try:
            view = ref.open()
            got["same"] = view is here
            got["leaf"] = view.leaf_hash(0)
        except Exception as exc:  # noqa: BLE001 - the test reports what a worker thread would hit
            got["error"] = repr(exc)

    t = threading.Thread(target=read)
    t.start()
    t.join()
    assert "error" not in got, got.get("error")
    assert got["same"] is False
    assert got["leaf"] == here.leaf_hash(0) is not None


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_a_forked_child_opens_its_own_view(ref):
    parent_view = ref.open()
    leaf = parent_view.leaf_hash(0)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a fresh view that reads the same leaf
        try:
            view = ref.open()
            ok = view is not parent_view and view.leaf_hash(0) == leaf
            os.write(w, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(w)
    answer = os.read(r, 1)
    os.close(r)
    os.waitpid(pid, 0)
    assert answer == b"1"
