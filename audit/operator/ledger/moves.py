"""Moves as they are played: the move chain kept by the ledger, and the move receipts.

Format 3 (``docs/fairness.md``, "Moves as played"): while a dealt hand is played, the
operator's game server sends each move to the ledger (:meth:`MovePlay.play_move`, ``tiplu
hand move``, ``POST /api/v1/operator/hands/<id>/moves``).  The ledger appends it to the
hand's move chain (:mod:`replay.movechain`) in the append-only ``hand_moves`` table and
returns a **move receipt**, signed by the operator's key and *not* a log leaf (so a hand
still appends a bounded number of leaves, whatever its length)::

    {"statement": {"type": "tiplu.move-receipt/1", "hand_id": H, "n_moves": n,
                   "head": "<hex head_n>", "time": "…Z"},
     "key": "<operator key hex>", "sig": "<Ed25519 over the canonical JSON of statement>"}

Every seat keeps the receipts it is given.  At ``finish`` the record's moves must be exactly
the moves played (:func:`bound_moves`), and the logged ``record`` statement carries the
final head and the number of moves, so a published record with other moves contradicts
every receipt a seat holds (:mod:`audit.auditor.verdict.receipt_check`).  A hand finished without moves
played one by one (``tiplu hand finish --record`` alone) gets the head of the record's
moves: the audit still checks the record against it, but no seat holds a receipt.

Ed25519 is deterministic, so :meth:`MovePlay.move_receipts` rebuilds exactly the receipts
that were given from the stored rows (a seat that missed one asks again).
"""
from __future__ import annotations

import contextlib
import json
import sqlite3
from datetime import datetime
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from sqlite_utils import Database

from replay.canonical import canonical_json
from replay.errors import MalformedError
from replay.movechain import MOVE_RECEIPT_TYPE, chain_head, next_head, start_head
from replay.records import MAX_MOVES

from ...errors import LedgerStateError
from ...signing import SigningKey
from .lifecycle import require_step

if TYPE_CHECKING:
    from replay.rulesets import Ruleset

#: the longest move the ledger takes (canonical JSON bytes): a Marriage show of every card fits
MAX_MOVE_BYTES = 8192
#: how many receipts one read returns at most
RECEIPT_PAGE = 1000


def check_move(move: object) -> dict[str, Any]:
    """A move as the ledger takes it: a JSON object with a ``type`` (text) and a ``seat``
    (integer), no floats, at most :data:`MAX_MOVE_BYTES` as canonical JSON; a private copy."""
    if not isinstance(move, Mapping):
        raise MalformedError("a move is a JSON object")
    text = canonical_json(dict(move))
    if len(text) > MAX_MOVE_BYTES:
        raise MalformedError(f"a move is at most {MAX_MOVE_BYTES} bytes of JSON")
    parsed: dict[str, Any] = json.loads(text)  # canonical JSON of a mapping: an object
    if not isinstance(parsed.get("type"), str) or not parsed["type"]:
        raise MalformedError("a move needs a 'type' (text)", location="type")
    seat = parsed.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise MalformedError("a move needs a 'seat' (a seat number)", location="seat")
    if "time" in parsed and not isinstance(parsed["time"], str):
        raise MalformedError("a move's 'time' is text (ISO-8601 UTC)", location="time")
    return parsed


def move_receipt(key: SigningKey, hand_id: str, n_moves: int, head: str, time: str) -> dict[str, Any]:
    """The signed move receipt for the head after ``n_moves`` moves."""
    return key.sign({"type": MOVE_RECEIPT_TYPE, "hand_id": hand_id, "n_moves": n_moves, "head": head,
                     "time": time})


def _last(db: Database, hand_id: str) -> tuple[int, str | None]:
    row = db.execute("SELECT n, head FROM hand_moves WHERE hand_id = ? ORDER BY n DESC LIMIT 1",
                     [hand_id]).fetchone()
    return (0, None) if row is None else (int(row[0]), row[1])


