"""A forger's private log: log evidence for statements the operator's real log never held.

:func:`forge_log` builds a Merkle tree over a record's statements (after filler leaves),
signs a checkpoint over it with the operator's own key and replaces the record's log
proofs with proofs from that tree.  The tampering classes (:mod:`.tamper`) and the re-signed
grind (:mod:`.grind`) both use it; its own module so that those two do not import each other.
"""
from __future__ import annotations

from typing import Any

from ...signing import SigningKey


def forge_log(rec: dict[str, Any], key: SigningKey, *, first_index: int = 0) -> dict[str, Any]:
    """Give ``rec`` log evidence from a forger's private log: a tree whose leaves
    ``first_index ..`` are the record's statements (earlier leaves filler), and a checkpoint
    over it signed by ``key`` under the origin of the record's own checkpoint.
    Self-consistent: only the operator's real log (or a pinned key) tells it apart."""
    from ...tlog.checkpoint import DEFAULT_ORIGIN, parse_checkpoint, sign_checkpoint
    from ...tlog.merkle import MemoryTree
    from ...tlog.proof import format_tlog_proof, parse_tlog_proof
    from ...tlog.store import leaf_entry

    f = rec["fairness"]
    origin = DEFAULT_ORIGIN
    try:
        origin = parse_checkpoint(parse_tlog_proof(f["log_proofs"][-1]).checkpoint_text, legacy=True).origin
    except Exception:  # noqa: BLE001 - no usable evidence to imitate: the default
        pass
    tree = MemoryTree()
    for i in range(first_index):
        tree.append(b"filler %d" % i)
    for signed in f["statements"]:
        tree.append(leaf_entry(signed))
    cp = sign_checkpoint(key, origin=origin, size=tree.size, root=tree.root())
    f["log_proofs"] = [format_tlog_proof(first_index + k, tree.inclusion_proof(first_index + k), cp.text)
                       for k in range(len(f["statements"]))]
    return rec


__all__ = ["forge_log"]
