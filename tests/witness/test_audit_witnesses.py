"""tiplu audit --witness VKEY --quorum K: a record whose log checkpoint lacks the quorum fails
with witness_quorum (records carry their checkpoint in fairness.log_proofs, tiplu.hand/2)."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from audit.cli import main
from audit.auditor.run.runner import audit_one
from audit.signing import SigningKey
from audit.tlog.cosignature import cosign, witness_vkey
from audit.tlog.note import parse_note
from audit.auditor.verdict.witnesscheck import WitnessPolicy, record_witness_faults
from replay.faults import Reason

from .witnesskit import FakeLog

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "fixtures/records/kitti/golden-0.json"
W = [SigningKey.from_hex(f"{0xb0 + i:02x}" * 32) for i in range(2)]
V = [str(witness_vkey(f"w{i}.test/audit", k.public_hex)) for i, k in enumerate(W)]


def proofs(*cosigners):
    log = FakeLog("tiplu.test/log")
    log.grow(4)
    text = log.checkpoint()
    body = parse_note(text).body
    text += "".join(str(cosign(W[i], f"w{i}.test/audit", body, 1_800_000_000)) for i in cosigners)
    return [f"c2sp.org/tlog-proof@v1\nindex {i}\n\n{text}" for i in range(2)]


def test_a_record_is_judged_by_its_checkpoints_cosignatures():
    policy = WitnessPolicy.of(V, 2)
    assert record_witness_faults({"fairness": {"log_proofs": proofs(0, 1)}}, policy) == []
    [fault] = record_witness_faults({"fairness": {"log_proofs": proofs(1)}}, policy)
    assert fault.reason is Reason.WITNESS_QUORUM and "w0.test/audit: missing" in fault.message
    assert record_witness_faults(json.dumps({"fairness": {"log_proofs": proofs(0, 1)}}), policy) == []
    [fault] = record_witness_faults({"fairness": {}}, policy)
    assert "carries no log checkpoint" in fault.message
    assert record_witness_faults({"fairness": {}}, None) == []


def test_audit_one_adds_the_fault_to_the_verdict():
    data = json.loads(GOLDEN.read_text())
    plain = audit_one(data)
    judged = audit_one(data, witnesses=WitnessPolicy.of(V[:1], 1))
    assert Reason.WITNESS_QUORUM not in plain.reasons and Reason.WITNESS_QUORUM in judged.reasons
    assert not judged.ok


def test_the_cli_requires_the_quorum_and_names_the_policy():
    r = CliRunner().invoke(main, ["audit", str(GOLDEN), "--witness", V[0], "--json"])
    assert r.exit_code == 1
    data = json.loads(r.output)
    assert data["policy"]["witnesses"] == {V[0].split("+")[0]: V[0]} and data["policy"]["quorum"] == "cli-witnesses"
    assert data["policy"]["groups"] == {"cli-witnesses": {"threshold": 1, "members": [V[0].split("+")[0]]}}
    assert data["failures"][0]["reason"] == "witness_quorum"
    r = CliRunner().invoke(main, ["audit", str(GOLDEN), "--witness", V[0], "--quorum", "2"])
    assert r.exit_code == 2 and "a quorum of 2 needs at least 2 witness keys" in r.output


def test_parallel_workers_apply_the_same_policy(tmp_path):
    lines = [json.dumps(json.loads((ROOT / "fixtures/records/kitti" / f"golden-{i}.json").read_text()))
             for i in range(2)]
    src = tmp_path / "records.jsonl"
    src.write_text("\n".join(lines * 3) + "\n")
    one = CliRunner().invoke(main, ["audit", str(src), "--witness", V[0], "--json"])
    many = CliRunner().invoke(main, ["audit", str(src), "--witness", V[0], "--json", "--workers", "2"])
    assert one.exit_code == many.exit_code == 1
    assert json.loads(one.output) == json.loads(many.output)
    assert {f["reason"] for f in json.loads(many.output)["failures"]} == {"witness_quorum"}