def bound_moves(db: Database, hand_id: str, commitment: str, moves: Sequence[Any]) -> tuple[str, int]:
    """``(head, n_moves)`` the ``record`` statement signs for a record listing ``moves``.

    When moves were played through the ledger, the record must list exactly them (same
    canonical JSON, same order): else :class:`LedgerStateError`, and nothing is finished.
    Otherwise the head of the record's own moves."""
    try:
        played = [r[0] for r in db.execute("SELECT move FROM hand_moves WHERE hand_id = ? ORDER BY n", [hand_id])]
    except sqlite3.OperationalError as exc:  # a ledger file opened below migration 008 (tests pin old schemas)
        if "no such table" not in str(exc):
            raise
        played = []
    if not played:
        return chain_head(hand_id, commitment, moves)
    if len(played) != len(moves):
        raise LedgerStateError(f"the record lists {len(moves)} moves; {len(played)} were played in hand {hand_id!r} "
                               "(a record lists the moves exactly as played)")
    for i, (text, move) in enumerate(zip(played, moves)):
        if canonical_json(move).decode("utf-8") != text:
            raise LedgerStateError(f"the record's move {i} is not move {i} as played in hand {hand_id!r} "
                                   "(a record lists the moves exactly as played)")
    n, head = _last(db, hand_id)
    assert head is not None
    return head, n


class MovePlay:
    """The move verbs of :class:`~audit.operator.ledger.Ledger` (see the module's docstring)."""

    db: Database

    if TYPE_CHECKING:
        def _time(self, now: datetime | None) -> str: ...
        def _write(self) -> contextlib.AbstractContextManager[Database]: ...
        def _signer(self, operator: str) -> SigningKey: ...
        def _hand_row(self, hand_id: object) -> tuple[str, str, int, int, Ruleset]: ...

    def play_move(self, hand_id: str, move: Mapping[str, Any], *, now: datetime | None = None) -> dict[str, Any]:
        """Append one move of a dealt hand to its move chain; the signed move receipt.

        A move without ``time`` is dated now (the receipt's time), as the record will list
        it.  The move's legality is the audit's to judge (and ``finish``'s validator's)."""
        hand_id, operator, n_seats, _, _ = self._hand_row(hand_id)
        move = check_move(move)
        if move["seat"] >= n_seats:
            raise MalformedError(f"hand {hand_id!r} has seats 0..{n_seats - 1}", location="seat")
        with self._write() as db:
            step = require_step(db, hand_id, "move")
            time = self._time(now)
            key = self._signer(operator)
            move.setdefault("time", time)
            n, head = _last(db, hand_id)
            if n >= MAX_MOVES:
                raise LedgerStateError(f"hand {hand_id!r} already has {MAX_MOVES} moves")
            prev = bytes.fromhex(head) if head is not None else start_head(hand_id, step.commitment or "")
            new = next_head(prev, move).hex()
            db.execute("INSERT INTO hand_moves (hand_id, n, move, head, time) VALUES (?, ?, ?, ?, ?)",
                       [hand_id, n + 1, canonical_json(move).decode("utf-8"), new, time])
        return move_receipt(key, hand_id, n + 1, new, time)

    def played_moves(self, hand_id: str) -> list[dict[str, Any]]:
        """The moves played so far through :meth:`play_move`, as the record must list them
        (operator side: a move may show a card another seat must not see yet)."""
        hand_id = self._hand_row(hand_id)[0]
        return [json.loads(r[0]) for r in self.db.execute("SELECT move FROM hand_moves WHERE hand_id = ? ORDER BY n",
                                                           [hand_id])]

    def move_receipts(self, hand_id: str, *, since: int = 0) -> list[dict[str, Any]]:
        """The move receipts of moves ``since + 1 …`` (at most :data:`RECEIPT_PAGE`), signed
        again from the stored heads and times: byte for byte the ones given (Ed25519 is
        deterministic).  Heads only: no move is in them."""
        hand_id, operator, _, _, _ = self._hand_row(hand_id)
        if not isinstance(since, int) or isinstance(since, bool) or since < 0:
            raise MalformedError("since is a number of moves (0 or more)")
        key = self._signer(operator)
        rows = self.db.execute("SELECT n, head, time FROM hand_moves WHERE hand_id = ? AND n > ? ORDER BY n LIMIT ?",
                               [hand_id, since, RECEIPT_PAGE]).fetchall()
        return [move_receipt(key, hand_id, n, head, time) for n, head, time in rows]


__all__ = ["MAX_MOVE_BYTES", "MovePlay", "bound_moves", "check_move", "move_receipt"]
