"""The move chain: one hash chain over a hand's moves, exactly as its record lists them.

``docs/fairness.md`` ("Moves as played") and ``docs/format-3.md`` define it::

    head_0     = SHA-256("tiplu.moves/1" || 0x0A || canonical({"hand_id": H, "server_seed_commitment": C}))
    head_{i+1} = SHA-256(head_i || SHA-256(canonical(move_i)))

``move_i`` is the move object as the record lists it (the engine's move JSON with its
``time`` and, for a timeout, ``auto``), written as canonical JSON
(:func:`replay.canonical.canonical_json`).  The operator signs ``head_{i+1}`` in a move
receipt (``tiplu.move-receipt/1``) after each move and the final head, with the number of
moves, in the logged ``record`` statement of a ``tiplu.hand/3`` record; the audit recomputes
it from the record's moves with :func:`chain_head`.  Pure: hashing only.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from .canonical import canonical_json

#: the chain's domain label (the first bytes hashed into ``head_0``)
DOMAIN = b"tiplu.moves/1"
#: the type of a move receipt (a signed, not logged, statement of the head after a move)
MOVE_RECEIPT_TYPE = "tiplu.move-receipt/1"


def start_head(hand_id: str, server_commitment: str) -> bytes:
    """``head_0`` of a hand: its id and server-seed commitment (hex, lower case), so a
    chain belongs to one hand and one shuffle."""
    context = canonical_json({"hand_id": hand_id, "server_seed_commitment": server_commitment.lower()})
    return hashlib.sha256(DOMAIN + b"\n" + context).digest()


def next_head(head: bytes, move: Any) -> bytes:
    """``head_{i+1}`` from ``head_i`` and the move (a JSON object as the record lists it;
    any JSON value hashes, floats are refused with :class:`~replay.errors.MalformedError`)."""
    return hashlib.sha256(head + hashlib.sha256(canonical_json(move)).digest()).digest()


def chain_heads(hand_id: str, server_commitment: str, moves: Iterable[Any]) -> list[str]:
    """Every head after each move, hex: ``heads[i]`` is ``head_{i+1}``."""
    head = start_head(hand_id, server_commitment)
    out = []
    for move in moves:
        head = next_head(head, move)
        out.append(head.hex())
    return out


def chain_head(hand_id: str, server_commitment: str, moves: Iterable[Any]) -> tuple[str, int]:
    """``(final head hex, number of moves)``; with no move, ``head_0``."""
    head = start_head(hand_id, server_commitment)
    n = 0
    for move in moves:
        head = next_head(head, move)
        n += 1
    return head.hex(), n


__all__ = ["DOMAIN", "MOVE_RECEIPT_TYPE", "start_head", "next_head", "chain_heads", "chain_head"]
