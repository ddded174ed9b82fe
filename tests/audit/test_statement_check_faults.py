"""The statement check, fault by fault: every fault a tampered record must give, with its
reason, its statement number, its words and what it follows from -- no more, no fewer.

Each test takes a golden format-3 record (fixtures/records/kitti/golden-0.json: statements
1 hand, 2 commitment, 3-6 seat-receipt, 7-10 seat-reveal, 11 deal, 12 record, 13 reveal),
changes its signed statements as an attacker or a buggy operator would, and calls
:func:`audit.auditor.verdict.statement_check.check_statements`; content checks run without
signatures (the statements are edited, not re-signed), the signature checks with them.
Issue 31: a verdict test asserts every fault it expects, with its statement number.
"""
from __future__ import annotations

import copy
import json
import pathlib

import pytest

from replay.errors import MalformedError

from audit.auditor.verdict.statement_check import check_statements
from audit.signing import SigningKey
from replay.canonical import canonical_hash
from replay.faults import Reason
from replay.records import parse_record

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "fixtures" / "records" / "kitti" / "golden-0.json").read_text())
KEY = GOLDEN["table"]["public_key"]
MISMATCH, ORDER, TIME, SIGNATURE = Reason.STATEMENT_MISMATCH, Reason.EVENT_ORDER, Reason.TIME_ORDER, Reason.SIGNATURE
SEAT, SERVER, RULESET = Reason.SEAT_SEED_MISMATCH, Reason.SERVER_SEED_MISMATCH, Reason.RULESET_MISMATCH
KINDS = {1: "hand", 2: "commitment", 3: "seat-receipt", 4: "seat-receipt", 5: "seat-receipt", 6: "seat-receipt",
         7: "seat-reveal", 8: "seat-reveal", 9: "seat-reveal", 10: "seat-reveal", 11: "deal", 12: "record", 13: "reveal"}


def raw() -> dict:
    return copy.deepcopy(GOLDEN)


def st(record: dict, number: int) -> dict:
    """The statement body of statement ``number`` (counting from 1)."""
    return record["fairness"]["statements"][number - 1]["statement"]


def faults(record: dict, **kw) -> list[tuple]:
    kw.setdefault("check_signatures", False)
    return [(f.reason, f.statement, f.message, f.after) for f in check_statements(parse_record(record), **kw)]


def differs(number: int, field: str, after: tuple = ()) -> tuple:
    kind = KINDS[number]
    return (MISMATCH, number, f"statement {number} ({kind}): the signed {kind} statement's {field} differs from the record",
            after)


def other_hex(text: str) -> str:
    """The same hex string with its last digit changed."""
    return text[:-1] + ("0" if text[-1] != "0" else "1")


def test_the_golden_record_has_no_fault_with_or_without_signatures():
    assert faults(raw()) == []
    assert faults(raw(), check_signatures=True) == []
    assert faults(raw(), public_key=KEY.upper()) == []  # the key compares in any case


# --- every field of every kind is compared, and only an equal value passes ----------------------

HASH_FIELDS = [(2, "server_seed_commitment", ()), (2, "ruleset_hash", (RULESET,)),
               (11, "server_seed_commitment", ()), (11, "ruleset_hash", (RULESET,)),
               (12, "record_hash", ()), (12, "moves_head", ()), (13, "server_seed", (SERVER,))]


@pytest.mark.parametrize("number,field,after", HASH_FIELDS + [(n, f, a) for n in (3, 4, 5, 6) for f, a in
                                                              [("server_seed_commitment", ()), ("ruleset_hash", (RULESET,)),
                                                               ("hand_hash", ())]])
def test_a_hex_field_one_digit_off_is_that_statements_one_fault(number, field, after):
    record = raw()
    st(record, number)[field] = other_hex(st(record, number)[field])
    assert faults(record) == [differs(number, field, after)]


@pytest.mark.parametrize("number,field", [(n, f) for n, f, _ in HASH_FIELDS] + [(3, "hand_hash"), (6, "ruleset_hash")])
def test_a_hex_field_in_upper_case_is_the_same_value(number, field):
    record = raw()
    st(record, number)[field] = st(record, number)[field].upper()
    assert faults(record) == []


@pytest.mark.parametrize("number,field", [(2, "server_seed_commitment"), (3, "hand_hash"), (11, "player_seeds"),
                                          (12, "n_moves"), (13, "server_seed"), (1, "dealer")])
