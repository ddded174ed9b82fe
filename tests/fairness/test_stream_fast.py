"""The v1 stream (replay/stream.py) against its slow reference, the specification's loop.

``SpecStream`` is the stream as it stood before session 6 (main at 9af23a9): one
``hmac.digest`` per block, one word at a time, rejection sampling in ``randbelow``.  The
product's stream keys one ``hmac.HMAC`` per stream and writes the draws of a shuffle out
in one loop; every block, word, draw and shuffle must be the same, and so must the read
position left behind (what the next draw reads).  Rules R-22 and D-3: any deal, and every later draw, replays bit for bit.
"""
from __future__ import annotations

import hashlib
import hmac
import struct

import pytest
from hypothesis import given, settings, strategies as st

from replay.stream import STREAM_TAG, Stream, enc, key_material, u64

from test_fairness_naive import NaiveStream

_TWO32 = 1 << 32
_WORDS = struct.Struct(">8I")


class SpecStream:
    """The pre-session-6 ``Stream``, verbatim but for its name."""

    def __init__(self, server_seed: bytes, material: bytes, label: str) -> None:
        self._key = server_seed
        self._prefix = enc(STREAM_TAG) + material + enc(label.encode("utf-8"))
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0
        self.blocks_used = 0

    def block(self, i: int) -> bytes:
        return hmac.digest(self._key, self._prefix + u64(i), "sha256")

    def next_u32(self) -> int:
        if self._pos == len(self._words):
            self._words = _WORDS.unpack(hmac.digest(self._key, self._prefix + u64(self._block), "sha256"))
            self._block += 1
            self.blocks_used += 1
            self._pos = 0
        word = self._words[self._pos]
        self._pos += 1
        return word

    def randbelow(self, n: int) -> int:
        if not 1 <= n <= _TWO32:
            raise ValueError(f"randbelow needs 1 <= n <= 2**32, got {n}")
        limit = _TWO32 - (_TWO32 % n)
        while True:
            word = self.next_u32()
            if word < limit:
                return word % n

    def shuffle(self, items):
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


keys = st.binary(min_size=0, max_size=200)          # HMAC keys longer than a block are hashed first
materials = st.binary(min_size=0, max_size=40)
labels = st.text(max_size=12)
ops = st.lists(st.one_of(st.tuples(st.just("word"), st.just(0)),
                         st.tuples(st.just("below"), st.integers(1, _TWO32)),
                         st.tuples(st.just("shuffle"), st.integers(0, 170))), max_size=12)


def _run(stream, program):
    out = []
    for op, arg in program:
        if op == "word":
            out.append(stream.next_u32())
        elif op == "below":
            out.append(stream.randbelow(arg))
        else:
            out.append(stream.shuffle(range(arg)))
    return out, stream.blocks_used


@settings(max_examples=300)
@given(keys, materials, labels, st.integers(0, 2**64 - 1))
def test_blocks_are_the_one_shot_hmac(key, material, label, i):  # rule D-3
    assert Stream(key, material, label).block(i) == SpecStream(key, material, label).block(i)


@settings(max_examples=300)
@given(keys, materials, labels, ops)
def test_every_draw_and_the_position_left_behind_are_the_same(key, material, label, program):  # rule D-3
    program = program + [("word", 0)] * 9  # then read on: the position after the last op must agree
    assert _run(Stream(key, material, label), program) == _run(SpecStream(key, material, label), program)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 8, 9, 17, 52, 106, 156, 159, 160])
def test_shoe_sizes_agree_with_the_naive_reading_of_the_spec(size):  # rules R-22, D-3
    for k in range(20):
        key, mat = hashlib.sha256(b"k%d" % k).digest(), hashlib.sha256(b"m%d" % k).digest()
        assert Stream(key, mat, "deal").shuffle(range(size)) == NaiveStream(key, mat, "deal").shuffle(list(range(size)))


# Found by search (key and material all zero bytes): the first shuffle of these streams
# meets a word at or above its draw's limit: that draw is rejected and reads the next word.
REJECTING = [(160, "reject:504590", 69), (52, "reject:566010", 32)]


@pytest.mark.parametrize("size,label,draw", REJECTING)
def test_a_real_rejection_in_a_shuffle_is_drawn_again(size, label, draw):  # rules R-22, D-3
    fast, spec = Stream(bytes(32), bytes(32), label), SpecStream(bytes(32), bytes(32), label)
    words = _WORDS.unpack(fast.block(draw // 8))
    limit = _TWO32 - _TWO32 % (size - draw)
    assert words[draw % 8] >= limit  # the case really rejects
    assert fast.shuffle(range(size)) == spec.shuffle(range(size))
    assert fast.blocks_used == spec.blocks_used
    assert [fast.next_u32() for _ in range(20)] == [spec.next_u32() for _ in range(20)]


def _primed(stream, words):
    """``stream`` about to read ``words`` next (as if they were what its blocks hold)."""
    stream._words, stream._pos = tuple(words), 0
    return stream


@pytest.mark.parametrize("n", [3, 5, 6, 7, 52, 160])
def test_a_word_equal_to_the_limit_is_rejected(n):  # rule D-3: only words below the limit are drawn
    limit = _TWO32 - _TWO32 % n  # the first draw of an n-item shuffle is randbelow(n)
    words = [limit, limit - 1, 7, 9, 11, 13, 17, 19]
    assert _primed(Stream(bytes(32), b"m", "x"), words).randbelow(n) == (limit - 1) % n
    assert _primed(SpecStream(bytes(32), b"m", "x"), words).randbelow(n) == (limit - 1) % n
    fast, spec = _primed(Stream(bytes(32), b"m", "x"), words), _primed(SpecStream(bytes(32), b"m", "x"), words)
    assert fast.shuffle(range(n)) == spec.shuffle(range(n))
    assert fast.blocks_used == spec.blocks_used and fast.next_u32() == spec.next_u32()


def test_bad_input_fails_as_before():
    with pytest.raises(ValueError, match=r"^randbelow needs 1 <= n <= 2\*\*32, got 0$"):
        Stream(bytes(32), bytes(32), "x").randbelow(0)
    with pytest.raises(ValueError, match=r"got 4294967297$"):
        Stream(bytes(32), bytes(32), "x").randbelow(_TWO32 + 1)
    assert Stream(bytes(32), bytes(32), "x").randbelow(_TWO32) == SpecStream(bytes(32), bytes(32), "x").randbelow(_TWO32)
    assert Stream(bytes(32), bytes(32), "x").randbelow(1) == 0
    with pytest.raises(TypeError):
        Stream("not bytes", bytes(32), "x")  # type: ignore[arg-type]
    with pytest.raises(OverflowError):
        Stream(bytes(32), bytes(32), "x").block(-1)


@settings(max_examples=200)
@given(st.text(max_size=40), st.binary(max_size=40), st.lists(st.binary(max_size=70), max_size=9))
def test_key_material_is_the_specified_hash(hand_id, ruleset_hash, seeds):  # rule D-3
    # docs/fairness.md: SHA-256(enc(tag) || enc(hand_id) || enc(ruleset_hash) || u32(n) || enc(seed_i) ...)
    msg = (enc(b"tiplu/v1/material") + enc(hand_id.encode("utf-8")) + enc(ruleset_hash)
           + len(seeds).to_bytes(4, "big") + b"".join(enc(s) for s in seeds))
    assert key_material(hand_id, ruleset_hash, seeds) == hashlib.sha256(msg).digest()
