"""A player's receipt: their signed statement, and the proof it is in the operator's log.

A receipt is the signed statement (``statement``, ``key``, ``sig``) with ``format``,
``log_index``, ``checkpoint`` (signed note text) and ``inclusion_proof`` (hex hashes) added.
A bare signed statement proves what the operator said to this player; the inclusion proof
at a signed checkpoint proves the operator said it *publicly*, in the one append-only log
every monitor watches (RFC 9162).  :func:`receipt` makes one; :func:`verify_receipt`
checks it with the operator's public key alone and raises if anything does not hold.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Mapping

from replay.errors import MalformedError

from .errors import LedgerIntegrityError
from .signing import SigningKey, verify_statement
from .tlog.checkpoint import DEFAULT_ORIGIN, make_checkpoint, verify_checkpoint
from .tlog.merkle import leaf_hash, verify_inclusion
from .tlog.store import TransparencyLog, leaf_entry

RECEIPT_FORMAT = "tiplu.receipt/1"


def receipt(ledger: Any, signed: Mapping[str, Any], *, key: SigningKey, origin: str = DEFAULT_ORIGIN,
            now: datetime | None = None) -> dict[str, Any]:
    """The receipt of a statement already in ``ledger``: a fresh checkpoint and the proof."""
    log = TransparencyLog(ledger.db, migrate=False)
    entry = leaf_entry(signed)
    row = ledger.db.execute("SELECT seq FROM statements WHERE sig = ?", [signed["sig"]]).fetchone()
    if row is None:
        raise LedgerIntegrityError("the statement is not in the ledger")
    index = row[0] - 1
    if log.entry(index) != entry:
        raise LedgerIntegrityError("the log's leaf differs from the statement")
    cp = make_checkpoint(log, key, origin=origin, now=now or datetime.now(timezone.utc))
    return {
        **dict(signed),  # the signed statement itself: {"statement", "key", "sig"}
        "format": RECEIPT_FORMAT,
        "log_index": index,
        "checkpoint": cp.text,
        "inclusion_proof": [h.hex() for h in log.inclusion_proof(index, cp.size)],
    }


def verify_receipt(rec: Mapping[str, Any], public_key_hex: str) -> dict[str, Any]:
    """Check a receipt: signature, checkpoint signature, inclusion; returns the statement."""
    if not isinstance(rec, Mapping) or rec.get("format") != RECEIPT_FORMAT:
        raise MalformedError(f"a receipt has format {RECEIPT_FORMAT!r}")
    signed = {k: rec.get(k) for k in ("statement", "key", "sig")}
    statement = verify_statement(signed, public_key_hex)
    cp = verify_checkpoint(rec["checkpoint"], public_key_hex)
    try:
        path = [bytes.fromhex(h) for h in rec["inclusion_proof"]]
        index = int(rec["log_index"])
    except (TypeError, ValueError, KeyError):
        raise MalformedError("a receipt's inclusion proof is a list of hex hashes and its index an integer") from None
    verify_inclusion(leaf_hash(leaf_entry(signed)), index, cp.size, path, cp.root)
    return statement
