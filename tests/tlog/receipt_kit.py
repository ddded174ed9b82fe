"""A hand through the real ledger up to its seat receipts, finished honestly, and the
re-signed grind of issue #15 performed on it (shared by the receipt tests, Python and browser)."""
from __future__ import annotations

import copy
import hashlib
from datetime import datetime, timedelta, timezone

from audit.operator.ledger import Ledger
from audit.operator.publish import published_record
from audit.operator.receipts import receipt
from audit.signing import SigningKey
from audit.operator.sim.resign import bind_record
from audit.tlog.checkpoint import make_checkpoint
from audit.tlog.proof import format_tlog_proof
from audit.tlog.store import TransparencyLog
from replay.fairness import commit_player_seed, commit_server_seed

KEY = SigningKey.from_hex("22" * 32)
T0 = datetime(2026, 11, 30, 14, 0, tzinfo=timezone.utc)


def seed(s: int) -> bytes:
    return bytes([s + 1]) * 16


def honest_hand(ledger: Ledger, hand_id: str = "h1"):
    """Up to the seat commitments: the seats' receipts."""
    ledger.new_hand("t", ["a", "b", "c"], hand_id=hand_id, now=T0)
    ledger.commit(hand_id, now=T0)
    return [receipt(ledger, ledger.seed_commit(hand_id, s, commit_player_seed(hand_id, s, seed(s)), now=T0),
                    key=KEY, now=T0) for s in range(3)]


def finish_honestly(ledger: Ledger, hand_id: str = "h1") -> dict:
    """Reveal the seeds, deal, attach a (minimal) record, reveal: the published v3 record."""
    for s in range(3):
        ledger.seed_reveal(hand_id, s, seed(s), now=T0)
    ledger.deal(hand_id, now=T0)
    view = ledger.get_hand(hand_id)
    table = ledger.table(view.table_id)
    ledger.finish(hand_id, {"hand_id": hand_id, "format": "tiplu.hand/3",
                            "table": {"table_id": view.table_id, "operator": view.operator, "dealer": view.dealer,
                                      "seats": [{"seat": s.seat, "player": s.player} for s in view.seats],
                                      "point_value": table.point_value, "commission_pct": table.commission_pct},
                            "fairness": {"server_commitment": view.server_seed_commitment}, "moves": []}, now=T0)
    ledger.reveal(hand_id, now=T0)
    rec = published_record(ledger, hand_id)
    f = rec["fairness"]
    view = ledger.get_hand(hand_id)
    f.update({"ruleset_hash": view.ruleset_hash, "seat_commitments": [s.commitment for s in view.seats]})
    assert len(f["log_proofs"]) == len(f["statements"])  # published log-bound (tiplu.hand/3)
    return rec


def resigned_grind(ledger: Ledger, honest: dict, *, key: SigningKey = KEY) -> dict:
    """The attack of issue #15: having seen every seed, the operator picks a new server seed,
    re-signs every statement of the hand for it, logs them, and publishes that record."""
    forged = copy.deepcopy(honest)
    f = forged["fairness"]
    s2 = hashlib.sha256(b"ground until the shill wins").digest()
    c2 = commit_server_seed(s2)
    f["server_commitment"], f["server_seed"] = c2, s2.hex()
    log = TransparencyLog(ledger.db, migrate=False)
    out = []
    for signed in f["statements"]:
        st = dict(signed["statement"])
        if "server_seed_commitment" in st:
            st["server_seed_commitment"] = c2
        if st["kind"] == "reveal":
            st["server_seed"] = s2.hex()
        if st["kind"] == "record":
            bind_record(st, forged)
        new = key.sign(st)
        log.append_statement(new)  # the forger logs its statements: they are real leaves
        out.append(new)
    f["statements"] = out
    cp = make_checkpoint(log, key, origin="tiplu.local/log", now=T0 + timedelta(hours=2))
    size = log.size()
    f["log_proofs"] = [format_tlog_proof(size - len(out) + k, log.inclusion_proof(size - len(out) + k, cp.size),
                                         cp.text) for k in range(len(out))]
    return forged



def new_ledger() -> tuple[Ledger, list[dict]]:
    """A ledger with one kitti hand of three seats up to its seat commitments, and their receipts."""
    ledger = Ledger(":memory:")
    ledger.new_operator("op", key=KEY, now=T0)
    ledger.new_table("t", operator="op", preset="kitti", seats=3, now=T0)
    return ledger, honest_hand(ledger)
