"""``tiplu monitor --witness VKEY --quorum K``: a checkpoint without the quorum is WITNESS_QUORUM."""
from __future__ import annotations

import flask
import pytest
from click.testing import CliRunner

from audit.cli import main
from audit.signing import SigningKey
from audit.tlog.checkpoint import CheckpointSigner
from audit.tlog.cosignature import witness_vkey
from audit.tlog.witness import Witness, WitnessedLog
from audit.tlog.witnessing import Witnessing, parse_witnesses
from tests.tlog.conftest import Clock, make_log, statement
from web import log_api
from web.witness import create_app as create_witness_app

from .witnesskit import LOG_KEY, Served, log_vkey

ORIGIN = "tiplu.test/log"
W1, W2 = SigningKey.from_hex("61" * 32), SigningKey.from_hex("62" * 32)
V1, V2 = witness_vkey("witness.test/m1", W1.public_hex), witness_vkey("witness.test/m2", W2.public_hex)


@pytest.fixture
def site(tmp_path):
    w = Witness(tmp_path / "w.db", W1, V1.name, {ORIGIN: WitnessedLog(ORIGIN, (log_vkey(ORIGIN),))})
    witness = Served(create_witness_app({"TIPLU_WITNESS": w}))
    app = flask.Flask("site")
    app.config.update(TIPLU_DB=str(make_log(tmp_path / "site.db", [statement(i) for i in range(4)])),
                      TIPLU_CHECKPOINT_SIGNER=CheckpointSigner(LOG_KEY, ORIGIN, Clock()),
                      TIPLU_WITNESSING=Witnessing(parse_witnesses(f"{witness.url} {V1}")))
    log_api.init_app(app)
    served = Served(app)
    yield served.url
    served.stop()
    witness.stop()


def monitor(url, state, *args):
    return CliRunner().invoke(main, ["monitor", url, "--state", str(state), "--public-key", LOG_KEY.public_hex,
                                     "--once", "--audit-hook", "none", *args])


def test_a_cosigned_checkpoint_meets_the_quorum(site, tmp_path):
    r = monitor(site, tmp_path / "m.json", "--witness", str(V1))
    assert r.exit_code == 0, r.output
    assert "cosigned by witness.test/m1" in r.output


def test_a_missing_witness_breaks_a_quorum_of_two(site, tmp_path):
    r = monitor(site, tmp_path / "m.json", "--witness", str(V1), "--witness", str(V2))  # default quorum: all
    assert r.exit_code == 1
    assert "tiplu monitor: WITNESS_QUORUM: checkpoint of size 4 lacks the quorum of --witness" in r.output
    assert "(all of (witness.test/m1, witness.test/m2)): witness.test/m2: missing" in r.output
    assert "witness.test/m2: missing" in r.output
    assert not (tmp_path / "m.json").exists()  # not accepted
    r = monitor(site, tmp_path / "m.json", "--witness", str(V1), "--witness", str(V2), "--quorum", "1")
    assert r.exit_code == 0, r.output


def test_an_impossible_quorum_is_a_one_line_error(site, tmp_path):
    r = monitor(site, tmp_path / "m.json", "--witness", str(V1), "--quorum", "2")
    # a bad value: exit 2, one line naming the option
    assert r.exit_code == 2 and "a quorum of 2 needs at least 2 witness keys" in r.output.strip().splitlines()[-1]
    r = monitor(site, tmp_path / "m.json", "--witness", "not-a-vkey")
    assert r.exit_code == 2 and "--witness" in r.output and len(r.output.strip().splitlines()) == 1


def test_revealed_hands_records_are_judged_by_the_witness_policy_too():
    # the policy goes to the audit itself, which judges the quorum on the record it parsed
    # (issue 31: no second reading of the raw record beside the audit's)
    import json

    from audit.auditor.verdict.verify import audit_record
    from audit.cli.monitor import records_need_witnesses
    from audit.tlog.policy import policy_of_witnesses
    from replay.faults import Reason
    from pathlib import Path

    policy = policy_of_witnesses([str(V1)], 1)
    seen = []
    records_need_witnesses(lambda record, **kw: seen.append(kw), policy)({"hand_id": "h1"})
    assert seen == [{"policy": policy}]
    root = Path(__file__).resolve().parents[2]
    record = json.loads((root / "fixtures" / "records" / "kitti" / "golden-0.json").read_text(encoding="utf-8"))
    verdict = records_need_witnesses(audit_record, policy)(record)  # its checkpoint has no cosignature
    assert not verdict.ok and [f.reason for f in verdict.faults] == [Reason.WITNESS_QUORUM]
    assert audit_record(record).ok  # without the policy: the same record passes
