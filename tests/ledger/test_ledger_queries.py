"""The site's reads of a ledger (audit/operator/ledger/queries.py, methods of the facade): what they list, in which order,
and that reading changes nothing."""
from __future__ import annotations

from audit.auditor.verdict.hand_verdict import published_verdict
from audit.auditor.evidence.ledger_log import LedgerLog
from audit.signing import SigningKey
from audit.tlog.checkpoint import make_checkpoint

from ledger_testkit import T0, advance, new_ledger, snapshot


def _ledger():
    ledger = new_ledger()
    ledger.new_operator("zeta")
    ledger.new_table("t2", operator="zeta", preset="rummy13", seats=4)
    advance(ledger, "h1", "new")
    advance(ledger, "h2", "commit")
    advance(ledger, "h3", "reveal")
    ledger.new_hand("t2", ["a", "b", "c", "d"], dealer=0, hand_id="r1")
    return ledger


def test_listings_in_the_order_things_were_made():
    ledger = _ledger()
    before = snapshot(ledger)
    assert [op.name for op in ledger.operators()] == ["acme", "zeta"]
    assert ledger.table_ids() == ["t1", "t2"]
    assert [t.id for t in ledger.tables()] == ["t1", "t2"]
    assert ledger.hand_counts() == {"kitti": {"created": 1, "committed": 1, "revealed": 1},
                                         "rummy13": {"created": 1}}
    assert snapshot(ledger) == before


def test_a_page_of_hands_newest_first_with_filters_and_the_total():
    ledger = _ledger()
    page, total = ledger.hand_page()
    assert [v.id for v in page] == ["r1", "h3", "h2", "h1"] and total == 4
    page, total = ledger.hand_page(limit=2, offset=1)
    assert [v.id for v in page] == ["h3", "h2"] and total == 4
    assert [v.id for v in ledger.hand_page(table_id="t1", state="committed")[0]] == ["h2"]
    assert [v.id for v in ledger.hand_page(preset="rummy13")[0]] == ["r1"]
    assert ledger.hand_page(state="cancelled") == ([], 0)


def test_the_log_and_its_latest_checkpoint():
    ledger = _ledger()
    log = ledger.transparency_log()
    assert log.size() == len(list(ledger.statements()))
    assert ledger.latest_checkpoint() is None
    cp = make_checkpoint(log, SigningKey.from_hex("77" * 32), origin="t.example/log", now=T0)
    assert ledger.latest_checkpoint() == cp.text
    assert LedgerLog.of_ledger(ledger).size() == log.size()  # the auditor's view of the same log


def test_a_record_published_as_another_hand_is_a_mismatch_first():
    ledger = _ledger()
    record = {"hand_id": "somewhere-else"}
    verdict = published_verdict(record, hand_id="h3", public_key=ledger.public_key("acme"))
    assert verdict.faults[0].reason.value == "statement_mismatch"
    assert "published as hand 'h3' is about hand 'somewhere-else'" in verdict.faults[0].message
    same = published_verdict({"hand_id": "h3"}, hand_id="h3", public_key=ledger.public_key("acme"))
    assert all(f.reason.value != "statement_mismatch" for f in same.faults)
