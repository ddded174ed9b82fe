"""Build and tamper with the log evidence of ``tiplu.hand/2`` records, in Python, for the
browser tests of web/static/verifier/tlogproof.mjs.

``bind(record)`` turns a record into a log-bound one: its statements (re-signed by ``KEY``,
optionally with other player names) are appended to an in-memory RFC 6962 log between
other leaves, a checkpoint is signed by ``KEY`` and every statement gets its C2SP
tlog-proof.  The tamper helpers below each perform one attack on such a record.
"""
from __future__ import annotations

import base64
import copy
import hashlib
import json
import pathlib
from datetime import datetime, timezone
from typing import Any

from audit.signing import SigningKey
from audit.tlog.checkpoint import sign_checkpoint
from audit.tlog.merkle import MemoryTree
from audit.tlog.store import leaf_entry

try:  # the contract's helper (audit/tlog/proof.py), once it has landed
    from audit.tlog.proof import format_tlog_proof
except ImportError:  # pragma: no cover - until then, the same text by hand
    def format_tlog_proof(index: int, path, checkpoint_text: str) -> str:
        lines = ["c2sp.org/tlog-proof@v1", f"index {index}", *(base64.b64encode(h).decode("ascii") for h in path)]
        return "\n".join(lines) + "\n\n" + checkpoint_text

ROOT = pathlib.Path(__file__).resolve().parents[2]
KEY = SigningKey.from_hex("5a" * 32)
OTHER = SigningKey.from_hex("a5" * 32)
ORIGIN = "tiplu.test/log"
NOW = datetime(2026, 12, 1, 12, 0, 0, tzinfo=timezone.utc)


def golden(name: str = "kitti/golden-0.json") -> dict[str, Any]:
    return json.loads((ROOT / "fixtures" / "records" / name).read_text(encoding="utf-8"))


def noise(n: int, tag: str) -> list[bytes]:
    return [json.dumps({"other": tag, "n": i}).encode() for i in range(n)]


def bind(record: dict[str, Any], *, key: SigningKey = KEY, names: dict[str, str] | None = None,
         before: int = 5, after: int = 2) -> dict[str, Any]:
    """A v2 record: the statements re-signed by ``key`` (players renamed by ``names``),
    logged at ``before``.. with ``after`` leaves behind them, each with its tlog-proof."""
    from replay.records import record_hash

    rec = copy.deepcopy(record)
    rec["format"] = "tiplu.hand/2"
    rec["table"]["public_key"] = key.public_hex
    if names:
        for seat in rec["table"]["seats"]:
            seat["player"] = names.get(seat["player"], seat["player"])
    signed = []
    for s in rec["fairness"]["statements"]:
        body = dict(s["statement"])
        if names and body.get("player") in names:
            body["player"] = names[body["player"]]
        if names and body.get("kind") == "hand":
            body["seats"] = [{**x, "player": names.get(x["player"], x["player"])} for x in body["seats"]]
        if body.get("kind") == "record":  # the record statement signs the record's core, which this changed
            body["record_hash"] = record_hash(rec)
        signed.append(key.sign(body))
    rec["fairness"]["statements"] = signed
    entries = noise(before, "before") + [leaf_entry(s) for s in signed] + noise(after, "after")
    rec["fairness"]["log_proofs"] = proofs_for(entries, before, len(signed), key)
    return rec


def proofs_for(entries: list[bytes], start: int, count: int, key: SigningKey) -> list[str]:
    tree = MemoryTree()
    for e in entries:
        tree.append(e)
    cp = sign_checkpoint(key, origin=ORIGIN, size=tree.size, root=tree.root())
    return [format_tlog_proof(i, tree.inclusion_proof(i), cp.text) for i in range(start, start + count)]


def leaf_hex(signed: dict[str, Any]) -> str:
    return hashlib.sha256(b"\x00" + leaf_entry(signed)).hexdigest()


def grind(rec, new_seed="ab" * 32, key=KEY):
    """The operator's re-signed grind: a fresh server seed after seeing the players' seeds,
    every statement that names it re-signed under the real key."""
    commitment = hashlib.sha256(bytes.fromhex(new_seed)).hexdigest()
    out = []
    for s in rec["fairness"]["statements"]:
        body = dict(s["statement"])
        if "server_seed_commitment" in body:
            body["server_seed_commitment"] = commitment
        if "server_seed" in body:
            body["server_seed"] = new_seed
        out.append(key.sign(body) if body != s["statement"] else s)
    rec["fairness"]["server_commitment"] = commitment
    rec["fairness"]["server_seed"] = new_seed
    return out


def resigned_grind(rec, key=KEY):
    honest = rec["fairness"]["statements"]
    rec["fairness"]["statements"] = forged = grind(rec, key=key)
    # every statement naming the server seed's commitment: commitment, deal, reveal (and,
    # in tiplu.hand/2, each seat-receipt) -- re-signed, so none is the leaf its proof is for
    changed = [k for k, (a, b) in enumerate(zip(honest, forged), start=1) if a is not b]
    assert len(changed) >= 3
    return {f"log:statement:{k}": "not_in_log" for k in changed}
