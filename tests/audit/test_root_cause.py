"""A verdict leads with the root cause; what follows from it is grouped as consequences.

One edited move must not read as eight faults, a changed seed must not read as "first bad
move 0", and a badly signed statement is not also "missing".
"""
from __future__ import annotations

import json
import pathlib

from audit.auditor.verdict.verify import Verdict, audit_record
from replay.faults import Fault, Reason, group_faults, statement_label

DIR = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "records"


def _verdict(name: str) -> Verdict:
    return audit_record((DIR / name).read_text())


def test_one_edited_move_is_one_root_cause_and_its_consequences():
    # rule MC-14: the edited discard names a card the seat does not hold
    v = _verdict("marriage-nepal/corrupted-edited_move.json")
    assert [f.reason for f in v.root_causes] == [Reason.ILLEGAL_MOVE]
    root = v.faults[0]
    assert root.move_index == 41 and root.caused_by is None
    later = v.consequences
    assert len(later) == 5 and all(f.caused_by == 0 for f in later)
    assert {f.reason for f in later} == {Reason.ILLEGAL_MOVE, Reason.INCOMPLETE}
    assert all("turn" in f.message for f in later if f.reason is Reason.ILLEGAL_MOVE)
    assert v.first_bad_move == 41


def test_a_seed_mismatch_is_the_root_cause_not_first_bad_move_0():
    # rule R-22: the revealed server seed does not match its commitment; every move fault follows
    v = _verdict("marriage-nepal/corrupted-wrong_seed.json")
    # the forger re-signed the reveal after the fact: that reveal is not the logged one, a
    # second root cause of its own (the log shows the seed the operator really revealed)
    assert [f.reason for f in v.root_causes] == [Reason.SERVER_SEED_MISMATCH, Reason.NOT_IN_LOG]
    assert "(reveal)" in v.root_causes[1].message
    assert v.first_bad_move is None
    assert v.consequences and all(f.caused_by == 0 for f in v.consequences)
    assert v.to_json()["first_bad_move"] is None


def test_swapped_seat_seeds_explain_the_statement_and_move_faults():
    v = _verdict("kitti/corrupted-swapped_seed.json")
    assert [f.reason for f in v.root_causes] == [Reason.SEAT_SEED_MISMATCH] * 2
    reasons = {f.reason for f in v.consequences}
    assert Reason.STATEMENT_MISMATCH in reasons and Reason.ILLEGAL_MOVE in reasons


def test_a_badly_signed_statement_is_one_fault_named_as_the_page_numbers_it():
    # the default audit: the changed signature makes the deal another leaf than the logged one
    v = _verdict("kitti/corrupted-forged_signature.json")
    assert len(v.faults) == 1, [str(f) for f in v.faults]
    assert v.faults[0].reason is Reason.NOT_IN_LOG and v.faults[0].statement == 11
    assert v.faults[0].message.startswith("statement 11 (deal) ")
    # with the per-statement signatures: the signature is the root cause, the log its consequence
    v = audit_record((DIR / "kitti/corrupted-forged_signature.json").read_text(), check_signatures=True)
    assert [g.reason for g in v.root_causes] == [Reason.SIGNATURE], [str(g) for g in v.faults]
    assert [(g.reason, g.caused_by) for g in v.consequences] == [(Reason.NOT_IN_LOG, 0)]
    f = v.faults[0]
    assert f.reason is Reason.SIGNATURE and f.statement == 11
    assert f.message.startswith("statement 11 (deal): ")
    record = json.loads((DIR / "kitti/corrupted-forged_signature.json").read_text())
    # 1-based: the 11th statement of the record is the deal
    assert record["fairness"]["statements"][f.statement - 1]["statement"]["kind"] == "deal"
    assert not any("carries no signed" in g.message for g in v.faults)


def test_a_claimed_commission_explains_the_claimed_nets():
    # rule D-2: one cent of commission moves a net too; the commission is the root cause
    v = _verdict("rummy13/corrupted-commission_off.json")
    assert [f.reason for f in v.faults] == [Reason.COMMISSION_MISMATCH, Reason.PAYOUT_MISMATCH]
    assert v.faults[1].caused_by == 0


def test_grouping_does_not_depend_on_the_order_checks_appended_faults():
    moves = [Fault(Reason.ILLEGAL_MOVE, "not this seat's turn", 7), Fault(Reason.INCOMPLETE, "ends early", 9)]
    seed = Fault(Reason.SEAT_SEED_MISMATCH, "seat 1's seed does not match its commitment")
    a = group_faults(moves + [seed])
    assert [f.reason for f in a] == [Reason.SEAT_SEED_MISMATCH, Reason.ILLEGAL_MOVE, Reason.INCOMPLETE]
    assert [f.caused_by for f in a] == [None, 0, 0]
    assert group_faults(a) == a  # idempotent
    assert group_faults([seed] + moves) == a


def test_unrelated_faults_stay_root_causes_in_their_order():
    sig = Fault(Reason.SIGNATURE, "statement 3 (seat-receipt): bad", statement=3)
    pay = Fault(Reason.PAYOUT_MISMATCH, "claimed nets differ")
    grouped = group_faults([sig, pay])
    assert [f.caused_by for f in grouped] == [None, None]
    # two faults about one statement: the first explains the second
    order = Fault(Reason.EVENT_ORDER, "statement 3 (seat-receipt) comes after a later phase", statement=3)
    assert [f.caused_by for f in group_faults([sig, order])] == [None, 0]


def test_log_faults_are_grouped_too():
    names = {r.value: r for r in Reason}  # the log check's reasons, by wire name
    bad_cp = Fault(names["bad_checkpoint"], "the checkpoint does not verify")
    missing = Fault(names["not_in_log"], "statement 4 (seat-receipt) is not in the log", statement=4)
    grouped = group_faults([missing, bad_cp])
    assert grouped[0].reason is names["not_in_log"] or grouped[0].reason is names["bad_checkpoint"]
    assert [f.reason for f in grouped if f.caused_by is None] == [names["bad_checkpoint"]]


def test_the_json_verdict_marks_consequences():
    j = _verdict("marriage-classic/corrupted-changed_ruleset.json").to_json()
    assert j["reason"] == "ruleset_mismatch" and j["first_bad_move"] is None
    assert j["root_causes"] == 1
    assert j["faults"][0]["caused_by"] is None
    assert all(f["caused_by"] == 0 for f in j["faults"][1:])


def test_statement_label():
    assert statement_label(11, "deal") == "statement 11 (deal)"
    assert statement_label(2) == "statement 2"


def test_the_cli_summary_leads_with_the_root_cause():
    from click.testing import CliRunner

    from audit.cli import main
    res = CliRunner().invoke(main, ["audit", str(DIR / "marriage-nepal/corrupted-edited_move.json"), "--no-progress"])
    assert res.exit_code == 1
    fail = [line for line in res.output.splitlines() if line.startswith("FAIL ")]
    assert len(fail) == 1
    assert "illegal_move: move 41: seat 3 does not hold 7D (5 consequences: 4 illegal_move, 1 incomplete)" in fail[0]
    res = CliRunner().invoke(main, ["audit", str(DIR / "kitti/corrupted-forged_signature.json"), "--no-progress", "--json"])
    failure = json.loads(res.output)["failures"][0]
    assert failure["root_causes"] == 1 and len(failure["faults"]) == 1
    assert failure["faults"][0]["statement"] == 11
