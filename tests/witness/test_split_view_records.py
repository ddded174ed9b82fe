"""Split view with real hands, end to end: the operator's site publishes tiplu.hand/2 records
whose checkpoints its witness cosigns; a fork of its ledger (same operator key, other hands
after a common prefix) publishes records the witness refuses to cosign, and `tiplu audit URL
--witness` rejects exactly those with witness_quorum.  Operator sites, witness and auditor are
separate processes on 127.0.0.1."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from audit.operator.ledger import Ledger
from audit.signing import SigningKey
from audit.tlog.cosignature import witness_vkey
from audit.tlog.logs import operator_origin
from audit.tlog.note import TYPE_ED25519, Vkey
from audit.operator.sim.archive import OPERATOR, ensure_operator

from .witness_server import ROOT, SiteServer, WitnessServer, write_key

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("gunicorn") is None, reason="needs gunicorn")]
ORIGIN = "tiplu.local/log"
WITNESS = SigningKey.from_hex("75" * 32)
VKEY = witness_vkey("witness.test/records", WITNESS.public_hex)


def run(*args, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": ROOT, **(env or {})})


def audit(url: str, public_key: str, *extra) -> subprocess.CompletedProcess:
    return run("-m", "audit.cli", "audit", url, "--public-key", public_key, "--json", *extra)


def test_records_on_a_forked_branch_fail_an_audit_that_requires_the_witness(tmp_path):
    a_db, b_db = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    with Ledger(b_db, create=True) as ledger:  # the fork: the same operator key (the simulator derives it from seed "a")
        ensure_operator(ledger, seed="a")
        operator_key = ledger.public_key(OPERATOR)
        log_key = write_key(tmp_path / "operator.key", ledger.signing_key(OPERATOR))  # one key: operator and log
    origin = operator_origin(ORIGIN, OPERATOR)  # the operator's own log
    log_vkey = Vkey.for_key(origin, TYPE_ED25519, bytes.fromhex(operator_key))
    (tmp_path / "w").mkdir()
    witness = WitnessServer(tmp_path / "w", WITNESS, VKEY.name, {origin: str(log_vkey)}).start()
    env = {"TIPLU_WITNESSES": f"{witness.url} {VKEY}"}
    sites = []
    try:  # the operator's process publishes the history everyone sees, then a rival one
        for db, seed in ((a_db, "a"), (b_db, "b")):
            r = run("-m", "audit.cli", "simulate", "--db", db, "--preset", "kitti", "--players", "3",
                    "--hands", "3", "--seed", seed, env=env)
            assert r.returncode == 0, r.stderr
        sites = [SiteServer(tmp_path, db, log_key_file=log_key, origin=ORIGIN, witnesses="").start()
                 for db in (a_db, b_db)]
        ok = audit(sites[0].url, operator_key, "--witness", str(VKEY))
        bad = audit(sites[1].url, operator_key, "--witness", str(VKEY))
        plain = audit(sites[1].url, operator_key)
    finally:
        for s in sites:
            s.stop()
        witness.stop()
    with Ledger(a_db) as ledger:
        assert ledger.public_key(OPERATOR) == operator_key
    assert ok.returncode == 0, ok.stdout[-3000:] + ok.stderr
    report = json.loads(bad.stdout)
    assert bad.returncode == 1 and report["failed"] == report["total"] == 3
    assert {f["reason"] for f in report["failures"]} == {"witness_quorum"}
    assert "cosigned: none" in bad.stdout and "witness.test/records: missing" in bad.stdout
    assert plain.returncode == 0, plain.stdout[-3000:]  # without the witness the fork is invisible
    evidence = run("-m", "audit.cli", "witness", "evidence", "--db", str(witness.db), "--json")
    assert json.loads(evidence.stdout)  # the rival branch's signed checkpoint was kept
