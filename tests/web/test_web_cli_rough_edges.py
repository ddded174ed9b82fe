"""The CLI's rough edges of issue 29, item 18: ``tiplu demo`` on a busy port fails at once
(before building or auditing anything), and an audit stopped by Ctrl-C at a terminal leaves
the cursor shown (click's bar hides it while drawing)."""
from __future__ import annotations

import json
import os
import pty
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from web.cli import main

ROOT = Path(__file__).resolve().parents[2]
HIDE, SHOW = b"\x1b[?25l", b"\x1b[?25h"


def test_demo_on_a_busy_port_fails_before_building_or_auditing(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        res = CliRunner().invoke(main, ["demo", "--small", "--dir", str(tmp_path), "--port", str(port)])
    assert res.exit_code == 1, res.output
    assert f"127.0.0.1:{port}" in res.output and "--port" in res.output
    assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output
    assert "Auditing" not in res.output and "Building" not in res.output
    assert not (tmp_path / "tiplu.db").exists()  # nothing was built


def _records(kitti_records: list[dict], copies: int) -> str:
    return "".join(json.dumps(r) + "\n" for r in kitti_records) * copies


def test_ctrl_c_during_an_audit_at_a_terminal_shows_the_cursor_again(tmp_path, site):
    from audit.operator.publish import get_published
    from audit.operator.ledger import Ledger

    ledger = Ledger(site.db_path)
    try:
        recs = [get_published(ledger, r[0]) for r in ledger.db.execute("SELECT hand_id FROM published_records")]
    finally:
        ledger.close()
    src = tmp_path / "many.jsonl"
    src.write_text(_records(recs, 400))  # long enough to be stopped half way
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "web.cli", "audit", str(src), "--progress"], cwd=str(ROOT), env=env,
                            stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    out = b""
    deadline = time.monotonic() + 60
    interrupted = False
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        if not interrupted and HIDE in out and b"records/s" in out:
            os.kill(proc.pid, signal.SIGINT)  # what Ctrl-C sends
            interrupted = True
        if proc.poll() is not None and not ready:
            break
    proc.wait(10)
    os.close(master)
    assert interrupted, out[-500:]
    assert proc.returncode != 0  # it was stopped, not finished
    assert out.rfind(SHOW) > out.rfind(HIDE), out[-300:]


def test_the_demo_site_serves_its_statistics_on_the_first_visit(tmp_path):
    from web.cli import demo_site

    res = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    app = demo_site(tmp_path / "tiplu.db")
    app.config["TIPLU_STATS_WAIT"] = 0  # a first visit that would not wait at all
    client = app.test_client()
    page = client.get("/stats")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "being computed" not in html and "http-equiv=\"refresh\"" not in html
    assert client.get("/api/v1/stats").status_code == 200