def test_a_missing_field_is_a_fault(number, field):
    record = raw()
    del st(record, number)[field]
    want = [differs(number, field, {"player_seeds": (SEAT,), "server_seed": (SERVER,)}.get(field, ()))]
    if number == 1:  # the hand statement's hash changes: every receipt's hand_hash differs too
        want += [differs(n, "hand_hash") for n in (3, 4, 5, 6)]
    assert faults(record) == want


def _receipts_follow(number: int, field: str, value) -> list[tuple]:
    """The faults of the hand statement's ``field`` changed to ``value``, its receipts re-bound
    to the changed statement (so the field's own fault is the only one)."""
    record = raw()
    st(record, number)[field] = value
    bound = canonical_hash(st(record, 1))
    for n in (3, 4, 5, 6):
        st(record, n)["hand_hash"] = bound
    return faults(record)


@pytest.mark.parametrize("field,value", [("table_id", "kitti-4p-t1"), ("operator", "another-operator"),
                                         ("dealer", 2), ("point_value", "0.26"), ("commission_pct", "6"),
                                         ("commission_pct", "five"),
                                         ("seats", [{"seat": 0, "player": "asha"}]),
                                         ("ruleset_hash", "0" * 64)])
def test_every_field_of_the_hand_statement_is_compared(field, value):
    after = (RULESET,) if field == "ruleset_hash" else ()
    assert _receipts_follow(1, field, value) == [differs(1, field, after)]


def test_the_hand_statement_seats_must_be_the_records_in_order():
    seats = copy.deepcopy(st(GOLDEN, 1)["seats"])
    seats[0]["player"], seats[1]["player"] = seats[1]["player"], seats[0]["player"]
    assert _receipts_follow(1, "seats", seats) == [differs(1, "seats")]


@pytest.mark.parametrize("field,value", [("point_value", "0.250"), ("commission_pct", "5.00"), ("operator", "DEMO-Operator")])
def test_equal_money_and_names_in_other_spellings_pass(field, value):
    assert _receipts_follow(1, field, value) == []


def test_the_deal_statements_seeds_and_dealer_are_compared():
    record = raw()
    seeds = st(record, 11)["player_seeds"]
    seeds[2] = other_hex(seeds[2])
    st(record, 11)["dealer"] = 0
    assert faults(record) == [differs(11, "player_seeds", (SEAT,)), differs(11, "dealer")]


def test_a_string_number_is_not_the_moves_count():
    record = raw()
    st(record, 12)["n_moves"] = str(st(record, 12)["n_moves"])
    assert faults(record) == [differs(12, "n_moves")]
    st(record, 12)["n_moves"] += "0"
    assert faults(record) == [differs(12, "n_moves")]


# --- the statement's envelope: hand, type, kind -------------------------------------------------

def test_a_statement_about_another_hand():
    record = raw()
    st(record, 7)["hand_id"] += "x"
    assert faults(record) == [(MISMATCH, 7, "statement 7 (seat-reveal) is about another hand", ())]


def test_a_format_1_statement_in_a_format_3_record():
    record = raw()
    st(record, 2)["type"] = "tiplu.statement/1"
    assert faults(record) == [(MISMATCH, 2, "statement 2 (commitment) is not a tiplu.statement/2 statement "
                                            "(a tiplu.hand/3 record's statements are)", ())]


def test_an_unknown_kind_and_the_kind_it_leaves_missing():
    record = raw()
    st(record, 13)["kind"] = "bogus"
    assert faults(record) == [(MISMATCH, 13, "statement 13 (bogus) has unknown kind 'bogus'", ()),
                              (MISMATCH, None, "the record carries no signed reveal statement", ())]


def test_a_cancel_among_a_recorded_hands_statements():
    record = raw()
    st(record, 12)["kind"] = "cancel"
    assert faults(record) == [(ORDER, 12, "statement 12 (cancel): a cancel among a recorded hand's statements (a hand "
                                          "is cancelled only before the deal, and never recorded)", ()),
                              (MISMATCH, None, "the record carries no signed record statement", ())]


