"""A player's seat receipt (tiplu.receipt/3): the logged hand, commitment and seat-receipt, proved
at one signed checkpoint; checked before a reveal; and it proves a re-signed grind forged."""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings, strategies as st
from click.testing import CliRunner

from audit.cli import main
from audit.auditor.verdict.receipt_check import compare
from audit.operator.receipts import ReceiptError, check_before_reveal, verify_receipt
from audit.signing import SigningKey
from audit.tlog.proof import format_tlog_proof, parse_tlog_proof
from replay.errors import TipluError
from replay.fairness import commit_player_seed

from .receipt_kit import KEY, finish_honestly, new_ledger, resigned_grind, seed

@pytest.fixture
def ledger_with_receipts():
    return new_ledger()


# -- the receipt itself -------------------------------------------------------------------

def test_a_seat_receipt_holds_the_logged_commitment_and_verifies_with_the_pinned_key(ledger_with_receipts):
    # rule R-21: every player supplies a seed; their receipt proves the operator logged it after its commitment
    ledger, receipts = ledger_with_receipts
    commitment = ledger.get_hand("h1").server_seed_commitment
    for seat, rec in enumerate(receipts):
        assert rec["format"] == "tiplu.receipt/3" and [s["statement"]["kind"] for s in rec["statements"]] == [
            "hand", "commitment", "seat-receipt"]
        assert all(p.startswith("c2sp.org/tlog-proof@v1\nindex ") for p in rec["log_proofs"])
        r = verify_receipt(rec, KEY.public_hex)
        assert r.seat == seat and r.server_commitment == commitment and r.indices[0] < r.indices[1] < r.indices[2]
        assert r.of_kind("seat-receipt")[0][1]["server_seed_commitment"] == commitment
        check_before_reveal(rec, KEY.public_hex, hand_id="h1", seat=seat, shown_commitment=commitment,
                            seed_commitment=commit_player_seed("h1", seat, seed(seat)))


@pytest.mark.parametrize("change", ["statement", "checkpoint", "path", "index", "drop_commitment", "other_checkpoint"])
def test_a_receipt_with_any_part_changed_fails(ledger_with_receipts, change):
    ledger, receipts = ledger_with_receipts
    bad = copy.deepcopy(receipts[1])
    if change == "statement":
        bad["statements"][1]["statement"]["seat"] = 2
    elif change == "checkpoint":
        head, _, cp = bad["log_proofs"][1].partition("\n\n")  # an unsigned line added to the signed body
        body, _, sigs = cp.partition("\n\n")
        bad["log_proofs"][1] = f"{head}\n\n{body}\ntime 2026-11-30T14:00:00Z\n\n{sigs}"
    elif change == "path":
        p = parse_tlog_proof(bad["log_proofs"][1])
        bad["log_proofs"][1] = format_tlog_proof(p.index, (b"\0" * 32,) + p.path[1:], p.checkpoint_text)
    elif change == "index":
        p = parse_tlog_proof(bad["log_proofs"][1])
        bad["log_proofs"][1] = format_tlog_proof(p.index + 1, p.path, p.checkpoint_text)
    elif change == "drop_commitment":
        del bad["statements"][0], bad["log_proofs"][0]
    else:
        bad["log_proofs"][0] = receipts[0]["log_proofs"][0]  # an earlier checkpoint than the other proof's
    with pytest.raises(ReceiptError, match=r"^(a receipt's proofs carry different checkpoints|a tiplu\.receipt/3 seat receipt holds the hand's hand statement|the receipt's statement 1 is not proved: )"):
        verify_receipt(bad, KEY.public_hex)


def test_another_operators_key_fails(ledger_with_receipts):
    _, receipts = ledger_with_receipts
    with pytest.raises(TipluError, match=r"^the receipt's checkpoint does not verify under the pinned key: checkpoint has no signature by key "):
        verify_receipt(receipts[0], SigningKey.generate().public_hex)


def test_a_client_refuses_a_commitment_it_was_not_shown_or_a_seed_not_its_own(ledger_with_receipts):
    _, receipts = ledger_with_receipts
    with pytest.raises(ReceiptError, match="not the one you were shown"):
        check_before_reveal(receipts[0], KEY.public_hex, hand_id="h1", seat=0, shown_commitment="ab" * 32)
    with pytest.raises(ReceiptError, match="not the commitment of your seed"):
        check_before_reveal(receipts[0], KEY.public_hex, hand_id="h1", seat=0,
                            seed_commitment=commit_player_seed("h1", 0, seed(2)))
    with pytest.raises(ReceiptError, match="not a seat receipt of hand 'h1' seat 1"):
        check_before_reveal(receipts[0], KEY.public_hex, hand_id="h1", seat=1)


def test_a_seat_receipt_that_binds_another_commitment_is_refused(ledger_with_receipts):
    # the operator logs a commitment, then hands the player a receipt for a different one
    ledger, receipts = ledger_with_receipts
    bad = copy.deepcopy(receipts[0])
    st = dict(bad["statements"][1]["statement"], server_seed_commitment="cd" * 32)
    bad["statements"][1] = KEY.sign(st)  # validly signed, but not the logged leaf
    with pytest.raises(ReceiptError, match="not proved"):
        verify_receipt(bad, KEY.public_hex)


# -- receipt verify: the published record against the receipt ---------------------------

def test_an_honest_record_agrees_with_every_receipt(ledger_with_receipts):
    ledger, receipts = ledger_with_receipts
    record = finish_honestly(ledger)
    for rec in receipts:
        report = compare(rec, record, public_key=KEY.public_hex)
        assert report.consistent, report.to_json()
        assert len(report.checked) >= 4 and report.trust == {"public_key": KEY.public_hex, "basis": "pinned"}
        assert any("consistency proof" in line for line in report.not_checked)  # sizes differ: said plainly


