"""The inclusion memo shared by records under one checkpoint never changes a verdict: a
proof whose upper path was changed is still not in the log after honest records warmed
the memo with that very tree's nodes (attacks performed, rule IDs as in audit.auditor.evidence.logcheck)."""
from __future__ import annotations

import copy

import pytest

from audit.auditor.evidence import logcheck
from audit.operator.ledger import Ledger
from audit.operator.publish import published_record
from audit.operator.sim.tables import simulate_table
from audit.tlog.proof import format_tlog_proof, parse_tlog_proof
from audit.auditor.verdict.verify import audit_record
from replay.faults import Reason


@pytest.fixture(scope="module")
def batch():
    """Four Kitti hands published again once the table is done: all under one checkpoint."""
    ledger = Ledger(":memory:")
    ledger.new_operator("demo-operator")
    out: list[dict] = []
    simulate_table(ledger, preset="kitti", players=3, hands=4, seed="memo", table_id="m1",
                   on_record=lambda r, k: out.append(r))
    records = [published_record(ledger, r["hand_id"]) for r in out]
    assert len({parse_tlog_proof(r["fairness"]["log_proofs"][0]).checkpoint_text for r in records}) == 1
    return records


def _changed(record: dict, k: int, level: int) -> dict:
    """``record`` with proof ``k``'s path element ``level`` (from the top) flipped."""
    bad = copy.deepcopy(record)
    proof = parse_tlog_proof(bad["fairness"]["log_proofs"][k])
    path = list(proof.path)
    j = max(0, len(path) - 1 - level)
    path[j] = bytes([path[j][0] ^ 1]) + path[j][1:]
    bad["fairness"]["log_proofs"][k] = format_tlog_proof(proof.index, path, proof.checkpoint_text)
    return bad


@pytest.mark.parametrize("level", [0, 1, 2])
def test_a_changed_upper_path_is_not_in_the_log_with_a_warm_memo(batch, level):
    logcheck._memo = (None, {})
    for record in batch:  # the honest records fill the memo with the shared tree's nodes
        assert audit_record(record).ok
    assert len(logcheck._memo[1]) > 0
    n = len(batch[-1]["fairness"]["log_proofs"])
    for k in (0, n // 2, n - 1):
        verdict = audit_record(_changed(batch[-1], k, level))
        assert Reason.NOT_IN_LOG in verdict.reasons, verdict.faults
        assert any(f.statement == k + 1 for f in verdict.faults if f.reason is Reason.NOT_IN_LOG)


def test_verdicts_are_the_same_with_and_without_the_memo(batch):
    """Every record and every one-element change of its proofs: the same verdict, memo
    warm (records in one run) or cold (the memo dropped before each audit)."""
    cases = [r for r in batch] + [_changed(r, k, level) for r in batch[:2] for k in (0, 5, 10) for level in (0, 2)]
    logcheck._memo = (None, {})
    warm = [audit_record(r).to_json() for r in cases]
    cold = []
    for r in cases:
        logcheck._memo = (None, {})
        cold.append(audit_record(r).to_json())
    assert warm == cold
