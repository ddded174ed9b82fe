"""A player's receipt (``tiplu.receipt/2``): what the operator told this seat, proved to be in its log.

A receipt holds signed statements of one hand, each with its log evidence, exactly as a
``tiplu.hand/2`` record holds them (``docs/records.md``)::

    {"format": "tiplu.receipt/2", "hand_id": "h1", "seat": 0,
     "statements": [<signed commitment>, <signed seat-receipt>],
     "log_proofs":  ["c2sp.org/tlog-proof@v1\\nindex 1\\n...", "c2sp.org/tlog-proof@v1\\nindex 4\\n..."]}

A *seat receipt* (what ``seed-commit`` answers) holds the hand's server ``commitment``
statement and the seat's own ``seat-receipt``, which binds that commitment
(``server_seed_commitment``) and the ruleset hash; both proofs carry one checkpoint signed
by the operator.  So the player can check, with the operator key they pinned and nothing
else, that the commitment they were shown is in the public log *before* they reveal their
seed (:func:`check_before_reveal`), and later whether a published record contradicts it
(:mod:`audit.receipt_check`).  A ``seat-reveal`` receipt holds that one statement.

:func:`receipt` makes one from the ledger; :func:`verify_receipt` checks one and returns
a :class:`Receipt`, raising :class:`ReceiptError` (a :class:`MalformedError`) when it does
not hold.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Mapping

from replay.errors import MalformedError

from .errors import LedgerIntegrityError, ProofError, SignatureError
from .signing import SigningKey, verify_statement
from .tlog.checkpoint import (DEFAULT_ORIGIN, Checkpoint, accepts_legacy_time, make_checkpoint, parse_checkpoint,
                              verify_checkpoint)
from .tlog.merkle import leaf_hash, verify_inclusion
from .tlog.proof import format_tlog_proof, parse_tlog_proof
from .tlog.store import TransparencyLog, leaf_entry
from .consttime import same_text

RECEIPT_FORMAT = "tiplu.receipt/2"


class ReceiptError(MalformedError):
    """A receipt that does not hold: it is no evidence of anything (one sentence why)."""


@dataclass(frozen=True)
class Receipt:
    """A verified receipt: its statements (parsed), their leaf indices and the checkpoint."""

    hand_id: str
    seat: int | None
    signed: tuple[Mapping[str, Any], ...]
    statements: tuple[dict[str, Any], ...]
    indices: tuple[int, ...]
    checkpoint: Checkpoint

    def of_kind(self, kind: str) -> list[tuple[int, dict[str, Any], Mapping[str, Any]]]:
        """``(leaf index, statement, signed)`` of every statement of ``kind``."""
        return [(i, st, sg) for i, st, sg in zip(self.indices, self.statements, self.signed) if st.get("kind") == kind]

    @property
    def server_commitment(self) -> str | None:
        found = self.of_kind("commitment")
        return found[0][1].get("server_seed_commitment") if found else None

    @property
    def ruleset_hash(self) -> str | None:
        found = self.of_kind("commitment") or self.of_kind("seat-receipt")
        return found[0][1].get("ruleset_hash") if found else None

    @property
    def seat_commitment(self) -> str | None:
        found = self.of_kind("seat-receipt")
        return found[0][1].get("commitment") if found else None


def _covering_checkpoint(log: TransparencyLog, size: int, key: SigningKey, origin: str, now: datetime) -> Checkpoint:
    """The latest stored checkpoint of ``origin`` when it covers ``size`` leaves, else a new one."""
    latest = log.latest_checkpoint()
    if latest is not None:
        cp = parse_checkpoint(latest, legacy=True)
        if cp.size >= size and cp.origin == origin and cp.legacy_time is None:  # never hand out a legacy body
            return cp
    return make_checkpoint(log, key, origin=origin, now=now)


def _index_of(ledger: Any, signed: Mapping[str, Any]) -> int:
    row = ledger.db.execute("SELECT seq FROM statements WHERE sig = ?", [signed["sig"]]).fetchone()
    if row is None:
        raise LedgerIntegrityError("the statement is not in the ledger")
    return int(row[0]) - 1


def receipt(ledger: Any, signed: Mapping[str, Any], *, key: SigningKey, origin: str = DEFAULT_ORIGIN,
            now: datetime | None = None) -> dict[str, Any]:
    """The receipt of a statement already in ``ledger``; for a ``seat-receipt`` it also holds
    the hand's ``commitment`` statement.  All proofs are at one checkpoint signed by ``key``
    (the latest one when it covers the statement, else one signed now)."""
    st = signed["statement"]
    hand_id = st["hand_id"]
    chosen = [signed]
    if st.get("kind") == "seat-receipt":
        commitment = next((s.signed for s in ledger.statements(hand_id) if s.kind == "commitment"), None)
        if commitment is None:
            raise LedgerIntegrityError(f"hand {hand_id!r} has no commitment statement")
        chosen = [commitment, signed]
    log = TransparencyLog(ledger.db, migrate=False)
    indices = [_index_of(ledger, s) for s in chosen]
    for index, s in zip(indices, chosen):
        if log.entry(index) != leaf_entry(s):
            raise LedgerIntegrityError(f"log leaf {index} differs from the statement")
    cp = _covering_checkpoint(log, max(indices) + 1, key, origin, now or datetime.now(timezone.utc))
    out: dict[str, Any] = {"format": RECEIPT_FORMAT, "hand_id": hand_id}
    if isinstance(st.get("seat"), int):
        out["seat"] = st["seat"]
    out["statements"] = [dict(s) for s in chosen]
    out["log_proofs"] = [format_tlog_proof(i, log.inclusion_proof(i, cp.size), cp.text) for i in indices]
    return out


def _same(a: Any, b: Any) -> bool:
    return isinstance(a, str) and isinstance(b, str) and same_text(a.lower(), b.lower())


def verify_receipt(rec: Any, public_key_hex: str, *, origin: str | None = None) -> Receipt:
    """Check a receipt under the operator key the player pinned; the :class:`Receipt` or
    :class:`ReceiptError`.

    Checks: the shape; one checkpoint for every proof, signed by that key (and of ``origin``
    when given); each statement signed by that key and exactly the leaf at its proof's index;
    every statement about one hand; and for a ``seat-receipt``: the hand's ``commitment`` is
    in the receipt, logged before it, and the seat-receipt binds that commitment's server
    commitment and ruleset hash."""
    if not isinstance(rec, Mapping) or rec.get("format") != RECEIPT_FORMAT:
        raise ReceiptError(f"a receipt is a JSON object with format {RECEIPT_FORMAT!r}")
    signed, proofs = rec.get("statements"), rec.get("log_proofs")
    if not isinstance(signed, list) or not isinstance(proofs, list) or not signed or len(signed) != len(proofs):
        raise ReceiptError("a receipt holds statements and one log proof for each")
    try:
        parsed = [parse_tlog_proof(p) for p in proofs]
    except MalformedError as exc:
        raise ReceiptError(f"a receipt's log proof does not parse: {exc}") from None
    if len({p.checkpoint_text for p in parsed}) != 1:
        raise ReceiptError("a receipt's proofs carry different checkpoints")
    try:
        cp = verify_checkpoint(parsed[0].checkpoint_text, public_key_hex, origin=origin,
                               legacy=accepts_legacy_time(rec.get("format")))
    except (SignatureError, MalformedError) as exc:
        raise ReceiptError(f"the receipt's checkpoint does not verify under the pinned key: {exc}") from None
    statements = []
    for n, (s, p) in enumerate(zip(signed, parsed)):
        try:
            statements.append(verify_statement(s, public_key_hex))
            verify_inclusion(leaf_hash(leaf_entry(s)), p.index, cp.size, list(p.path), cp.root)
        except (SignatureError, ProofError, MalformedError, TypeError, KeyError) as exc:
            raise ReceiptError(f"the receipt's statement {n} is not proved: {exc}") from None
    hand_id = rec.get("hand_id")
    if any(st.get("hand_id") != hand_id for st in statements) or not isinstance(hand_id, str):
        raise ReceiptError("the receipt's statements are not all about its hand")
    out = Receipt(hand_id, rec.get("seat") if isinstance(rec.get("seat"), int) else None, tuple(signed),
                  tuple(statements), tuple(p.index for p in parsed), cp)
    for index, st, _ in out.of_kind("seat-receipt"):
        if st.get("seat") != out.seat:
            raise ReceiptError("the receipt's seat-receipt is for another seat than the receipt's")
        commitments = out.of_kind("commitment")
        if len(commitments) != 1:
            raise ReceiptError("a seat receipt holds the hand's commitment statement")
        c_index, c, _ = commitments[0]
        if c_index >= index:
            raise ReceiptError("the commitment is logged after the seat's receipt")
        for name in ("server_seed_commitment", "ruleset_hash"):
            if not _same(st.get(name), c.get(name)):
                raise ReceiptError(f"the seat-receipt's {name} is not the logged commitment's")
    return out


def check_before_reveal(rec: Any, public_key_hex: str, *, hand_id: str, seat: int,
                        seed_commitment: str | None = None, shown_commitment: str | None = None,
                        origin: str | None = None) -> Receipt:
    """What a seat client checks before it reveals its seed (raises :class:`ReceiptError`).

    The receipt verifies under the pinned key (:func:`verify_receipt`); it is a seat receipt
    of this hand and seat; the server commitment it binds is the one the player was shown
    (``shown_commitment``, when given) and is in the log; the seat commitment it logged is
    the player's own (``seed_commitment``, computed from their seed)."""
    r = verify_receipt(rec, public_key_hex, origin=origin)
    if r.hand_id != hand_id or r.seat != seat or not r.of_kind("seat-receipt"):
        raise ReceiptError(f"this is not a seat receipt of hand {hand_id!r} seat {seat}")
    if shown_commitment is not None and not _same(r.server_commitment, shown_commitment):
        raise ReceiptError(f"the logged server commitment {r.server_commitment} is not the one you were shown")
    if seed_commitment is not None and not _same(r.seat_commitment, seed_commitment):
        raise ReceiptError("the logged seat commitment is not the commitment of your seed")
    return r


__all__ = ["RECEIPT_FORMAT", "Receipt", "ReceiptError", "receipt", "verify_receipt", "check_before_reveal"]
