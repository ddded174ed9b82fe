"""A player's receipt (``tiplu.receipt/3``): what the operator told this seat, proved to be in its log.

A receipt holds signed statements of one hand, each with its log evidence, exactly as a
``tiplu.hand/3`` record holds them (``docs/records.md``)::

    {"format": "tiplu.receipt/3", "hand_id": "h1", "seat": 0,
     "statements": [<signed hand>, <signed commitment>, <signed seat-receipt>],
     "log_proofs":  ["c2sp.org/tlog-proof@v1\nindex 0\n...", "…index 1…", "…index 4…"]}

A *seat receipt* (what ``seed-commit`` answers) holds the hand's ``hand`` statement (the
terms: ruleset hash, point value, commission, every seat and its player's name, the
dealer), its server ``commitment`` statement and the seat's own ``seat-receipt``, which
binds that commitment (``server_seed_commitment``), the ruleset hash and (format 3) the
hash of the hand statement (``hand_hash``); all proofs carry one checkpoint signed by the
operator.  So the player can check, with the operator key they pinned and nothing else,
that the commitment they were shown is in the public log, and that they are seated under
their own name at the terms they agreed, *before* they reveal their seed
(:func:`check_before_reveal`), and later whether a published record contradicts it
(:mod:`audit.auditor.verdict.receipt_check`).  A ``seat-reveal`` receipt holds that one statement.

A ``tiplu.receipt/2`` (before format 3: no hand statement, no ``hand_hash``) still verifies
by its own rules.

:func:`receipt` makes one from the ledger; :func:`verify_receipt` checks one and returns
a :class:`Receipt`, raising :class:`ReceiptError` (a :class:`MalformedError`) when it does
not hold.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Mapping

from replay.canonical import canonical_hash
from replay.errors import MalformedError

from ..errors import LedgerIntegrityError, ProofError, SignatureError
from ..signing import SigningKey, verify_statement
from ..tlog.checkpoint import DEFAULT_ORIGIN, Checkpoint, accepts_legacy_time, verify_checkpoint
from ..tlog.merkle import leaf_hash, verify_inclusion
from ..tlog.proof import format_tlog_proof, parse_tlog_proof
from ..tlog.store import TransparencyLog, leaf_entry
from ..consttime import same_text

if TYPE_CHECKING:
    from audit.operator.ledger import Ledger

RECEIPT_FORMAT = "tiplu.receipt/3"
RECEIPT_FORMAT_V2 = "tiplu.receipt/2"  # before format 3: still verified, by its own rules
RECEIPT_FORMATS = (RECEIPT_FORMAT_V2, RECEIPT_FORMAT)


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
    format: str = RECEIPT_FORMAT

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

    @property
    def hand(self) -> dict[str, Any] | None:
        """The signed ``hand`` statement (the terms and names) a ``tiplu.receipt/3`` holds."""
        found = self.of_kind("hand")
        return found[0][1] if found else None

    @property
    def player(self) -> str | None:
        """The name the seat-receipt gives this seat."""
        found = self.of_kind("seat-receipt")
        return found[0][1].get("player") if found else None


def _index_of(ledger: Ledger, signed: Mapping[str, Any]) -> int:
    row = ledger.db.execute("SELECT seq FROM statements WHERE sig = ?", [signed["sig"]]).fetchone()
    if row is None:
        raise LedgerIntegrityError("the statement is not in the ledger")
    return int(row[0]) - 1


def receipt(ledger: Ledger, signed: Mapping[str, Any], *, key: SigningKey, origin: str = DEFAULT_ORIGIN,
            now: datetime | None = None) -> dict[str, Any]:
    """The receipt of a statement already in ``ledger``; for a ``seat-receipt`` it also holds
    the hand's ``commitment`` statement.  All proofs are at one checkpoint signed by ``key``
    (the latest one when it covers the statement, else one signed now)."""
    st = signed["statement"]
    hand_id = st["hand_id"]
    chosen = [signed]
    if st.get("kind") == "seat-receipt":
        first = {}
        for s in ledger.statements(hand_id):
            if s.kind in ("hand", "commitment") and s.kind not in first:
                first[s.kind] = s.signed
            if len(first) == 2:
                break
        for kind in ("hand", "commitment"):
            if kind not in first:
                raise LedgerIntegrityError(f"hand {hand_id!r} has no {kind} statement")
        chosen = [first["hand"], first["commitment"], signed]
    log = TransparencyLog(ledger.db, migrate=False)
    indices = [_index_of(ledger, s) for s in chosen]
    for index, statement in zip(indices, chosen):
        if log.entry(index) != leaf_entry(statement):
            raise LedgerIntegrityError(f"log leaf {index} differs from the statement")
    from .publish import covering_checkpoint

    operator = ledger.get_hand(hand_id).operator
    cp = covering_checkpoint(ledger, max(indices) + 1, operator=operator, origin=origin, key=key,
                             now=now or datetime.now(timezone.utc))
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
    if not isinstance(rec, Mapping) or rec.get("format") not in RECEIPT_FORMATS:
        raise ReceiptError(f"a receipt is a JSON object with format {RECEIPT_FORMAT!r} (or {RECEIPT_FORMAT_V2!r})")
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
                  tuple(statements), tuple(p.index for p in parsed), cp, str(rec["format"]))
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
        if out.format == RECEIPT_FORMAT:
            _check_hand_binding(out, st, index, c_index)
    return out


def _check_hand_binding(out: Receipt, st: Mapping[str, Any], index: int, c_index: int) -> None:
    """Format 3: the seat receipt holds the hand statement, logged first, whose hash its
    seat-receipt binds (``hand_hash``), and which seats this seat under the seat-receipt's
    name with the commitment's ruleset hash."""
    hands = out.of_kind("hand")
    if len(hands) != 1:
        raise ReceiptError("a tiplu.receipt/3 seat receipt holds the hand's hand statement")
    h_index, hand, _ = hands[0]
    if h_index >= c_index:
        raise ReceiptError("the hand statement is logged after the commitment")
    try:
        hand_hash = canonical_hash(dict(hand))
    except MalformedError as exc:
        raise ReceiptError(f"the hand statement has no canonical JSON: {exc}") from None
    if not _same(st.get("hand_hash"), hand_hash):
        raise ReceiptError("the seat-receipt's hand_hash is not the hash of the logged hand statement")
    seats = hand.get("seats")
    name = seats[out.seat].get("player") if (isinstance(seats, list) and out.seat is not None
                                               and 0 <= out.seat < len(seats) and isinstance(seats[out.seat], Mapping)) else None
    if not isinstance(name, str) or name != st.get("player"):
        raise ReceiptError(f"the hand statement does not seat {st.get('player')!r} at seat {out.seat}")
    if not _same(hand.get("ruleset_hash"), st.get("ruleset_hash")):
        raise ReceiptError("the hand statement's ruleset_hash is not the seat-receipt's")