def test_a_resigned_grind_is_proved_forged_by_the_receipt_a_player_kept(ledger_with_receipts):
    ledger, receipts = ledger_with_receipts
    honest = finish_honestly(ledger)
    forged = resigned_grind(ledger, honest)
    for rec in receipts:
        report = compare(rec, forged, public_key=KEY.public_hex)
        whats = {c.what for c in report.contradictions}
        assert not report.consistent and {"different_statement", "server_commitment"} <= whats, whats
        c = next(c for c in report.contradictions if c.what == "server_commitment")
        assert c.receipt == honest["fairness"]["server_commitment"] and c.record == forged["fairness"]["server_commitment"]


def test_the_cli_exit_codes(ledger_with_receipts, tmp_path):
    ledger, receipts = ledger_with_receipts
    honest = finish_honestly(ledger)
    forged = resigned_grind(ledger, honest)
    paths = {}
    for name, value in {"receipt": receipts[2], "honest": honest, "forged": forged}.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(value))
    run = lambda *a: CliRunner().invoke(main, ["receipt", "verify", *map(str, a)])  # noqa: E731
    ok = run(paths["receipt"], paths["honest"], "--public-key", KEY.public_hex)
    assert ok.exit_code == 0, ok.output
    assert "agrees with your receipt" in ok.output and "not checked offline" in ok.output
    bad = run(paths["receipt"], paths["forged"], "--public-key", KEY.public_hex)
    assert bad.exit_code == 1
    lines = [x for x in bad.output.splitlines() if x.startswith("CONTRADICTED: ")]
    assert any("server commitment" in x for x in lines) and all("\n" not in x for x in lines)
    js = run(paths["receipt"], paths["forged"], "--public-key", KEY.public_hex, "--json")
    assert js.exit_code == 1 and json.loads(js.output)["contradictions"][0]["receipt"] is not None
    unpinned = run(paths["receipt"], paths["honest"])
    assert unpinned.exit_code == 0 and "NOT a trust anchor" in unpinned.output
    (tmp_path / "junk.json").write_text("{not json")
    for args in [(tmp_path / "junk.json", paths["honest"]), (paths["receipt"], tmp_path / "junk.json"),
                 (paths["receipt"], tmp_path / "missing.json"),
                 (paths["receipt"], paths["honest"], "--public-key", SigningKey.generate().public_hex)]:
        res = run(*args)
        assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "Traceback" not in res.output, res.output


def test_a_record_of_another_hand_is_bad_input(ledger_with_receipts):
    ledger, receipts = ledger_with_receipts
    record = finish_honestly(ledger)
    with pytest.raises(TipluError, match="another|for hand"):
        compare(receipts[0], {**record, "hand_id": "h2"}, public_key=KEY.public_hex)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
                    max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_any_damaged_receipt_is_a_typed_error_never_a_crash(data):
    ledger, receipts = _SHARED
    rec = copy.deepcopy(receipts[0])
    where = data.draw(st.sampled_from(["top", "statements", "proof", "statement"]))
    junk = data.draw(JSON)
    if where == "top":
        rec = junk if data.draw(st.booleans()) else {**rec, data.draw(st.sampled_from(sorted(rec))): junk}
    elif where == "statements":
        rec["statements"][data.draw(st.integers(0, 1))] = junk
    elif where == "proof":
        text = rec["log_proofs"][1]
        cut = data.draw(st.integers(0, len(text)))
        rec["log_proofs"][1] = text[:cut] + data.draw(st.text(max_size=8)) + text[cut + 1:]
    else:
        rec["statements"][1]["statement"][data.draw(st.text(max_size=8))] = junk
    try:
        verify_receipt(rec, KEY.public_hex)
    except ReceiptError:
        pass
    try:
        compare(receipts[0], rec if isinstance(rec, dict) else {"fairness": junk}, public_key=KEY.public_hex)
    except TipluError:
        pass


_SHARED = new_ledger()


def test_receipt_verify_takes_a_pinned_policy(ledger_with_receipts, tmp_path):
    # the policy's log pins the key; a policy requiring a witness fails the uncosigned record
    from audit.tlog.cosignature import witness_vkey
    from audit.tlog.note import TYPE_ED25519, Vkey

    ledger, receipts = ledger_with_receipts
    honest = finish_honestly(ledger)
    log = Vkey.for_key("tiplu.local/log", TYPE_ED25519, bytes.fromhex(KEY.public_hex))
    w = witness_vkey("witness.test/r", SigningKey.from_hex("33" * 32).public_hex)
    paths = {"receipt": receipts[0], "honest": honest}
    for name, value in paths.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(value))
    none, one = tmp_path / "none.policy", tmp_path / "one.policy"
    none.write_text(f"log {log}\nquorum none\n")
    one.write_text(f"log {log}\nwitness w {w}\nquorum w\n")
    run = lambda *a: CliRunner().invoke(main, ["receipt", "verify", *map(str, a)])  # noqa: E731
    ok = run(paths["receipt"], paths["honest"], "--policy", none, "--json")
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.output)
    assert data["trust"]["public_key"] == KEY.public_hex and data["timing"]["status"] == "unproven"
    bad = run(paths["receipt"], paths["honest"], "--policy", one)
    assert bad.exit_code == 1 and "FAIL witness_quorum" in bad.output and "requires witness w" in bad.output
    assert "the record agrees with your receipt" in bad.output  # the receipt itself is not contradicted
    other = run(paths["receipt"], paths["honest"], "--policy", one, "--public-key", SigningKey.generate().public_hex)
    assert other.exit_code == 2 and "is not a log of the policy" in other.output
