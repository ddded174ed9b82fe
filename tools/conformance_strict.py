"""Cases where a lenient reader and a strict one disagree (docs/conformance.md, "Reading
strictly"): a number written with a fraction or an exponent, a statement time in another
ISO-8601 spelling, a pinned key that is not one of the pinned policy's logs.  Each pins one
rule of docs/records.md on which the Python audit and the browser verifier once differed."""
from __future__ import annotations

import copy
import re

from conformance_primitives import case
from conformance_records import NOW, OTHER_ORIGIN, Builder, dump, relog, verdict
from audit.signing import SigningKey


def integral_float_cases(b: Builder, trust: dict, golden: dict) -> None:
    """``1.0`` is not the integer 1: a record writes every number as an integer."""
    dealer = golden["table"]["dealer"]
    edited = copy.deepcopy(golden)
    edited["table"]["dealer"] = float(dealer)
    ref = b.add_file("records/edited/dealer-as-float.json", edited)
    b.audit_case("record/integral-float-dealer", [ref], [verdict(False, "malformed")], trust=trust,
                 about=f"table.dealer written {float(dealer)!r} instead of {dealer}: a number with a fraction is "
                       "not an integer, even when its value is whole (JSON.parse alone cannot tell)")
    text, n = re.subn(r'("seat": )1(,?\n)', r"\g<1>1e0\g<2>", dump(golden), count=1)
    assert n == 1, "the golden record has a seat 1"
    ref = b.add_file("records/edited/seat-with-exponent.json", text)
    b.audit_case("record/integral-exponent-seat", [ref], [verdict(False, "malformed")], trust=trust,
                 about="the first `\"seat\": 1` written `1e0`: a number with an exponent is not an integer")


def basic_time_case(b: Builder, key: SigningKey, golden: dict) -> None:
    """A statement time in ISO-8601's basic format: not the documented spelling."""
    st = copy.deepcopy(golden["fairness"]["statements"])
    i = [s["statement"]["kind"] for s in st].index("reveal")
    t = st[i]["statement"]["time"]  # YYYY-MM-DDTHH:MM:SS.mmmZ
    basic = t[0:4] + t[5:7] + t[8:10] + "T" + t[11:13] + t[14:16] + t[17:]
    st[i] = key.sign(dict(st[i]["statement"], time=basic))
    origin = "conformance.tiplu.example/basic-format-time"
    rec, _, _ = relog(golden, st, key, origin)
    ref = b.add_file("records/forged/basic-format-time.json", rec)
    b.audit_case("record/time-basic-format", [ref], [verdict(False, "malformed")],
                 trust={"public_key": key.public_hex, "origin": origin},
                 about=f"the reveal is dated {basic} (ISO-8601 basic format, signed and logged): a statement time is "
                       "written exactly YYYY-MM-DDTHH:MM:SS.mmmZ, and no other spelling is read")


def trust_outside_policy_case(b: Builder, trust: dict, other: SigningKey, policy_tail: str) -> None:
    """The pinned key is not one of the pinned policy's logs: bad usage, exit 2, nothing audited."""
    from audit.tlog.note import Vkey
    log_vkey = str(Vkey.for_key(OTHER_ORIGIN, 0x01, bytes.fromhex(other.public_hex)))
    pref = b.add_file("policies/other-log.txt", f"log {log_vkey}\n\n" + policy_tail)
    inp = {"records": [{"file": b.main[0][0]}], "one_log": False, "trust": trust, "now": NOW, "policy": pref}
    b.cases.append(case("witness/policy-other-log", "audit", "record", inp, {"exit": 2, "verdicts": [], "log_failures": []},
                        about="the trusted key is not a log of the pinned policy (its one log is another key's): "
                              "the two pins contradict each other, so nothing is audited (exit 2, bad usage)",
                        requires=["policy", "record", "witnesses"]))


def zero_point_value_case(b: Builder, key: SigningKey, golden: dict) -> None:
    """A table at point value 0, signed, logged and consistent everywhere else (the payouts all
    0.00, the hand statement and its receipts' hash, the record statement re-signed): no ledger
    makes such a table, so the record is malformed (docs/records.md, "Table money")."""
    from audit.operator.sim.resign import bind_record
    from replay.canonical import canonical_hash

    rec = copy.deepcopy(golden)
    rec["table"]["point_value"] = "0"
    pay = rec["outcome"]["payouts"]
    for name in ("gross", "nets"):
        if name in pay:
            pay[name] = ["0.00"] * len(pay[name])
    pay["commission"] = "0.00"
    if "pot_delta" in pay:
        pay["pot_delta"] = "0.00"
    st = copy.deepcopy(golden["fairness"]["statements"])
    kinds = [s["statement"]["kind"] for s in st]
    h = kinds.index("hand")
    st[h] = key.sign(dict(st[h]["statement"], point_value="0"))
    for i, kind in enumerate(kinds):
        if kind == "seat-receipt" and "hand_hash" in st[i]["statement"]:
            st[i] = key.sign(dict(st[i]["statement"], hand_hash=canonical_hash(st[h]["statement"])))
    r = kinds.index("record")
    st[r] = key.sign(bind_record(dict(st[r]["statement"]), rec))
    origin = "conformance.tiplu.example/zero-point-value"
    rec, _, _ = relog(rec, st, key, origin)
    ref = b.add_file("records/forged/zero-point-value.json", rec)
    b.audit_case("record/zero-point-value", [ref], [verdict(False, "malformed")],
                 trust={"public_key": key.public_hex, "origin": origin}, catches=["lenient-point-value"],
                 about="table.point_value is \"0\" (signed, logged, every payout 0.00): a point value is more than 0, "
                       "no ledger makes such a table, so the record is malformed rather than a hand that audits clean")


def key_upper_case_case(b: Builder, trust: dict, golden: dict) -> None:
    """The record's shape is its schema's (generated from the record model): the table's key
    written in upper-case hex is malformed, though hex reads either case elsewhere."""
    edited = copy.deepcopy(golden)
    edited["table"]["public_key"] = golden["table"]["public_key"].upper()
    ref = b.add_file("records/edited/key-upper-case.json", edited)
    b.audit_case("record/key-upper-case", [ref], [verdict(False, "malformed")], trust=trust, catches=["skip-schema"],
                 about="table.public_key written in upper-case hex: a record writes its hex in lower case (the record's "
                       "JSON Schema, audit/schemas/hand-record.schema.json), so the record is malformed before anything "
                       "is compared")