@pytest.mark.parametrize("number", [1, 2, 3, 7, 11, 12, 13])
def test_each_required_kind_missing_is_named(number):
    record = raw()
    kind = KINDS[number]
    others = [n for n, k in KINDS.items() if k == kind and n != number]
    for n in sorted([number] + others, reverse=True):
        del record["fairness"]["statements"][n - 1]
        del record["fairness"]["log_proofs"][n - 1]
    got = faults(record)
    assert (MISMATCH, None, f"the record carries no signed {kind} statement", ()) in got
    if kind == "seat-receipt":
        assert (MISMATCH, None, "not every seat's commitment is signed", ()) in got
    if kind == "seat-reveal":
        assert got == [(MISMATCH, None, "the record carries no signed seat-reveal statement", ()),
                       (MISMATCH, None, "not every seat's reveal is signed", ())]


# --- seats: range, commitments, reveals -------------------------------------------------------

@pytest.mark.parametrize("seat", [4, -1, "0", None, 1.0])
def test_a_receipt_for_no_seat_of_the_table(seat):
    record = raw()
    st(record, 3)["seat"] = seat
    assert faults(record) == [(MISMATCH, 3, "statement 3 (seat-receipt) names no seat of the table", ()),
                              (ORDER, 7, "statement 7 (seat-reveal): seat 0 revealed its seed before every seat had "
                                         "committed", ()),
                              (ORDER, 8, "statement 8 (seat-reveal): seat 1 revealed its seed before every seat had "
                                         "committed", ()),
                              (ORDER, 9, "statement 9 (seat-reveal): seat 2 revealed its seed before every seat had "
                                         "committed", ()),
                              (ORDER, 10, "statement 10 (seat-reveal): seat 3 revealed its seed before every seat had "
                                          "committed", ()),
                              (MISMATCH, None, "not every seat's commitment is signed", ())]


@pytest.mark.parametrize("seat", [4, -1])
def test_a_reveal_for_no_seat_of_the_table(seat):
    record = raw()
    st(record, 10)["seat"] = seat
    assert faults(record) == [(MISMATCH, 10, "statement 10 (seat-reveal) names no seat of the table", ()),
                              (MISMATCH, None, "not every seat's reveal is signed", ())]


def test_the_last_seat_is_a_seat_of_the_table():
    record = raw()
    st(record, 6)["seat"], st(record, 3)["seat"] = 0, 3  # receipts 0 and 3 swapped, commitments with them
    st(record, 6)["commitment"], st(record, 3)["commitment"] = st(record, 3)["commitment"], st(record, 6)["commitment"]
    assert faults(record) == []


def test_a_seats_signed_commitment_and_seed_must_be_the_records():
    record = raw()
    st(record, 4)["commitment"] = other_hex(st(record, 4)["commitment"])
    st(record, 9)["seed"] = st(record, 9)["seed"].upper()  # the same seed
    st(record, 10)["seed"] = other_hex(st(record, 10)["seed"])
    assert faults(record) == [(MISMATCH, 4, "statement 4 (seat-receipt): seat 1's signed commitment differs from the "
                                            "record", (SEAT,)),
                              (MISMATCH, 10, "statement 10 (seat-reveal): seat 3's signed seed differs from the record",
                               (SEAT,))]


def test_a_reveal_before_the_last_commitment():
    record = raw()
    statements = record["fairness"]["statements"]
    statements[5], statements[6] = statements[6], statements[5]  # seat 0's reveal before seat 3's receipt
    st(record, 6)["time"], st(record, 7)["time"] = st(record, 7)["time"], st(record, 6)["time"]
    assert faults(record) == [(ORDER, 6, "statement 6 (seat-reveal): seat 0 revealed its seed before every seat had "
                                         "committed", ()),
                              (ORDER, 7, "statement 7 (seat-receipt) comes after a later phase", ())]


# --- order and time -------------------------------------------------------------------------

def test_a_statement_dated_before_the_one_before_it():
    record = raw()
    st(record, 8)["time"] = "2026-11-01T00:00:05.500Z"
    assert faults(record) == [(TIME, 8, "statement 8 (seat-reveal) is dated before the one before it", ())]


def test_the_same_time_twice_is_in_order():
    record = raw()
    st(record, 8)["time"] = st(record, 7)["time"]
    st(record, 9)["time"] = st(record, 7)["time"]
    assert faults(record) == []


def test_a_late_date_puts_every_later_statement_out_of_order():
    record = raw()
    st(record, 5)["time"] = "2026-11-02T00:00:00.000Z"  # the latest time so far is what the next must reach
    assert faults(record) == [(TIME, n, f"statement {n} ({KINDS[n]}) is dated before the one before it", ())
                              for n in range(6, 14)]


