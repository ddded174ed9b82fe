"""One witness key listed under two witness names counts once toward a quorum (issue #26, Build 5).

Performed: one witness key runs as two witnesses with two names (two real :class:`Witness`
instances, two databases); both cosign a record's real checkpoint.  A policy listing both
names and a quorum of 2 is not met by them alone -- in the monitor's check, the record check
and ``check_quorum`` -- and is met once a second, distinct key cosigns too; ``tiplu audit``
(whose witnesses are a C2SP tlog-policy) refuses one key under two names outright.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.cli import main
from audit.signing import SigningKey
from audit.tlog.cosignature import WitnessQuorumError, check_quorum, distinct_keys, witness_vkey
from audit.auditor.monitor.watch import PollResult, _check_witnesses
from audit.tlog.checkpoint import parse_checkpoint
from audit.tlog.note import TYPE_ED25519, Vkey, parse_vkey
from audit.tlog.witness import Witness, WitnessedLog
from audit.auditor.verdict.witnesscheck import WitnessPolicy, record_witness_faults
from replay.errors import MalformedError
from replay.faults import Reason

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "fixtures/records/kitti/golden-0.json"
K, L = SigningKey.from_hex("c1" * 32), SigningKey.from_hex("c2" * 32)
A, B, C = "w-alpha.test/x", "w-alias.test/x", "w-other.test/x"  # A and B: one key K under two names
VA, VB, VC = (str(witness_vkey(n, k.public_hex)) for n, k in ((A, K), (B, K), (C, L)))


def cosigned_record(tmp_path: Path, *witnesses: tuple[str, SigningKey]) -> dict:
    """The golden record with its checkpoint cosigned, over the protocol, by each (name, key)."""
    record = json.loads(GOLDEN.read_text())
    proofs = record["fairness"]["log_proofs"]
    head, checkpoint = proofs[0].split("\n\n", 1)
    origin = checkpoint.split("\n", 1)[0]
    log = WitnessedLog(origin, (Vkey.for_key(origin, TYPE_ED25519, bytes.fromhex(record["table"]["public_key"])),))
    lines = ""
    for i, (name, key) in enumerate(witnesses):
        w = Witness(tmp_path / f"w{i}.db", key, name, {origin: log}, clock=lambda: 1_800_000_000 + i)  # noqa: B023 - called within this iteration
        lines += w.add_checkpoint(("old 0\n\n" + checkpoint).encode())
        w.close()
    record["fairness"]["log_proofs"] = [p.split("\n\n", 1)[0] + "\n\n" + checkpoint + lines for p in proofs]
    return record


def audit(tmp_path: Path, record: dict, *args: str):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return CliRunner().invoke(main, ["audit", str(path), "--public-key", record["table"]["public_key"], "--json", *args])


def test_one_key_under_two_names_cosigning_twice_counts_once(tmp_path):
    record = cosigned_record(tmp_path, (A, K), (B, K))
    text = record["fairness"]["log_proofs"][0].split("\n\n", 1)[1]
    assert text.count("\u2014 ") == 3  # the log's line and two cosignature lines, both valid
    vkeys = [parse_vkey(v) for v in (VA, VB, VC)]
    assert distinct_keys(vkeys) == 2
    with pytest.raises(WitnessQuorumError, match=f"1 of the required 2 .*{A} and {B} are one key, counted once"):
        check_quorum(text, vkeys, 2)
    assert [r.ok for r in check_quorum(text, vkeys, 1)] == [True, True, False]

    # tiplu audit's witnesses are a C2SP tlog-policy (audit/tlog/policy.py), which refuses one key
    # under two names outright; with the key under one name, its two lines are one cosignature
    r = audit(tmp_path, record, "--witness", VA, "--witness", VB, "--witness", VC, "--quorum", "2")
    assert r.exit_code == 2 and "already listed" in r.output, r.output
    r = audit(tmp_path, record, "--witness", VA, "--witness", VC, "--quorum", "2")
    assert r.exit_code == 1, r.output
    [failure] = json.loads(r.output)["failures"]
    assert failure["reason"] == "witness_quorum"

    # the monitor counts the same way
    result = PollResult(None)
    _check_witnesses(parse_checkpoint(text), vkeys, 2, result)
    assert [p.kind for p in result.problems] == ["WITNESS_QUORUM"]


def test_a_second_distinct_key_meets_the_quorum(tmp_path):
    record = cosigned_record(tmp_path, (A, K), (B, K), (C, L))
    r = audit(tmp_path, record, "--witness", VA, "--witness", VC, "--quorum", "2")
    assert r.exit_code == 0, r.output
    text = record["fairness"]["log_proofs"][0].split("\n\n", 1)[1]
    result = PollResult(None)
    _check_witnesses(parse_checkpoint(text), [parse_vkey(v) for v in (VA, VB, VC)], 2, result)
    assert result.problems == []


def test_a_quorum_above_the_distinct_keys_is_refused():
    with pytest.raises(MalformedError, match="needs at least 2 distinct witness keys \\(got 1\\)"):
        WitnessPolicy.of([VA, VB], 2)
    policy = WitnessPolicy.of([VA, VB])  # "all of them" is every distinct key: one
    assert policy.quorum == 1 and "1 distinct keys" in policy.describe()
    r = CliRunner().invoke(main, ["audit", str(GOLDEN), "--witness", VA, "--witness", VB, "--quorum", "1"])
    assert r.exit_code == 2 and "already listed" in r.output  # the policy refuses one key under two names
    assert record_witness_faults(json.loads(GOLDEN.read_text()), WitnessPolicy.of([VA, VB], 1))[0].reason \
        is Reason.WITNESS_QUORUM