def check_before_reveal(rec: Any, public_key_hex: str, *, hand_id: str, seat: int,
                        seed_commitment: str | None = None, shown_commitment: str | None = None,
                        origin: str | None = None, player: str | None = None,
                        terms: Mapping[str, Any] | None = None) -> Receipt:
    """What a seat client checks before it reveals its seed (raises :class:`ReceiptError`).

    The receipt verifies under the pinned key (:func:`verify_receipt`); it is a seat receipt
    of this hand and seat; the server commitment it binds is the one the player was shown
    (``shown_commitment``, when given) and is in the log; the seat commitment it logged is
    the player's own (``seed_commitment``, computed from their seed).  Format 3: the hand
    statement seats the player under their own name (``player``, when given) and says the
    terms they agreed (``terms``: any of ``point_value``, ``commission_pct``, ``dealer``,
    ``ruleset_hash``, compared as decimals, integers or hex).  A ``tiplu.receipt/2`` has no
    hand statement: asked for terms, it is refused (nothing shows them)."""
    r = verify_receipt(rec, public_key_hex, origin=origin)
    if r.hand_id != hand_id or r.seat != seat or not r.of_kind("seat-receipt"):
        raise ReceiptError(f"this is not a seat receipt of hand {hand_id!r} seat {seat}")
    if shown_commitment is not None and not _same(r.server_commitment, shown_commitment):
        raise ReceiptError(f"the logged server commitment {r.server_commitment} is not the one you were shown")
    if seed_commitment is not None and not _same(r.seat_commitment, seed_commitment):
        raise ReceiptError("the logged seat commitment is not the commitment of your seed")
    if player is not None and r.player != player:
        raise ReceiptError(f"the receipt seats {r.player!r} at seat {seat}, not you ({player!r})")
    for name, want in (terms or {}).items():
        hand = r.hand
        if hand is None:
            raise ReceiptError(f"this {r.format} receipt holds no hand statement: its {name} cannot be checked")
        if not _same_term(hand.get(name), want, digest=name.endswith("hash")):
            raise ReceiptError(f"the logged hand's {name} is {hand.get(name)!r}, not {want!r} as you agreed")
    return r


def _same_term(got: Any, want: Any, *, digest: bool = False) -> bool:
    """A term of the hand as the player agreed it: hex digests (any case), integers, or
    decimals (``"0.25"`` is ``"0.250"``)."""
    from decimal import Decimal, InvalidOperation

    if digest:
        return _same(got, str(want))
    if isinstance(want, int) and not isinstance(want, bool):
        return isinstance(got, int) and not isinstance(got, bool) and got == want
    try:
        return isinstance(got, str) and Decimal(got) == Decimal(str(want))
    except (InvalidOperation, ValueError):
        return _same(got, str(want))


__all__ = ["RECEIPT_FORMAT", "RECEIPT_FORMAT_V2", "Receipt", "ReceiptError", "receipt", "verify_receipt", "check_before_reveal"]
