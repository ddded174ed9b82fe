"""A world for the timing tests (CLI, API and browser): a ledger; its honest record of HID
cosigned by a real witness (audit.tlog.witness.Witness); the operator's private-tree grind of
HID (audit.operator.sim.grind, "private"), which that witness refuses to cosign; and two auditor's
policies: one witness required, and none."""
from __future__ import annotations

import json
from pathlib import Path

from audit.operator.ledger import Ledger
from audit.operator.publish import published_record
from audit.signing import SigningKey
from audit.operator.sim.archive import simulate_archive
from audit.operator.sim.grind import resigned_grind
from audit.tlog.cosignature import witness_vkey
from audit.tlog.note import TYPE_ED25519, Vkey
from audit.tlog.witness import Witness, WitnessedLog, WitnessRefusal

HID = "kitti-4p-t0-h0001"


def _checkpoint(record: dict) -> str:
    return record["fairness"]["log_proofs"][0].split("\n\n", 1)[1]


def _with_line(record: dict, line: str) -> dict:
    """The record with a cosignature line added to the checkpoint every proof carries."""
    rec = json.loads(json.dumps(record))
    rec["fairness"]["log_proofs"] = [p + line for p in rec["fairness"]["log_proofs"]]
    return rec


def build_world(tmp: Path) -> dict:
    path = tmp / "ledger.db"
    with Ledger(str(path), create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 3)], seed="grind")
        key = ledger.public_key("demo-operator")
        honest = published_record(ledger, HID)
        forged = resigned_grind(ledger, HID, shill=0, evidence="private")
    origin = _checkpoint(honest).split("\n", 1)[0]
    log_vkey = Vkey.for_key(origin, TYPE_ED25519, bytes.fromhex(key))
    wkey = SigningKey.from_hex("11" * 32)
    witness = Witness(tmp / "witness.db", wkey, "witness.test/w1", {origin: WitnessedLog(origin, (log_vkey,))})
    line = witness.add_checkpoint(b"old 0\n\n" + _checkpoint(honest).encode())
    refusal = None
    try:
        witness.add_checkpoint(b"old 0\n\n" + _checkpoint(forged).encode())
    except WitnessRefusal as exc:
        refusal = exc
    witness.close()
    w = witness_vkey("witness.test/w1", wkey.public_hex)
    policies = {"one-witness": f"log {log_vkey}\nwitness w1 {w}\nquorum w1\n",
                "no-witness": f"log {log_vkey}\nquorum none\n"}
    files = {}
    for name, text in policies.items():
        files[name] = tmp / f"{name}.policy"
        files[name].write_text(text)
    for name, rec in {"forged": forged, "honest": _with_line(honest, line)}.items():
        files[name] = tmp / f"{name}.json"
        files[name].write_text(json.dumps(rec))
    return {"path": path, "key": key, "honest": _with_line(honest, line), "forged": forged,
            "refusal": refusal, "files": files, "policies": policies}