def test_a_statement_without_a_time_is_dated_before_and_does_not_reset_the_order():
    record = raw()
    del st(record, 8)["time"]
    st(record, 9)["time"] = "2026-11-01T00:00:05.500Z"  # before statement 7's
    assert faults(record) == [(TIME, 8, "statement 8 (seat-reveal) is dated before the one before it", ()),
                              (TIME, 9, "statement 9 (seat-reveal) is dated before the one before it", ())]


def test_a_phase_out_of_order_is_an_order_fault_not_a_time_fault():
    record = raw()
    statements = record["fairness"]["statements"]
    statements[10], statements[11] = statements[11], statements[10]  # record before deal
    st(record, 11)["time"], st(record, 12)["time"] = st(record, 12)["time"], st(record, 11)["time"]
    assert faults(record) == [(ORDER, 12, "statement 12 (deal) comes after a later phase", ())]
    st(record, 12)["time"] = "2026-11-01T00:00:00.000Z"  # and dated early: still the order fault only
    assert faults(record) == [(ORDER, 12, "statement 12 (deal) comes after a later phase", ())]


# --- the pinned key and the signatures -----------------------------------------------------------

def test_another_pinned_key_fails_every_statement_after_the_root_fault():
    other = SigningKey.from_hex("11" * 32).public_hex
    got = faults(raw(), public_key=other)
    assert got[0] == (SIGNATURE, None, "the record names another operator key than the one audited against", ())
    assert got[1:] == [(SIGNATURE, n, f"statement {n} ({KINDS[n]}): statement is signed by another key than the trusted "
                                      "operator key", (SIGNATURE,)) for n in range(1, 14)]
    with_signatures = faults(raw(), public_key=other, check_signatures=True)
    assert [f[:2] for f in with_signatures] == [(SIGNATURE, None)] + [(SIGNATURE, n) for n in range(1, 14)]
    assert all("statement is signed by another key than the operator's" in f[2] for f in with_signatures[1:])


def test_a_statement_under_another_key_in_the_record():
    record = raw()
    record["fairness"]["statements"][4]["key"] = SigningKey.from_hex("22" * 32).public_hex
    assert faults(record) == [(SIGNATURE, 5, "statement 5 (seat-receipt): statement is signed by another key than the "
                                            "trusted operator key", ())]


def test_a_bad_signature_is_a_signature_fault_only():
    record = raw()
    sig = bytearray(bytes.fromhex(record["fairness"]["statements"][3]["sig"]))
    sig[40] ^= 1
    record["fairness"]["statements"][3]["sig"] = sig.hex()
    assert faults(record) == []  # a log-bound audit leaves signatures to the checkpoint
    got = faults(record, check_signatures=True)
    assert got == [(SIGNATURE, 4, f"statement 4 (seat-receipt): signature does not verify under key {KEY[:16]}...: "
                                  "invalid signature", ())]


def test_an_edited_statement_fails_its_signature_and_is_not_also_missing():
    record = raw()
    st(record, 8)["seed"] = other_hex(st(record, 8)["seed"])
    got = faults(record, check_signatures=True)
    assert [f[:2] for f in got] == [(SIGNATURE, 8)]


@pytest.mark.parametrize("bad", [{"statement": "x", "key": KEY, "sig": "00"}, {"key": KEY}])
def test_a_statement_that_is_no_signed_statement(bad):
    record = raw()
    record["fairness"]["statements"][12] = bad
    want = [(SIGNATURE, 13, "statement 13: a signed statement needs 'statement', 'key' and 'sig'", ()),
            (MISMATCH, None, "the record carries no signed reveal statement", ())]
    assert faults(record) == want
    assert faults(record, check_signatures=True) == want


# --- what the first run of bench/mutation.py found unpinned -------------------------------------

def _resign(record: dict, numbers) -> None:
    """Statements ``numbers`` signed again, by another key (so their signatures fail under the record's)."""
    other = SigningKey.from_hex("33" * 32)
    for n in numbers:
        entry = record["fairness"]["statements"][n - 1]
        entry["sig"] = other.sign(entry["statement"])["sig"]


def test_signatures_are_checked_by_default():
    record = raw()
    _resign(record, [5])
    got = check_statements(parse_record(record))
    assert [(f.reason, f.statement) for f in got] == [(SIGNATURE, 5)]


