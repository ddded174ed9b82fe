"""The v1 fair-shuffle protocol: commitments, key material, the shoe and sub-streams.

The verbs an operator, a player and an auditor meet (``docs/fairness.md`` is the
specification; :mod:`replay.stream` holds the byte-level primitives):

* :func:`commit_server_seed` / :func:`verify_server_seed` -- ``SHA-256(server_seed)``.
* :func:`commit_player_seed` / :func:`verify_player_seed` -- a seat's seed commitment,
  bound to the hand id and the seat number.
* :class:`HandRandomness` -- everything random in one hand: the shuffled shoe (label
  ``deal``) and the labelled sub-streams for later events (D-3): ``tiplu`` (the tiplu
  pick, D-5), ``reshuffle:k`` (the k-th reshuffle of discards, D-6 / D-20, k = 1, 2 ...)
  and ``redeal:k`` (the k-th redeal of a voided deal, K-21).

Nothing here creates a seed: fresh seeds come from :mod:`secrets`, in the shells only.
"""
from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Sequence

from .cards import Card
from .deal import Deal, deal
from .errors import CommitmentMismatchError, MalformedError
from .rulesets import Ruleset
from .shoes import canonical_shoe
from .stream import SEAT_TAG, Stream, enc, key_material, u32

SERVER_SEED_BYTES = 32
PLAYER_SEED_MIN, PLAYER_SEED_MAX = 16, 64
LABEL_DEAL = "deal"
LABEL_TIPLU = "tiplu"
_HEX = frozenset("0123456789abcdef")
_HEX_RE = re.compile("[0-9a-f]*").fullmatch  # every character in _HEX (no set built per call)


def parse_hex(text: object, *, what: str, size: int | None = None,
              min_size: int | None = None, max_size: int | None = None) -> bytes:
    """Bytes from lower-case hex; a clear :class:`MalformedError` otherwise.

    The message never echoes the value: it may be a secret.
    """
    if not isinstance(text, str) or len(text) % 2 or not _HEX_RE(text):
        raise MalformedError(f"{what} must be lower-case hex with an even number of digits")
    data = bytes.fromhex(text)
    if size is not None and len(data) != size:
        raise MalformedError(f"{what} must be exactly {size} bytes ({2 * size} hex digits), got {len(data)}")
    if min_size is not None and len(data) < min_size:
        raise MalformedError(f"{what} must be at least {min_size} bytes, got {len(data)}")
    if max_size is not None and len(data) > max_size:
        raise MalformedError(f"{what} must be at most {max_size} bytes, got {len(data)}")
    return data


def parse_server_seed(text: object) -> bytes:
    return parse_hex(text, what="server seed", size=SERVER_SEED_BYTES)


def parse_player_seed(text: object) -> bytes:
    return parse_hex(text, what="player seed", min_size=PLAYER_SEED_MIN, max_size=PLAYER_SEED_MAX)


def parse_digest(text: object, *, what: str = "commitment") -> bytes:
    return parse_hex(text, what=what, size=32)


def commit_server_seed(server_seed: bytes) -> str:
    """The public commitment to a server seed: hex ``SHA-256(server_seed)``."""
    return hashlib.sha256(server_seed).hexdigest()


def verify_server_seed(server_seed: bytes, commitment: str) -> None:
    """Raise :class:`CommitmentMismatchError` unless the seed hashes to the commitment."""
    if not hmac.compare_digest(commit_server_seed(server_seed), str(commitment).lower()):
        raise CommitmentMismatchError("the revealed server seed does not match its commitment")


def commit_player_seed(hand_id: str, seat: int, seed: bytes) -> str:
    """A seat's seed commitment: hex ``SHA-256(enc("tiplu/v1/seat") || enc(hand_id) || u32(seat) || enc(seed))``."""
    msg = enc(SEAT_TAG) + enc(hand_id.encode("utf-8")) + u32(seat) + enc(seed)
    return hashlib.sha256(msg).hexdigest()


