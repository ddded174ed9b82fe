"""The conformance cases of seat receipts (``tiplu receipt verify``, docs/records.md "Receipts"):
a receipt that agrees with the published record, each way a record can contradict it, and
each way a receipt fails to hold (then it is bad input: exit 2)."""
from __future__ import annotations

import base64
import copy
import json
from datetime import timedelta

import sqlite_utils

from audit.operator.receipts import receipt
from audit.operator.sim.tables import EPOCH
from audit.tlog.checkpoint import make_checkpoint
from audit.tlog.proof import format_tlog_proof, tlog_proof_parts
from audit.tlog.store import TransparencyLog

from conformance_primitives import case


def _seat_receipt(ledger, hand_id, seat):
    return next(s.signed for s in ledger.statements(hand_id)
                if s.kind == "seat-receipt" and s.signed["statement"]["seat"] == seat)


def receipt_cases(b, ledger, key, origins, golden, grind_record, other_key, other_record):
    base, origin = origins  # the log base the ledger is given, and the origin of its operator's log
    hand_id = golden["hand_id"]
    seat = 1
    now = EPOCH + timedelta(days=40)
    rc = receipt(ledger, _seat_receipt(ledger, hand_id, seat), key=key, origin=base, now=now)
    rc_ref = b.add_file("receipts/seat-1.json", rc)
    st = golden["fairness"]["statements"]
    k = next(i for i, s in enumerate(st) if s["statement"]["kind"] == "seat-receipt" and s["statement"]["seat"] == seat)

    def edited(name, fn):
        rec = copy.deepcopy(golden)
        fn(rec)
        return b.add_file(f"receipts/records/{name}.json", rec)

    def add(name, rec_ref, exit_status, contradictions, about, *, receipt_ref=rc_ref, public_key=key.public_hex,
            catches=()):
        b.cases.append(case(f"receipt/{name}", "receipt", "receipt",
                            {"receipt": receipt_ref, "record": rec_ref, "public_key": public_key},
                            {"exit": exit_status, "contradictions": sorted(contradictions)}, about=about,
                            catches=catches))

    golden_ref = {"file": b.main[0][0]}
    add("agrees", golden_ref, 0, [], "the published record holds the receipt's statements at the same leaves, "
        "under a checkpoint of the same log, and binds the same commitments")

    def drop(rec):
        del rec["fairness"]["statements"][k]
        del rec["fairness"]["log_proofs"][k]
    add("missing-statement", edited("missing-statement", drop), 1, ["missing_statement"],
        "the record leaves out the seat's seat-receipt statement", catches=["receipt-skip-statements"])

    def other_statement(rec):
        s = dict(rec["fairness"]["statements"][k]["statement"], time="2026-11-01T00:00:59.000Z")
        rec["fairness"]["statements"][k] = key.sign(s)
    add("different-statement", edited("different-statement", other_statement), 1, ["different_statement"],
        "the record's seat-receipt for this seat is another signed statement (another time)",
        catches=["receipt-skip-statements"])

    def other_index(rec):
        p = rec["fairness"]["log_proofs"][k]
        index, path, cp = tlog_proof_parts(p)
        rec["fairness"]["log_proofs"][k] = format_tlog_proof(index + 1, list(path), cp)
    add("different-index", edited("different-index", other_index), 1, ["different_index"],
        "the record's proof puts the statement at another leaf index", catches=["receipt-skip-index"])

    def bad_proof(rec):
        p = rec["fairness"]["log_proofs"][k]
        index, path, cp = tlog_proof_parts(p)
        rec["fairness"]["log_proofs"][k] = format_tlog_proof(index, [bytes(32)] + list(path[1:]), cp)
    add("bad-record-proof", edited("bad-record-proof", bad_proof), 1, ["bad_record_proof"],
        "the record's proof of the statement does not lead to the record's checkpoint root",
        catches=["receipt-skip-record-proof"])
    for field, name in (("server_commitment", "server_commitment"), ("ruleset_hash", "ruleset_hash")):
        add(f"other-{field.replace('_', '-')}", edited(f"other-{field}", lambda r, f=field: r["fairness"].update({f: "ab" * 32})),
            1, [name], f"the record's fairness.{field} is not the one the receipt's statements bind",
            catches=[f"receipt-skip-{name.replace('_', '-')}"])
    add("other-seat-commitment",
        edited("other-seat-commitment", lambda r: r["fairness"]["seat_commitments"].__setitem__(seat, "cd" * 32)),
        1, ["seat_commitment"], "the record's commitment of this seat is not the receipt's",
        catches=["receipt-skip-seat-commitment"])
    if any(s["statement"]["kind"] == "hand" for s in rc["statements"]):  # format 3: the terms and names
        table = golden["table"]
        for name, fn, what, about in (
                ("point-value", lambda r: r["table"].update(point_value="0.50"), ["point_value"],
                 "the record's stake differs from the logged hand statement's"),
                ("commission", lambda r: r["table"].update(commission_pct="10"), ["commission_pct"],
                 "the record's commission differs from the logged hand statement's"),
                ("dealer", lambda r: r["table"].update(dealer=(table["dealer"] + 1) % len(table["seats"])), ["dealer"],
                 "the record's dealer differs from the logged hand statement's"),
                ("seat-name", lambda r: r["table"]["seats"][0].update(player="mallory"), ["seat_name"],
                 "another player's name in seat 0 than the logged hand statement's"),
                ("seats", lambda r: r["table"]["seats"].pop(), ["seat_name", "seats"],
                 "the record has one seat fewer than the logged hand statement (so the last seat has no name either)")):
            add(f"terms-{name}", edited(f"terms-{name}", fn), 1, what, about, catches=["receipt-skip-terms"])
    if "moves_head" in next(s["statement"] for s in golden["fairness"]["statements"]
                            if s["statement"]["kind"] == "record"):  # format 3: move receipts (--moves)
        from audit.operator.ledger.moves import move_receipt
        from replay.movechain import chain_heads
        heads = chain_heads(hand_id, golden["fairness"]["server_commitment"], golden["moves"])
        mrs = [move_receipt(key, hand_id, n + 1, h, golden["moves"][n].get("time", golden["fairness"]["statements"][0]
                                                                           ["statement"]["time"]))
               for n, h in enumerate(heads)]
        mref = b.add_file("receipts/move-receipts.json", json.dumps(mrs, indent=1) + "\n")
        b.cases.append(case("receipt/moves-agree", "receipt", "receipt",
                            {"receipt": rc_ref, "record": golden_ref, "public_key": key.public_hex,
                             "move_receipts": mref}, {"exit": 0, "contradictions": []},
                            about="every move receipt the seat kept is the head of the record's moves"))

        def other_time(rec):
            rec["moves"][0]["time"] = "2026-11-01T00:00:00.001Z"
        b.cases.append(case("receipt/moves-other", "receipt", "receipt",
                            {"receipt": rc_ref, "record": edited("moves-other", other_time),
                             "public_key": key.public_hex, "move_receipts": mref},
                            {"exit": 1, "contradictions": ["moves"]},
                            about="the record's first move has another time than the seat was given a receipt "
                                  "for: the moves contradict the receipts (one contradiction, moves)", catches=["receipt-skip-moves"]))
    grind = json.loads(b.files[grind_record])
    rc_grind = receipt(ledger, _seat_receipt(ledger, grind["hand_id"], seat), key=key, origin=base, now=now)
    add("grind", {"file": grind_record}, 1, ["different_statement", "different_statement", "server_commitment"],
        "the re-signed grind (issue #15): the operator re-signed the hand for another server seed after "
        "the seeds were seen; the seat's receipt proves the record forged",
        receipt_ref=b.add_file("receipts/grind-seat-1.json", rc_grind), catches=["receipt-skip-server-commitment"])

    # a second tree of the same size: the same leaves but one the receipt does not hold (a
    # tiplu.receipt/3 holds leaf 0, the hand statement), signed by the same key
    main = TransparencyLog(ledger.db, migrate=False)
    size = tlog_proof_parts(golden["fairness"]["log_proofs"][0])[2]
    cp_size = int(size.split("\n")[1])
    held = {i for i, _, _ in (tlog_proof_parts(p) for p in rc["log_proofs"])}
    other = min(set(range(cp_size)) - held)
    fork = TransparencyLog(sqlite_utils.Database(memory=True))
    for i in range(cp_size):
        fork.append(b"a different leaf" if i == other else main.entry(i))
    cp = make_checkpoint(fork, key, origin=origin, now=now)
    forked_rc = copy.deepcopy(rc)
    forked_rc["log_proofs"] = [format_tlog_proof(i, fork.inclusion_proof(i, cp.size), cp.text)
                               for i, _, _ in (tlog_proof_parts(p) for p in rc["log_proofs"])]
    add("fork", golden_ref, 1, ["fork"], "the receipt's checkpoint and the record's are of one size with two roots: "
        "the operator signed two trees", receipt_ref=b.add_file("receipts/seat-1-forked.json", forked_rc),
        catches=["receipt-skip-fork"])

    def other_cp_key(rec):
        proofs = []
        text = tlog_proof_parts(rec["fairness"]["log_proofs"][0])[2]
        body = text[: text.index("\n\n") + 1]
        sig = base64.b64decode(text[text.index("\n\n") + 2:].split(" ")[2])
        from audit.tlog.checkpoint import note_key_id
        new = body + "\n\u2014 " + origin + " " + base64.b64encode(
            note_key_id(origin, other_key.public_hex) + bytes.fromhex(other_key.sign_bytes(body.encode()))).decode() + "\n"
        assert len(sig) == 68
        for p in rec["fairness"]["log_proofs"]:
            index, path, _ = tlog_proof_parts(p)
            proofs.append(format_tlog_proof(index, list(path), new))
        rec["fairness"]["log_proofs"] = proofs
    add("record-checkpoint-other-key", edited("record-checkpoint-other-key", other_cp_key), 1, ["record_checkpoint"],
        "the record's checkpoint is signed by another key than the pinned one",
        catches=["receipt-skip-record-checkpoint"])
    add("receipt-other-key", golden_ref, 2, [], "the pinned key is not the one that signed the receipt: the receipt "
        "does not hold, so it is no evidence (bad input)", public_key=other_key.public_hex, catches=["trust-record-key"])
    add("other-hand", {"file": other_record}, 2, [], "a record of another hand (bad input)")
    def relogged(name, statements, order, about):
        """A receipt whose statements the operator logged in ``order`` in a tree of its own (the
        receipt's proofs and checkpoint are that tree's): it must not hold."""
        tree = TransparencyLog(sqlite_utils.Database(memory=True))
        index = {}
        for k in order:
            index[k] = tree.append_statement(statements[k])
        cp = make_checkpoint(tree, key, origin=origin, now=now)
        out = dict(copy.deepcopy(rc), statements=statements,
                   log_proofs=[format_tlog_proof(index[k], tree.inclusion_proof(index[k], cp.size), cp.text)
                               for k in range(len(statements))])
        add(name, golden_ref, 2, [], about, receipt_ref=b.add_file(f"receipts/{name}.json", out))

    kinds = [s["statement"]["kind"] for s in rc["statements"]]
    c, s = kinds.index("commitment"), kinds.index("seat-receipt")
    order = list(range(len(kinds)))
    order[c], order[s] = order[s], order[c]
    relogged("receipt-commitment-after", rc["statements"], order, "the commitment was logged after the seat's "
             "receipt: the seat committed before the server did, so the receipt does not hold")
    rebound = copy.deepcopy(rc["statements"])
    rebound[s] = key.sign(dict(rebound[s]["statement"], server_seed_commitment="ef" * 32))
    relogged("receipt-binds-other-commitment", rebound, list(range(len(kinds))), "the seat-receipt binds another "
             "server commitment than the logged commitment statement: the receipt does not hold")
    if "hand" in kinds:  # format 3: the hand statement seats the receipt's player
        h = kinds.index("hand")
        renamed = copy.deepcopy(rc["statements"])
        hand = dict(renamed[h]["statement"])
        hand["seats"] = [dict(x, player="mallory") if x["seat"] == seat else x for x in hand["seats"]]
        renamed[h] = key.sign(hand)
        from replay.canonical import canonical_hash
        renamed[s] = key.sign(dict(renamed[s]["statement"], hand_hash=canonical_hash(hand)))
        relogged("receipt-hand-seats-another", renamed, list(range(len(kinds))), "the logged hand statement seats "
                 "another player at the receipt's seat than the seat-receipt names: the receipt does not hold")
    broken = copy.deepcopy(rc)
    broken["statements"][1]["sig"] = broken["statements"][1]["sig"][:-2] + (
        "00" if broken["statements"][1]["sig"][-2:] != "00" else "01")
    add("receipt-bad-signature", golden_ref, 2, [], "the receipt's seat-receipt signature is broken: the receipt "
        "does not hold", receipt_ref=b.add_file("receipts/seat-1-bad-signature.json", broken))
