"""The log evidence's per-record fast paths give the general paths' answers: a record's
proofs read as parts, its leaf entries written from the signed dicts themselves, and its
one checkpoint found without a set of texts (attacks performed on simulated records)."""
from __future__ import annotations

import copy

import pytest

from audit.auditor.evidence import logcheck
from audit.operator.ledger import Ledger
from audit.tlog.proof import format_tlog_proof, parse_tlog_proof, tlog_proof_parts
from audit.tlog.store import leaf_entry
from audit.operator.sim.tables import simulate_table
from audit.auditor.verdict.verify import audit_record
from replay.errors import MalformedError
from replay.faults import Reason


@pytest.fixture(scope="module")
def records():
    """Three Kitti hands as the simulator publishes them: each under its own checkpoint."""
    ledger = Ledger(":memory:")
    ledger.new_operator("demo-operator")
    out: list[dict] = []
    simulate_table(ledger, preset="kitti", players=3, hands=3, seed="fastlog", table_id="f1",
                   on_record=lambda r, k: out.append(r))
    return out


def _answer(fn, *args):
    try:
        return fn(*args)
    except MalformedError as exc:
        return f"MalformedError: {exc}"


def test_a_proof_carrying_another_valid_checkpoint_is_refused(records):
    """One proof of a record re-written under the next hand's (validly signed) checkpoint:
    the record's proofs no longer carry one checkpoint."""
    a, b = records[0], records[1]
    other = parse_tlog_proof(b["fairness"]["log_proofs"][0]).checkpoint_text
    assert audit_record(copy.deepcopy(a)).ok
    bad = copy.deepcopy(a)
    p = parse_tlog_proof(bad["fairness"]["log_proofs"][2])
    assert p.checkpoint_text != other
    bad["fairness"]["log_proofs"][2] = format_tlog_proof(p.index, p.path, other)
    logcheck._checkpoints.clear()
    v = audit_record(bad)
    assert Reason.BAD_CHECKPOINT in v.reasons
    assert any("carry 2 different checkpoints" in f.message for f in v.faults)


def test_proof_parts_are_the_parsed_proof_s(records):
    for r in records:
        for text in r["fairness"]["log_proofs"]:
            p = parse_tlog_proof(text)
            assert tlog_proof_parts(text) == (p.index, p.path, p.checkpoint_text)
    text = records[0]["fairness"]["log_proofs"][0]
    for bad in (text.replace("index ", "index 0"), text.replace("\n\n", "\n"), text[:-1], "x", 7,
                text.replace("\n", "\r\n", 1)):
        assert _answer(tlog_proof_parts, bad) == _answer(lambda t: (lambda p: (p.index, p.path,
                                                                               p.checkpoint_text))(parse_tlog_proof(t)),
                                                         bad)


def test_a_plain_record_s_leaf_entries_are_leaf_entry_s(records):
    signed = records[0]["fairness"]["statements"]
    for s in signed:
        assert logcheck._plain_entry(s) == leaf_entry(s, plain=True)
        reordered = {"sig": s["sig"], "statement": s["statement"], "key": s["key"]}
        assert logcheck._plain_entry(reordered) == leaf_entry(s)
        extra = dict(s, note="not in the entry")  # an extra field is not part of the entry
        assert logcheck._plain_entry(extra) == leaf_entry(s)
        other = {"statement": s["statement"], "key": s["key"], "sag": s["sig"]}  # three keys, not the entry's
        with pytest.raises(MalformedError, match=r"^a signed statement needs 'statement', 'key' and 'sig'$"):
            logcheck._plain_entry(other)
    with pytest.raises(MalformedError, match=r"^a signed statement needs 'statement', 'key' and 'sig'$"):
        logcheck._plain_entry(["statement", "key", "sig"])


def test_a_changed_statement_is_not_in_the_log(records):
    """The entry written from the signed dict is the statement's: change one byte of one
    statement (its signature too, so only the log can tell) and it is not in the log."""
    bad = copy.deepcopy(records[2])
    s = bad["fairness"]["statements"][4]
    s["sig"] = s["sig"][:-1] + ("0" if s["sig"][-1] != "0" else "1")
    v = audit_record(bad)
    assert Reason.NOT_IN_LOG in v.reasons
    assert any(f.statement == 5 for f in v.faults if f.reason is Reason.NOT_IN_LOG)