def test_an_unknown_kind_early_does_not_stop_the_check():
    record = raw()
    st(record, 2)["kind"] = "bogus"
    st(record, 9)["seed"] = other_hex(st(record, 9)["seed"])
    assert faults(record) == [(MISMATCH, 2, "statement 2 (bogus) has unknown kind 'bogus'", ()),
                              (MISMATCH, 9, "statement 9 (seat-reveal): seat 2's signed seed differs from the record",
                               (SEAT,)),
                              (MISMATCH, None, "the record carries no signed commitment statement", ())]


def test_a_kind_that_is_no_string_is_not_named_as_one():
    record = raw()
    st(record, 2)["kind"] = 7
    assert faults(record)[0] == (MISMATCH, 2, "statement 2 has unknown kind 7", ())
    record = raw()
    st(record, 4)["kind"] = 7
    _resign(record, [4])
    assert faults(record, check_signatures=True)[0][:3] == (
        SIGNATURE, 4, f"statement 4: signature does not verify under key {KEY[:16]}...: invalid signature")


def test_a_badly_signed_statement_of_another_kind_reveals_no_seat():
    record = raw()
    del record["fairness"]["statements"][9]  # seat 3's reveal
    del record["fairness"]["log_proofs"][9]
    st(record, 10)["seat"] = 3  # the deal, now statement 10, says "seat 3" -- and is badly signed
    _resign(record, [10])
    got = faults(record, check_signatures=True)
    assert [f[:2] for f in got] == [(SIGNATURE, 10), (MISMATCH, None)]
    assert got[1][2] == "not every seat's reveal is signed"


def test_the_hand_statement_is_found_wherever_it_is_listed():
    record = raw()
    statements = record["fairness"]["statements"]
    statements[0], statements[1] = statements[1], statements[0]  # the commitment first, then the hand
    assert faults(record) == [(ORDER, 2, "statement 2 (hand) comes after a later phase", ())]  # receipts bind it


def test_an_unrevealed_record_needs_no_reveal_statement():
    record = raw()
    record["fairness"]["server_seed"] = None
    del record["fairness"]["statements"][12]
    del record["fairness"]["log_proofs"][12]
    assert faults(record) == []


def test_a_time_that_is_no_string_is_malformed_before_any_comparison():
    # a statement's time has one spelling, YYYY-MM-DDTHH:MM:SS.mmmZ (docs/records.md, 6c2ad52):
    # anything else -- a number here -- makes the record malformed where it is read, so the
    # statement check never compares it
    record = raw()
    st(record, 8)["time"] = 5
    with pytest.raises(MalformedError, match=r"statements\[7\]\.statement\.time: a statement's time is written exactly"):
        faults(record)


@pytest.mark.parametrize("name", ["kitti-golden-0.json", "marriage-nepal-golden-0.json"])
def test_a_format_2_record_binds_neither_moves_nor_hand_statement(name):
    record = json.loads((ROOT / "fixtures" / "records" / "legacy-v2" / name).read_text())
    assert faults(record) == []
    assert all("hand_hash" not in e["statement"] for e in record["fairness"]["statements"])


def test_a_format_1_records_receipts_bind_only_their_commitment():
    record = json.loads((ROOT / "fixtures" / "records" / "legacy-v2" / "kitti-golden-0.json").read_text())
    record["format"] = "tiplu.hand/1"
    record["fairness"].pop("log_proofs", None)
    for e in record["fairness"]["statements"]:
        e["statement"]["type"] = "tiplu.statement/1"
    for n in (3, 4, 5, 6):
        del st(record, n)["server_seed_commitment"], st(record, n)["ruleset_hash"]
    st(record, 12)["record_hash"] = parse_record(record).record_hash
    assert faults(record) == []


def test_the_records_own_strings_compare_in_any_case():
    record = raw()
    record["table"]["table_id"] = st(record, 1)["table_id"] = "Kitti-4P-T0"
    bound = canonical_hash(st(record, 1))
    for n in (3, 4, 5, 6):
        st(record, n)["hand_hash"] = bound
    st(record, 12)["record_hash"] = parse_record(record).record_hash
    assert faults(record) == []
    st(record, 1)["table_id"] = "kitti-4p-t0"  # the same name in other case
    for n in (3, 4, 5, 6):
        st(record, n)["hand_hash"] = canonical_hash(st(record, 1))
    assert faults(record) == []
