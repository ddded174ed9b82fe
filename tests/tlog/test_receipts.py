"""A player's seat receipt carries the inclusion proof of their statement at a signed checkpoint."""
from __future__ import annotations

import copy

import pytest

from audit.ledger import Ledger
from audit.receipts import receipt, verify_receipt
from audit.signing import SigningKey
from replay.errors import TipluError
from replay.fairness import commit_player_seed


@pytest.fixture
def ledger_with_receipts():
    key = SigningKey.from_hex("22" * 32)
    ledger = Ledger(":memory:")
    ledger.new_operator("op", key=key)
    ledger.new_table("t", operator="op", preset="kitti", seats=3)
    ledger.new_hand("t", ["a", "b", "c"], hand_id="h1")
    ledger.commit("h1")
    receipts = [receipt(ledger, ledger.seed_commit("h1", s, commit_player_seed("h1", s, bytes([s]) * 16)), key=key)
                for s in range(3)]
    return key, ledger, receipts


def test_every_receipt_verifies_with_the_public_key_alone(ledger_with_receipts):
    # rule R-21: every player supplies a seed; their receipt proves the operator logged it
    key, ledger, receipts = ledger_with_receipts
    for seat, rec in enumerate(receipts):
        st = verify_receipt(rec, key.public_hex)
        assert st["kind"] == "seat-receipt" and st["seat"] == seat


@pytest.mark.parametrize("field", ["signed", "checkpoint", "inclusion_proof", "log_index"])
def test_a_receipt_with_any_part_changed_fails(ledger_with_receipts, field):
    key, ledger, receipts = ledger_with_receipts
    bad = copy.deepcopy(receipts[1])
    if field == "signed":
        bad["statement"]["seat"] = 2
    elif field == "checkpoint":
        bad["checkpoint"] = bad["checkpoint"].replace("\n3\n", "\n4\n") if "\n3\n" in bad["checkpoint"] else bad["checkpoint"][:-5] + "AAAA\n"
    elif field == "inclusion_proof":
        bad["inclusion_proof"][0] = "00" * 32
    else:
        bad["log_index"] += 1
    with pytest.raises(TipluError):
        verify_receipt(bad, key.public_hex)


def test_another_operators_key_fails(ledger_with_receipts):
    _, _, receipts = ledger_with_receipts
    with pytest.raises(TipluError):
        verify_receipt(receipts[0], SigningKey.generate().public_hex)
