"""The auditor's witness policy over a checkpoint text (audit/auditor/verdict/witnesscheck.py)."""
from __future__ import annotations

import pickle

import pytest

from audit.signing import SigningKey
from audit.tlog.cosignature import cosign, witness_vkey
from audit.tlog.note import parse_note
from audit.auditor.verdict.witnesscheck import WitnessPolicy, witness_faults
from replay.errors import MalformedError
from replay.faults import Reason

from .witnesskit import FakeLog

KEYS = [SigningKey.from_hex(f"{0x90 + i:02x}" * 32) for i in range(3)]
VKEYS = [str(witness_vkey(f"w{i}.test/a", k.public_hex)) for i, k in enumerate(KEYS)]


def cosigned(*which):
    log = FakeLog("tiplu.test/log")
    log.grow(3)
    text = log.checkpoint()
    body = parse_note(text).body
    return text + "".join(str(cosign(KEYS[i], f"w{i}.test/a", body, 1_800_000_000)) for i in which)


def test_the_quorum_is_met_or_it_is_a_witness_quorum_fault():
    policy = WitnessPolicy.of(VKEYS, 2)
    assert witness_faults(cosigned(0, 2), policy) == []
    [fault] = witness_faults(cosigned(1), policy)
    assert fault.reason is Reason.WITNESS_QUORUM and "1 of the required 2" in fault.message
    assert witness_faults(cosigned(), None) == [] and witness_faults(cosigned(), WitnessPolicy.of([], 0)) == []


def test_a_cosignature_of_another_checkpoint_does_not_count():
    other = cosigned(0, 1)
    text = cosigned()
    line = other.splitlines(keepends=True)[-1]
    assert witness_faults(text + line, WitnessPolicy.of(VKEYS[:2], 1)) == []  # w0's line is for the same body
    log = FakeLog("tiplu.test/log")
    log.grow(4)
    assert witness_faults(log.checkpoint() + line, WitnessPolicy.of(VKEYS[:2], 1))[0].reason is Reason.WITNESS_QUORUM


def test_policies_pickle_for_workers_and_refuse_impossible_quorums():
    policy = WitnessPolicy.of(VKEYS, None)
    assert policy.quorum == 3 and policy.vkeys[0].name == "w0.test/a"
    again = pickle.loads(pickle.dumps(policy))
    assert again == policy and witness_faults(cosigned(0, 1, 2), again) == []
    with pytest.raises(MalformedError, match=r"^a quorum of 2 needs at least 2 distinct witness keys \(got 1\)$"):
        WitnessPolicy.of(VKEYS[:1], 2)
    with pytest.raises(MalformedError, match=r"^the same witness key is given twice$"):
        WitnessPolicy.of([VKEYS[0], VKEYS[0]], 1)
