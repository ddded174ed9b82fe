"""The v1 random stream: the primitives under :mod:`replay.fairness`.

Everything here is specified byte for byte in ``docs/fairness.md``; keep the two in step.

* ``enc(b)``      -- 4-byte big-endian length, then the bytes (unambiguous concatenation).
* key material    -- ``SHA-256(enc("tiplu/v1/material") || enc(hand_id) || enc(ruleset_hash)
                     || u32(n_seats) || enc(seed_0) || ... || enc(seed_{n-1}))``.
* block ``i`` of the stream labelled ``L`` --
                     ``HMAC-SHA256(key=server_seed, enc("tiplu/v1/stream") || material
                     || enc(L) || u64(i))``, for ``i = 0, 1, 2, ...``.
* the stream is the blocks concatenated, read as big-endian unsigned 32-bit words.
* ``randbelow(n)`` -- rejection sampling: ``limit = 2**32 - (2**32 % n)``; read words until
  one is ``< limit``; answer ``word % n``.  Unbiased for every ``1 <= n <= 2**32``.
* ``shuffle(xs)`` -- Fisher-Yates from the end: for ``i = len-1 .. 1``,
  ``j = randbelow(i + 1)``, swap ``xs[i]`` and ``xs[j]``.
"""
from __future__ import annotations

import hashlib
import hmac
import struct
from typing import Sequence, TypeVar

T = TypeVar("T")

MATERIAL_TAG = b"tiplu/v1/material"
STREAM_TAG = b"tiplu/v1/stream"
SEAT_TAG = b"tiplu/v1/seat"
_TWO32 = 1 << 32
_WORDS = struct.Struct(">8I").unpack  # one 32-byte block as eight big-endian words
_sha256 = hashlib.sha256


def enc(data: bytes) -> bytes:
    """Length-prefix ``data``: 4-byte big-endian length, then the bytes."""
    return len(data).to_bytes(4, "big") + data


_MATERIAL_TAG_ENC = enc(MATERIAL_TAG)


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def key_material(hand_id: str, ruleset_hash: bytes, player_seeds: Sequence[bytes]) -> bytes:
    """The 32-byte combined key material of a hand (seeds in seat order)."""
    hid = hand_id.encode("utf-8")
    parts = [_MATERIAL_TAG_ENC, len(hid).to_bytes(4, "big"), hid, len(ruleset_hash).to_bytes(4, "big"),
             ruleset_hash, len(player_seeds).to_bytes(4, "big")]
    for seed in player_seeds:  # enc(seed), written out: this runs once a hand
        parts.append(len(seed).to_bytes(4, "big"))
        parts.append(seed)
    return _sha256(b"".join(parts)).digest()


class Stream:
    """The labelled stream of one hand.  Deterministic; holds only its read position.

    Each block is the standard library's HMAC-SHA256 (RFC 2104): one :class:`hmac.HMAC`
    is keyed with the server seed and fed the message's fixed prefix once per stream; a
    block is a copy of it fed the block's counter.  The same bytes as
    ``hmac.digest(server_seed, prefix + u64(i), "sha256")``, without setting the key up
    again for every block.
    """

    __slots__ = ("_mac", "_block", "_words", "_pos", "blocks_used")

    def __init__(self, server_seed: bytes, material: bytes, label: str) -> None:
        self._mac = hmac.new(server_seed, enc(STREAM_TAG) + material + enc(label.encode("utf-8")), _sha256)
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0
        self.blocks_used = 0

    def block(self, i: int) -> bytes:
        """Block ``i`` of this stream (does not move the read position)."""
        mac = self._mac.copy()
        mac.update(u64(i))
        return mac.digest()

    def _next_block(self) -> tuple[int, ...]:
        """The words of the next block (moves the block counter, not the read position)."""
        words = _WORDS(self.block(self._block))
        self._block += 1
        self.blocks_used += 1
        return words

    def next_u32(self) -> int:
        """The next 32-bit word of the stream."""
        if self._pos == len(self._words):
            self._words = self._next_block()
            self._pos = 0
        word = self._words[self._pos]
        self._pos += 1
        return word

    def randbelow(self, n: int) -> int:
        """An unbiased integer in ``[0, n)`` by rejection sampling."""
        if not 1 <= n <= _TWO32:
            raise ValueError(f"randbelow needs 1 <= n <= 2**32, got {n}")
        limit = _TWO32 - (_TWO32 % n)
        while True:
            word = self.next_u32()
            if word < limit:
                return word % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list: Fisher-Yates over ``items`` (position 0 is the top), the specification's
        loop -- ``j = randbelow(i + 1)`` for ``i = len - 1 .. 1`` -- with :meth:`randbelow`
        and :meth:`next_u32` written out in it (the read position kept in locals)."""
        out = list(items)
        words, pos = self._words, self._pos
        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            limit = _TWO32 - _TWO32 % n
            while True:
                if pos == len(words):
                    words, pos = self._next_block(), 0
                word = words[pos]
                pos += 1
                if word < limit:
                    break
            j = word % n
            out[i], out[j] = out[j], out[i]
        self._words, self._pos = words, pos
        return out
