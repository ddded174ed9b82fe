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

VERSION = "v1"
MATERIAL_TAG = b"tiplu/v1/material"
STREAM_TAG = b"tiplu/v1/stream"
SEAT_TAG = b"tiplu/v1/seat"
_WORDS = struct.Struct(">8I")
_TWO32 = 1 << 32


def enc(data: bytes) -> bytes:
    """Length-prefix ``data``: 4-byte big-endian length, then the bytes."""
    return len(data).to_bytes(4, "big") + data


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def key_material(hand_id: str, ruleset_hash: bytes, player_seeds: Sequence[bytes]) -> bytes:
    """The 32-byte combined key material of a hand (seeds in seat order)."""
    parts = [enc(MATERIAL_TAG), enc(hand_id.encode("utf-8")), enc(ruleset_hash), u32(len(player_seeds))]
    parts.extend(enc(s) for s in player_seeds)
    return hashlib.sha256(b"".join(parts)).digest()


class Stream:
    """The labelled stream of one hand.  Deterministic; holds only its read position."""

    __slots__ = ("_key", "_prefix", "_block", "_words", "_pos", "blocks_used", "label")

    def __init__(self, server_seed: bytes, material: bytes, label: str) -> None:
        self._key = server_seed
        self._prefix = enc(STREAM_TAG) + material + enc(label.encode("utf-8"))
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0
        self.blocks_used = 0
        self.label = label

    def block(self, i: int) -> bytes:
        """Block ``i`` of this stream (does not move the read position)."""
        return hmac.digest(self._key, self._prefix + u64(i), "sha256")

    def next_u32(self) -> int:
        """The next 32-bit word of the stream."""
        if self._pos == len(self._words):
            self._words = _WORDS.unpack(hmac.digest(self._key, self._prefix + u64(self._block), "sha256"))
            self._block += 1
            self.blocks_used += 1
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
        """A new list: Fisher-Yates over ``items`` (position 0 is the top)."""
        out = list(items)
        # Inlined randbelow: this loop is the hot path of every deal (bench/shuffle.py).
        key, prefix, digest, unpack = self._key, self._prefix, hmac.digest, _WORDS.unpack
        words, pos, block = self._words, self._pos, self._block
        used = 0
        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            limit = _TWO32 - (_TWO32 % n)
            while True:
                if pos == len(words):
                    words = unpack(digest(key, prefix + block.to_bytes(8, "big"), "sha256"))
                    block += 1
                    used += 1
                    pos = 0
                word = words[pos]
                pos += 1
                if word < limit:
                    break
            j = word % n
            out[i], out[j] = out[j], out[i]
        self._words, self._pos, self._block = words, pos, block
        self.blocks_used += used
        return out
