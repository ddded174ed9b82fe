"""A seat's move receipts (``tiplu.move-receipt/1``): checked as they come, and against a record.

The operator signs the head of the hand's move chain after every move (:mod:`replay.movechain`,
:mod:`audit.operator.ledger.moves`) and every seat keeps those receipts.  A receipt is no log leaf; it
is evidence because it is signed by the operator key the player pinned:

* :func:`verify_move_receipt` -- its signature under that key, its type, its hand;
* :func:`keep` -- what a seat client checks when new receipts arrive: each one verifies, and
  they follow the ones kept (``n_moves`` one more each time; a second receipt for a move
  already kept must carry the same head, else the operator signed two histories);
* :func:`compare_moves` -- a published record against the kept receipts: the chain over the
  record's moves must give each receipt's head after its ``n_moves`` moves.  A difference is
  a proof that the published moves are not the ones played (both sides are the operator's
  signed words).
* :func:`load_move_receipts` -- a file of them: a JSON array or JSON lines.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from replay.errors import MalformedError
from replay.movechain import MOVE_RECEIPT_TYPE, chain_heads

from ...consttime import same_text
from ...errors import SignatureError
from ...operator.receipts import ReceiptError
from ...signing import verify_statement

_HEX64 = frozenset("0123456789abcdef")


def verify_move_receipt(signed: Any, public_key_hex: str, *, hand_id: str | None = None) -> dict[str, Any]:
    """The statement of a move receipt that holds under the pinned key (and is of ``hand_id``,
    when given); :class:`ReceiptError` otherwise."""
    if not isinstance(signed, Mapping) or not isinstance(signed.get("statement"), Mapping):
        raise ReceiptError("a move receipt is {\"statement\", \"key\", \"sig\"}")
    try:
        st = verify_statement(signed, public_key_hex.lower())
    except (SignatureError, MalformedError) as exc:
        raise ReceiptError(f"the move receipt does not verify under the pinned key: {exc}") from None
    if st.get("type") != MOVE_RECEIPT_TYPE:
        raise ReceiptError(f"a move receipt is a signed {MOVE_RECEIPT_TYPE} statement")
    n, head = st.get("n_moves"), st.get("head")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ReceiptError("a move receipt's n_moves is a count of moves (1 or more)")
    if not isinstance(head, str) or len(head) != 64 or not set(head) <= _HEX64:
        raise ReceiptError("a move receipt's head is 64 lower-case hex digits")
    if hand_id is not None and st.get("hand_id") != hand_id:
        raise ReceiptError(f"the move receipt is for hand {st.get('hand_id')!r}, not {hand_id!r}")
    return st


def keep(kept: list[Mapping[str, Any]], new: Iterable[Any], public_key_hex: str, *,
         hand_id: str) -> list[Mapping[str, Any]]:
    """``kept`` with the new receipts appended, each checked (:func:`verify_move_receipt`) and
    following the last kept one.  A receipt for a move already kept must carry the same head
    (it is then not kept twice); else :class:`ReceiptError`, and nothing of ``new`` is kept."""
    out = list(kept)
    heads = {}
    for signed in out:
        st = signed["statement"]
        heads[st["n_moves"]] = st["head"]
    for signed in new:
        st = verify_move_receipt(signed, public_key_hex, hand_id=hand_id)
        n = st["n_moves"]
        if n in heads:
            if not same_text(heads[n], st["head"]):
                raise ReceiptError(f"the operator signed two heads after move {n}: {heads[n]} and {st['head']}")
            continue
        last = max(heads, default=0)
        if n != last + 1:
            raise ReceiptError(f"a move receipt for move {n} after move {last}: not the next one")
        heads[n] = st["head"]
        out.append(dict(signed))
    return out


@dataclass(frozen=True, slots=True)
class MoveContradiction:
    n_moves: int
    message: str
    receipt: Mapping[str, Any]
    record_head: str | None


def compare_moves(receipts: Iterable[Any], record: Mapping[str, Any], public_key_hex: str) -> tuple[list[MoveContradiction], int]:
    """``(contradictions, receipts that agree)``: each receipt (checked under the key, of the
    record's hand) against the chain over the record's moves, in move order; the first that
    differs is the contradiction (later ones are counted in its message).  A receipt that
    does not hold is :class:`ReceiptError` (bad input, not a contradiction)."""
    hand_id = record.get("hand_id")
    raw_fairness = record.get("fairness")
    fairness = raw_fairness if isinstance(raw_fairness, Mapping) else {}
    raw_moves = record.get("moves")
    moves = raw_moves if isinstance(raw_moves, list) else []
    try:
        heads = chain_heads(str(hand_id), str(fairness.get("server_commitment", "")), moves)
    except MalformedError:
        heads = []  # a move with no canonical JSON: no head of the record is any receipt's
    out: list[MoveContradiction] = []
    agree = 0
    for signed in sorted(receipts, key=_n_of):
        st = verify_move_receipt(signed, public_key_hex, hand_id=str(hand_id))
        n = st["n_moves"]
        theirs = heads[n - 1] if n <= len(heads) else None
        if theirs is None:
            out.append(MoveContradiction(n, f"the record lists {len(moves)} moves; the operator signed your move "
                                            f"receipt for move {n} (head {st['head']})", signed, None))
        elif not same_text(theirs, st["head"]):
            out.append(MoveContradiction(n, f"the record's moves 1..{n} are not the moves played: the operator "
                                            f"signed head {st['head']} after move {n}, the record's moves give "
                                            f"{theirs}", signed, theirs))
        else:
            agree += 1
    if len(out) > 1:  # the first is the proof; the later heads chain from it and differ with it
        first = out[0]
        out = [MoveContradiction(first.n_moves, f"{first.message} (and {len(out) - 1} later move receipts "
                                                f"of yours differ with it)", first.receipt, first.record_head)]
    return out, agree


def _n_of(signed: Any) -> int:
    st = signed.get("statement") if isinstance(signed, Mapping) else None
    n = st.get("n_moves") if isinstance(st, Mapping) else None
    return n if isinstance(n, int) and not isinstance(n, bool) else 0


def load_move_receipts(text: str) -> list[Any]:
    """Move receipts from a file's text: a JSON array, or JSON lines (blank lines skipped)."""
    from replay.records import load_json

    stripped = text.strip()
    if stripped.startswith("["):
        value = load_json(stripped)
        if not isinstance(value, list):
            raise MalformedError("a file of move receipts is a JSON array or JSON lines")
        return value
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                out.append(load_json(line))
            except MalformedError as exc:
                raise MalformedError(f"line {n}: {exc}") from None
    return out


__all__ = ["MoveContradiction", "compare_moves", "keep", "load_move_receipts", "verify_move_receipt"]