def verify_player_seed(hand_id: str, seat: int, seed: bytes, commitment: str) -> None:
    """Raise :class:`CommitmentMismatchError` unless the seat's seed matches its commitment."""
    if not hmac.compare_digest(commit_player_seed(hand_id, seat, seed), str(commitment).lower()):
        raise CommitmentMismatchError(f"seat {seat}'s revealed seed does not match its commitment")


@dataclass(frozen=True)
class HandRandomness:
    """All the randomness of one hand, derived from the server seed and every player seed."""

    server_seed: bytes = field(repr=False)
    hand_id: str
    ruleset: Ruleset
    player_seeds: tuple[bytes, ...] = field(repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.server_seed, bytes) or len(self.server_seed) != SERVER_SEED_BYTES:
            raise MalformedError(f"server seed must be {SERVER_SEED_BYTES} bytes")
        if not isinstance(self.hand_id, str):
            raise MalformedError("hand id must be a string")
        if not self.player_seeds:
            raise MalformedError("a hand needs at least one player seed")
        if not all(isinstance(s, bytes) for s in self.player_seeds):
            raise MalformedError("player seeds must be bytes (parse hex with parse_player_seed)")

    @property
    def n_seats(self) -> int:
        return len(self.player_seeds)

    @cached_property
    def material(self) -> bytes:
        """The combined key material (32 bytes) that every stream of the hand is keyed over."""
        return key_material(self.hand_id, bytes.fromhex(self.ruleset.hash), self.player_seeds)

    def stream(self, label: str) -> Stream:
        """A fresh reader of the stream labelled ``label``."""
        return Stream(self.server_seed, self.material, label)

    def shoe(self, label: str = LABEL_DEAL) -> tuple[Card, ...]:
        """The shuffled shoe: Fisher-Yates of the canonical shoe over the ``deal`` stream."""
        return tuple(self.stream(label).shuffle(canonical_shoe(self.ruleset, self.n_seats)))

    def deal(self, dealer: int) -> Deal:
        """The shuffled shoe dealt as the game deals it (see :mod:`replay.deal`)."""
        return deal(self.ruleset, self.shoe(), self.n_seats, dealer)

    def tiplu_position(self, stock_size: int) -> int:
        """D-5: the stock position (0 = top) of the tiplu, uniform over the stock."""
        return self.stream(LABEL_TIPLU).randbelow(stock_size)

    def reshuffle(self, k: int, cards: Sequence[Card]) -> list[Card]:
        """D-6 / D-20: the ``k``-th reshuffle (k = 1, 2 ...) of ``cards`` (listed oldest first)."""
        if k < 1:
            raise ValueError("reshuffles are numbered from 1")
        return self.stream(f"reshuffle:{k}").shuffle(cards)

    def redeal(self, k: int) -> tuple[Card, ...]:
        """K-21: the shoe of the ``k``-th redeal (k = 1, 2 ...)."""
        if k < 1:
            raise ValueError("redeals are numbered from 1")
        return self.shoe(f"redeal:{k}")


def hand_randomness(server_seed: bytes, hand_id: str, ruleset: Ruleset,
                    player_seeds: Sequence[bytes]) -> HandRandomness:
    """Build a :class:`HandRandomness` (the seeds are bytes, in seat order).

    Seeds from outside come as hex: :func:`parse_server_seed` and :func:`parse_player_seed`
    check them (32 bytes; 16-64 bytes).  This constructor accepts any bytes-like seeds, so
    tests may use short ones; records are checked when they are parsed.
    """
    def as_bytes(seed: object, what: str) -> bytes:
        if not isinstance(seed, (bytes, bytearray, memoryview)):
            raise MalformedError(f"{what} must be bytes, not {type(seed).__name__}")
        return bytes(seed)

    return HandRandomness(as_bytes(server_seed, "server seed"), hand_id, ruleset,
                          tuple(as_bytes(s, "player seed") for s in player_seeds))
