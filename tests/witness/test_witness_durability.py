"""A witness that lost its database never cosigns a rival tree (issue #26, Build 5).

The attack is performed: a served witness cosigns a log, is SIGKILLed, its database is
deleted and it is started again.  It refuses to start (one line saying why) instead of
starting again at size 0; after an explicit ``tiplu witness reinit`` it goes on from what
its key cosigned, refusing the rival branch and cosigning the true extension.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import requests

from audit.tlog.witness import Witness, WitnessedLog, load_logs_file
from audit.tlog.witness_marker import WitnessStateError, read_marker

from .witness_server import ROOT, WitnessServer, write_key
from .witnesskit import WITNESS_KEY, WITNESS_NAME, FakeLog, log_vkey

ORIGIN = "tiplu.test/durable"


def tiplu(*args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    for k in [k for k in env if k.startswith("TIPLU_WITNESS")]:
        del env[k]
    return subprocess.run([sys.executable, "-m", "web.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def delete_db(db) -> None:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(str(db) + suffix):
            os.remove(str(db) + suffix)


def post(url: str, body: bytes) -> requests.Response:
    return requests.post(url + "/add-checkpoint", data=body, timeout=10)


def test_sigkilled_witness_without_its_database_refuses_then_reinit_goes_on(tmp_path):
    server = WitnessServer(tmp_path, WITNESS_KEY, WITNESS_NAME, {ORIGIN: str(log_vkey(ORIGIN))}, workers=1).start()
    honest = FakeLog(ORIGIN)
    honest.grow(4)
    try:
        assert post(server.url, honest.request(0)).status_code == 200
        honest.grow(2)
        assert post(server.url, honest.request(4)).status_code == 200
    finally:
        server.kill()  # SIGKILL, no shutdown
    marker = str(server.key_file) + ".state"
    assert read_marker(marker)["logs"][ORIGIN]["size"] == 6
    delete_db(server.db)

    # restarted without its state: gunicorn's worker refuses to boot, so the witness never serves
    with pytest.raises(RuntimeError, match="gunicorn exited"):
        server.start(timeout=20)
    assert "refusing to start" in (tmp_path / "gunicorn.log").read_text()
    delete_db(server.db)
    # the CLI says why in one line, exit 1, and serves nothing
    args = ("--name", WITNESS_NAME, "--key-file", str(server.key_file), "--db", str(server.db))
    out = tiplu("witness", "serve", *args, "--logs", str(server.logs_file), "--port", "1")
    assert out.returncode == 1 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1, out.stderr
    assert out.stderr.startswith("tiplu: error: refusing to start: this key has cosigned before")
    assert "tiplu witness reinit" in out.stderr

    # a person re-initialises, explicitly
    out = tiplu("witness", "reinit", *args)
    assert out.returncode == 0, out.stderr
    assert f"{ORIGIN} at size 6" in out.stdout
    out = tiplu("witness", "reinit", *args)  # only a lost state is re-initialised
    assert out.returncode == 1 and "holds a witness state already" in out.stderr

    server.start()
    try:
        rival = honest.fork("rival", at=3)
        rival.grow(3)  # size 6 too, another root
        r = post(server.url, rival.request(0))
        assert r.status_code == 409 and r.text == "6\n"  # not size 0 any more
        assert post(server.url, rival.request(6)).status_code == 422  # same size, another root
        rival.grow(2)
        bad = rival.request(6, 8)  # a rival size 8 with the rival's own proof from 6
        assert post(server.url, bad).status_code == 422
        honest.grow(2)
        ok = post(server.url, honest.request(6))
        assert ok.status_code == 200 and ok.text.startswith("\u2014 " + WITNESS_NAME)
    finally:
        server.stop()
    assert read_marker(marker)["logs"][ORIGIN]["size"] == 8


def test_a_database_behind_the_marker_is_refused(tmp_path):
    """An old copy of the database (restored from a backup) is behind what the key cosigned."""
    key_file = write_key(tmp_path / "w.key", WITNESS_KEY)
    marker = tmp_path / "w.key.state"
    logs = {ORIGIN: WitnessedLog(ORIGIN, (log_vkey(ORIGIN),))}
    log = FakeLog(ORIGIN)
    log.grow(2)
    w = Witness(tmp_path / "w.db", WITNESS_KEY, WITNESS_NAME, logs, marker=marker)
    w.add_checkpoint(log.request(0))
    w.close()
    backup = (tmp_path / "w.db").read_bytes()
    w = Witness(tmp_path / "w.db", WITNESS_KEY, WITNESS_NAME, logs, marker=marker)
    log.grow(3)
    w.add_checkpoint(log.request(2))
    w.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(str(tmp_path / "w.db") + suffix):
            os.remove(str(tmp_path / "w.db") + suffix)
    (tmp_path / "w.db").write_bytes(backup)
    with pytest.raises(WitnessStateError, match=r"behind what this key cosigned for 'tiplu.test/durable' \(size 2, marker 5\)"):
        Witness(tmp_path / "w.db", WITNESS_KEY, WITNESS_NAME, logs, marker=marker)
    assert key_file.exists()


def test_a_witness_from_before_markers_gets_one_from_its_database(tmp_path):
    logs = {ORIGIN: WitnessedLog(ORIGIN, (log_vkey(ORIGIN),))}
    log = FakeLog(ORIGIN)
    log.grow(3)
    w = Witness(tmp_path / "w.db", WITNESS_KEY, WITNESS_NAME, logs)  # no marker: library use, as before
    w.add_checkpoint(log.request(0))
    w.close()
    marker = tmp_path / "w.key.state"
    Witness(tmp_path / "w.db", WITNESS_KEY, WITNESS_NAME, logs, marker=marker).close()
    data = json.loads(marker.read_text())
    assert data["logs"] == {ORIGIN: {"size": 3, "root": log.tree.root(3).hex()}}
    assert data["vkey"] == str(Witness(tmp_path / "x.db", WITNESS_KEY, WITNESS_NAME, logs).vkey)


def test_another_keys_marker_is_refused(tmp_path):
    from audit.signing import SigningKey

    logs = {ORIGIN: WitnessedLog(ORIGIN, (log_vkey(ORIGIN),))}
    marker = tmp_path / "shared.state"
    Witness(tmp_path / "a.db", WITNESS_KEY, WITNESS_NAME, logs, marker=marker).close()
    with pytest.raises(WitnessStateError, match="give each witness key its own marker"):
        Witness(tmp_path / "b.db", SigningKey.from_hex("44" * 32), WITNESS_NAME, logs, marker=marker)


def test_settings_marker_defaults_beside_the_key(tmp_path):
    from web.witness import create_app

    key_file = write_key(tmp_path / "w.key", WITNESS_KEY)
    (tmp_path / "logs.txt").write_text(f"{ORIGIN} {log_vkey(ORIGIN)}\n")
    app = create_app({"TIPLU_WITNESS_NAME": WITNESS_NAME, "TIPLU_WITNESS_KEY_FILE": str(key_file),
                      "TIPLU_WITNESS_DB": str(tmp_path / "w.db"), "TIPLU_WITNESS_LOGS": str(tmp_path / "logs.txt")})
    assert app.config["TIPLU_WITNESS"].marker == str(key_file) + ".state"
    assert (tmp_path / "w.key.state").exists()
    assert load_logs_file(tmp_path / "logs.txt")
