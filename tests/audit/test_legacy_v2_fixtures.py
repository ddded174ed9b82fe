"""fixtures/records/legacy-v2/: documents published before format 3 (docs/format-3.md), whose
checkpoints carry the legacy ``time`` extension line, keep their verdicts.  Each golden record
audits clean under the pinned operator key (signatures and log evidence checked); the seat
receipt verifies and agrees with its record.  The old body is accepted only because its
signature covers all four lines: editing that line is caught, as it always was."""
from __future__ import annotations

import copy
import json
import pathlib

import pytest

from audit.auditor.verdict.receipt_check import compare
from audit.operator.receipts import ReceiptError, verify_receipt
from audit.auditor.verdict.trust import TrustAnchor
from audit.auditor.verdict.verify import audit_record
from replay.faults import Reason

DIR = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "records" / "legacy-v2"
MANIFEST = json.loads((DIR / "manifest.json").read_text(encoding="utf-8"))
KEY = MANIFEST["public_key"]
RECORDS = [d for d in MANIFEST["documents"] if d["kind"] == "record"]
RECEIPTS = [d for d in MANIFEST["documents"] if d["kind"] == "receipt"]


def load(name: str) -> dict:
    return json.loads((DIR / name).read_text(encoding="utf-8"))


def checkpoint_bodies(doc: dict) -> set[str]:
    proofs = doc["fairness"]["log_proofs"] if "fairness" in doc else doc["log_proofs"]
    return {p.split("\n\n", 1)[1].split("\n\n", 1)[0] for p in proofs}


def test_there_is_a_golden_record_of_every_preset_and_a_receipt():
    from replay.rulesets import PRESETS
    assert {d["preset"] for d in RECORDS} == set(PRESETS)
    assert RECEIPTS
    assert {p.name for p in DIR.glob("*.json")} == {d["file"] for d in MANIFEST["documents"]} | {"manifest.json"}


@pytest.mark.parametrize("entry", MANIFEST["documents"], ids=lambda e: e["file"])
def test_they_are_legacy_documents_with_the_time_line(entry):
    doc = load(entry["file"])
    assert doc["format"] == entry["format"]
    for body in checkpoint_bodies(doc):
        lines = body.split("\n")
        assert len(lines) == 4 and lines[3].startswith("time "), body


@pytest.mark.parametrize("entry", RECORDS, ids=lambda e: e["file"])
def test_every_legacy_record_keeps_its_verdict(entry):
    verdict = audit_record(load(entry["file"]), trust=TrustAnchor(KEY, "pinned"), check_signatures=True)
    assert verdict.ok is entry["ok"], verdict.faults
    assert (verdict.reason.value if verdict.reason else None) == entry["reason"]


@pytest.mark.parametrize("entry", RECEIPTS, ids=lambda e: e["file"])
def test_the_legacy_receipt_verifies_and_agrees_with_its_record(entry):
    rec = load(entry["file"])
    got = verify_receipt(rec, KEY)
    assert got.hand_id == load(entry["record"])["hand_id"]
    report = compare(rec, load(entry["record"]), public_key=KEY)
    assert report.consistent is entry["consistent_with_record"], report.to_json()


def _edit_time(text: str) -> str:
    head, rest = text.split("\ntime ", 1)
    return head + "\ntime 2000" + rest[4:]


def test_an_edited_time_line_breaks_the_legacy_record():
    entry = RECORDS[0]
    doc = load(entry["file"])
    doc["fairness"]["log_proofs"] = [_edit_time(p) for p in doc["fairness"]["log_proofs"]]
    verdict = audit_record(doc, trust=TrustAnchor(KEY, "pinned"))
    assert not verdict.ok and Reason.BAD_CHECKPOINT in verdict.reasons


def test_an_edited_time_line_breaks_the_legacy_receipt():
    rec = copy.deepcopy(load(RECEIPTS[0]["file"]))
    rec["log_proofs"] = [_edit_time(p) for p in rec["log_proofs"]]
    with pytest.raises(ReceiptError, match="checkpoint"):
        verify_receipt(rec, KEY)


def _format3_record_and_legacy_copy():
    """A tiplu.hand/3 record, and the same record whose checkpoint is re-signed by the very
    operator key over the same tree with the legacy fourth line (a valid signature)."""
    from audit.operator.ledger import Ledger
    from audit.operator.sim.archive import OPERATOR, simulate_archive
    from audit.tlog.checkpoint import parse_checkpoint
    from audit.tlog.proof import parse_tlog_proof
    from tests.tlog.legacy_kit import legacy_checkpoint

    from audit.operator.receipts import receipt

    recs: list[dict] = []
    with Ledger(":memory:") as ledger:
        simulate_archive(ledger, [("kitti", 3, 1)], seed="legacy-rule", origin="tiplu.local/log",
                         on_record=lambda r, k: recs.append(r))
        key = ledger.signing_key(OPERATOR)
        seat = next(s.signed for s in ledger.statements(recs[0]["hand_id"]) if s.kind == "seat-receipt")
        r3 = receipt(ledger, seat, key=key)
    rec = recs[0]
    old = parse_tlog_proof(rec["fairness"]["log_proofs"][0]).checkpoint_text
    cp = parse_checkpoint(old)
    four = legacy_checkpoint(key, origin=cp.origin, size=cp.size, root=cp.root)
    bad = copy.deepcopy(rec)
    bad["fairness"]["log_proofs"] = [p.replace(old, four) for p in rec["fairness"]["log_proofs"]]
    r3_old = parse_tlog_proof(r3["log_proofs"][0]).checkpoint_text
    c3 = parse_checkpoint(r3_old)
    bad_r3 = copy.deepcopy(r3)
    bad_r3["log_proofs"] = [p.replace(r3_old, legacy_checkpoint(key, origin=c3.origin, size=c3.size, root=c3.root))
                            for p in r3["log_proofs"]]
    return rec, bad, key.public_hex, r3, bad_r3


def test_a_format_3_record_whose_checkpoint_has_a_line_after_the_root_is_bad_checkpoint():
    rec, bad, key, _, _ = _format3_record_and_legacy_copy()
    assert rec["format"] == "tiplu.hand/3" and bad["fairness"]["log_proofs"] != rec["fairness"]["log_proofs"]
    good = audit_record(rec, trust=TrustAnchor(key, "pinned"), check_signatures=True)
    assert good.ok and Reason.BAD_CHECKPOINT not in good.reasons
    verdict = audit_record(bad, trust=TrustAnchor(key, "pinned"), check_signatures=True)
    assert not verdict.ok and verdict.reason is Reason.BAD_CHECKPOINT
    assert "exactly 3 lines" in next(f.message for f in verdict.faults if f.reason is Reason.BAD_CHECKPOINT)


def test_a_format_3_receipt_whose_checkpoint_has_a_line_after_the_root_is_refused():
    _, _, key, r3, bad = _format3_record_and_legacy_copy()
    assert r3["format"] == "tiplu.receipt/3" and bad["log_proofs"] != r3["log_proofs"]
    verify_receipt(r3, key)
    with pytest.raises(ReceiptError, match="exactly 3 lines"):
        verify_receipt(bad, key)
