"""What a careful forger re-signs: a ``record`` statement made to say what a forged record says."""
from __future__ import annotations

from typing import Any

from replay.canonical import canonical_hash
from replay.movechain import chain_head
from replay.records import record_core


def bind_record(st: dict[str, Any], rec: dict[str, Any]) -> dict[str, Any]:
    """``st`` (a ``record`` statement, changed in place and returned) made to say what ``rec``
    says: the record hash and (format 3) the move chain's head over its moves."""
    st["record_hash"] = canonical_hash(record_core(rec))
    if "moves_head" in st:
        st["moves_head"], st["n_moves"] = chain_head(rec["hand_id"], rec["fairness"]["server_commitment"],
                                                     rec.get("moves", []))
    return st
