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
import struct
from functools import lru_cache
from operator import lt as _lt, mod as _mod
from typing import Sequence, TypeVar

T = TypeVar("T")

VERSION = "v1"
MATERIAL_TAG = b"tiplu/v1/material"
STREAM_TAG = b"tiplu/v1/stream"
SEAT_TAG = b"tiplu/v1/seat"
_TWO32 = 1 << 32
_SHA256_BLOCK = 64
_IPAD = bytes(b ^ 0x36 for b in range(256))  # translate tables: key ^ ipad, key ^ opad (RFC 2104)
_OPAD = bytes(b ^ 0x5C for b in range(256))
_sha256 = hashlib.sha256


def enc(data: bytes) -> bytes:
    """Length-prefix ``data``: 4-byte big-endian length, then the bytes."""
    return len(data).to_bytes(4, "big") + data


_STREAM_TAG_ENC = enc(STREAM_TAG)
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

    Each block is HMAC-SHA256 (RFC 2104) computed from two SHA-256 states made once per
    stream: the inner one after ``key ^ ipad`` and the message's fixed prefix, the outer
    one after ``key ^ opad``; a block copies them and adds its counter and the inner
    digest.  The same bytes as ``hmac.digest(server_seed, prefix + u64(i), "sha256")``
    (tests/fairness/test_stream_fast.py), in about half the time: OpenSSL's one-shot
    HMAC sets the key up and looks the digest up again for every block.
    """

    __slots__ = ("_inner", "_outer", "_block", "_words", "_pos", "blocks_used", "label")

    def __init__(self, server_seed: bytes, material: bytes, label: str) -> None:
        key = bytes(memoryview(server_seed))  # bytes-like only, as hmac.digest takes
        if len(key) > _SHA256_BLOCK:
            key = _sha256(key).digest()
        key = key.ljust(_SHA256_BLOCK, b"\0")
        text = label.encode("utf-8")
        self._inner = _sha256(b"".join((key.translate(_IPAD), _STREAM_TAG_ENC, material,
                                        len(text).to_bytes(4, "big"), text)))
        self._outer = _sha256(key.translate(_OPAD))
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0
        self.blocks_used = 0
        self.label = label

    def block(self, i: int) -> bytes:
        """Block ``i`` of this stream (does not move the read position)."""
        inner = self._inner.copy()
        inner.update(u64(i))
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def _fetch(self, count: int) -> tuple[int, ...]:
        """The words of the next ``count`` blocks (moves the block counter, not the read position)."""
        inner, outer, first = self._inner, self._outer, self._block
        out = []
        for b in range(first, first + count):
            i = inner.copy()
            i.update(b.to_bytes(8, "big"))
            o = outer.copy()
            o.update(i.digest())
            out.append(o.digest())
        self._block = first + count
        self.blocks_used += count
        return _unpack_words(count)(b"".join(out))

    def next_u32(self) -> int:
        """The next 32-bit word of the stream."""
        if self._pos == len(self._words):
            self._words = self._fetch(1)
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
        """A new list: Fisher-Yates over ``items`` (position 0 is the top).

        Fast path: the ``len - 1`` words a shuffle without a rejection reads are fetched at
        once and checked against their limits together; if any would be rejected (about
        one shuffle in 700,000 for a 160-card shoe, one in 7 million for 52 cards), the
        stream is read again word by word from where it stood (:meth:`_shuffle_by_word`,
        the specification's loop).
        """
        out = list(items)
        draws = len(out) - 1
        if draws < 1:
            return out
        words, pos = self._words, self._pos
        have = len(words) - pos
        if have >= draws:
            batch, last, end, fetched = words[pos:pos + draws], words, pos + draws, 0
        else:
            fetched = (draws - have + 7) // 8
            fresh = self._fetch(fetched)
            batch, last, end = words[pos:] + fresh, fresh[-8:], draws - have - 8 * (fetched - 1)
        if not all(map(_lt, batch, _limits(draws + 1))):  # a rejection: read it again, word by word
            self._block -= fetched
            self.blocks_used -= fetched
            return self._shuffle_by_word(out)
        self._words, self._pos = last, end
        for i, j in zip(range(draws, 0, -1), map(_mod, batch, range(draws + 1, 1, -1))):
            out[i], out[j] = out[j], out[i]
        return out

    def _shuffle_by_word(self, out: list[T]) -> list[T]:
        """Fisher-Yates in place, a word at a time with rejection sampling (the spec's loop)."""
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


@lru_cache(maxsize=64)
def _unpack_words(blocks: int):
    """The unpacker of ``blocks`` 32-byte blocks as big-endian 32-bit words."""
    return struct.Struct(f">{8 * blocks}I").unpack


def _limits_of(n: int) -> tuple[int, ...]:
    """Rejection limits of a Fisher-Yates of ``n`` items, in draw order (``n``, ``n - 1`` ... 2)."""
    return tuple(_TWO32 - (_TWO32 % k) for k in range(n, 1, -1))


_limits_cached = lru_cache(maxsize=256)(_limits_of)


def _limits(n: int) -> tuple[int, ...]:
    return _limits_cached(n) if n <= 1024 else _limits_of(n)
