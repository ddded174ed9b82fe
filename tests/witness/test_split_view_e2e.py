"""Split view, end to end: an operator that forks its log (two different trees of the same
size, signed with its one key) gets the second branch refused by the witness, and a monitor
that requires that witness rejects the forked branch.  The operator's two sites, the witness
and the auditor are separate processes talking HTTP on 127.0.0.1 only."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest
import requests

from audit.signing import SigningKey
from audit.tlog.cosignature import check_quorum, witness_vkey
from audit.tlog.note import TYPE_ED25519, Vkey
from tests.tlog.conftest import OPERATOR, make_log, statement

from .witness_server import ROOT, SiteServer, WitnessServer, write_key

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("gunicorn") is None, reason="needs gunicorn")]
ORIGIN = "tiplu.test/forked"
WITNESS = SigningKey.from_hex("71" * 32)
VKEY = witness_vkey("witness.test/e2e", WITNESS.public_hex)


def monitor(url: str, state, *extra) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ROOT}
    return subprocess.run([sys.executable, "-m", "audit.cli", "monitor", url, "--state", str(state), "--public-key",
                           OPERATOR.public_hex, "--once", "--audit-hook", "none", *extra],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_a_forked_log_is_refused_by_the_witness_and_by_an_auditor_requiring_it(tmp_path):
    log_vkey = Vkey.for_key(ORIGIN, TYPE_ED25519, bytes.fromhex(OPERATOR.public_hex))
    (tmp_path / "w").mkdir()
    witness = WitnessServer(tmp_path / "w", WITNESS, VKEY.name, {ORIGIN: str(log_vkey)}).start()
    key_file = write_key(tmp_path / "log.key", OPERATOR)
    common = [statement(i) for i in range(5)]
    branch_a = make_log(tmp_path / "a.db", common + [statement(i, note="shown to everyone") for i in range(5, 9)])
    branch_b = make_log(tmp_path / "b.db", common + [statement(i, note="shown to a newcomer") for i in range(5, 9)])
    sites = [SiteServer(tmp_path, db, log_key_file=key_file, origin=ORIGIN, witnesses=f"{witness.url} {VKEY}").start()
             for db in (branch_a, branch_b)]
    try:
        a = requests.get(sites[0].url + "/api/v1/log/checkpoint", timeout=10).json()
        b = requests.get(sites[1].url + "/api/v1/log/checkpoint", timeout=10).json()
        assert a["size"] == b["size"] == 9 and a["root"] != b["root"]  # two trees of one size, one key
        assert a["witnesses_missing"] == [] and check_quorum(a["checkpoint"], [VKEY], 1)
        assert b["witnesses_missing"] == ["witness.test/e2e"]
        assert b["witnesses"][0]["reason"].startswith("HTTP 422")  # 409 "9", then old 9: same size, another root
        assert "witness.test/e2e" not in b["checkpoint"]
        evidence = requests.get(witness.url + "/", timeout=5).json()
        assert evidence["logs"] == [ORIGIN]

        ok = monitor(sites[0].url, tmp_path / "a.json", "--witness", str(VKEY))
        assert ok.returncode == 0, ok.stderr
        bad = monitor(sites[1].url, tmp_path / "b.json", "--witness", str(VKEY))
        assert bad.returncode == 1
        assert "tiplu monitor: WITNESS_QUORUM: checkpoint of size 9 lacks the quorum of --witness" in bad.stderr
        plain = monitor(sites[1].url, tmp_path / "c.json")  # without the witness the fork is invisible
        assert plain.returncode == 0, plain.stderr
    finally:
        for s in sites:
            s.stop()
        witness.stop()
    listing = subprocess.run([sys.executable, "-m", "audit.cli", "witness", "evidence", "--db", str(witness.db)],
                             cwd=ROOT, env={**os.environ, "PYTHONPATH": ROOT}, capture_output=True, text=True)
    assert listing.returncode == 0 and f"{ORIGIN}: size 9 root {b['root']} refused" in listing.stdout
