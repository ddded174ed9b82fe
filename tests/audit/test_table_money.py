"""Table money comes only from hands that pass the audit; rejected hands are listed apart
with what the operator claimed for them (labelled as claims, never counted)."""
from __future__ import annotations

from audit.auditor.run.report import AuditReport
from audit.operator.sim.tamper import TamperContext, tamper
from audit.auditor.verdict.verify import audit_record
from replay.stream import Stream


def _ctx(ledger):
    return TamperContext(ledger.signing_key("demo-operator"), Stream(bytes(32), bytes(32), "test"))


def _report(records):
    report = AuditReport()
    for i, rec in enumerate(records):
        report.add(f"r{i}", audit_record(rec))
    return report


def test_a_rejected_hand_adds_no_money_and_is_listed_with_its_claims(kitti_archive):
    ledger, run, records = kitti_archive
    clean = [r for r, _ in records]
    forged = tamper(clean[1], "forged_signature", _ctx(ledger))  # the replay still settles
    assert audit_record(forged).replay.settlement is not None
    honest = _report([clean[0], clean[2], clean[3]]).tables["t1"]
    mixed = _report([clean[0], forged, clean[2], clean[3]]).tables["t1"]
    # rule D-2: balances and commission are the sums over the hands that pass -- the forged one adds nothing
    assert mixed.balances == honest.balances and mixed.commission == honest.commission
    assert (mixed.hands, mixed.passed, mixed.unreconciled) == (4, 3, 1)
    [rej] = mixed.to_json()["rejected"]
    assert rej["hand_id"] == forged["hand_id"] and rej["reason"] == "not_in_log"  # the changed bytes are not the logged leaf
    players = [s["player"] for s in forged["table"]["seats"]]
    claimed = forged["outcome"]["payouts"]
    assert rej["claimed"] == {"nets": dict(zip(players, claimed["nets"])), "commission": claimed["commission"]}


def test_the_count_of_rejected_hands_counts_every_failure(kitti_archive):
    ledger, run, records = kitti_archive
    clean = [r for r, _ in records]
    ctx = _ctx(ledger)
    bad = [tamper(clean[0], "forged_signature", ctx), tamper(clean[1], "edited_move", ctx),
           tamper(clean[2], "inflated_payout", ctx)]
    t = _report(bad + [clean[3]]).tables["t1"]
    assert t.unreconciled == 3 and t.passed == 1 and len(t.rejected) == 3
    only = _report([clean[3]]).tables["t1"]
    assert t.balances == only.balances
    # an inflated payout's claim is shown as claimed, and is not what the balances hold
    inflated = next(r for r in t.to_json()["rejected"] if r["reason"] == "payout_mismatch")
    assert inflated["claimed"]["nets"] == dict(zip([s["player"] for s in bad[2]["table"]["seats"]],
                                                   bad[2]["outcome"]["payouts"]["nets"]))


def test_merged_reports_keep_the_rejected_hands(kitti_archive):
    ledger, run, records = kitti_archive
    clean = [r for r, _ in records]
    forged = tamper(clean[1], "forged_signature", _ctx(ledger))
    a, b = _report([clean[0], forged]), _report([clean[2], clean[3]])
    whole = _report([clean[0], forged, clean[2], clean[3]])
    assert a.merge(b).to_json()["tables"] == whole.to_json()["tables"]


def test_the_cli_summary_says_rejected_hands_are_not_counted(tmp_path, kitti_archive):
    import json
    import re

    from click.testing import CliRunner

    from audit.cli import main
    ledger, run, records = kitti_archive
    clean = [r for r, _ in records]
    ctx = _ctx(ledger)
    bad = [tamper(clean[0], "forged_signature", ctx), tamper(clean[1], "inflated_payout", ctx)]
    src = tmp_path / "a.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in bad + clean[2:]))
    res = CliRunner().invoke(main, ["audit", str(src), "--no-progress"])
    # the balances themselves follow (issue 29 item 14), then the rejected hands not counted
    assert re.search(r"table t1: balances from the 2 hands that pass: .+; house commission \S+; "
                     r"2 rejected hands not counted", res.output), res.output
