"""The tlog-proof parser's fast path (all path lines canonical 32-byte base64, decoded at
once) and the inclusion fold's inlined hashing answer exactly as the line-by-line code."""
from __future__ import annotations

import base64
import hashlib

import pytest
from hypothesis import assume, given, settings, strategies as st

from audit.errors import ProofError
from audit.tlog import merkle
from audit.tlog.note import b64decode_strict
from audit.tlog.proof import HEADER, parse_tlog_proof, tlog_proof_parts
from replay.errors import MalformedError

CHECKPOINT = "example.com/log\n12\nAAAA\n\n\u2014 example.com/log abcd\n"


def reference_path(lines: list[str], first_line: int) -> tuple[bytes, ...] | str:
    """The path as the line-by-line loop reads it (or its error)."""
    path = []
    try:
        for n, line in enumerate(lines, start=first_line):
            h = b64decode_strict(line, f"inclusion hash on line {n}")
            if len(h) != merkle.HASH_SIZE:
                raise MalformedError("an inclusion hash is 32 bytes", location=f"line {n}")
            path.append(h)
        if len(path) > 64:
            raise MalformedError("an inclusion path has at most 64 hashes")
    except MalformedError as exc:
        return str(exc)
    return tuple(path)


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _noncanonical(raw: bytes) -> str:
    text = _b64(raw)
    last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".index(text[-2])
    return text[:-2] + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[last | 1] + "="


LINE = st.one_of(
    st.binary(min_size=32, max_size=32).map(_b64),
    st.binary(min_size=32, max_size=32).map(_noncanonical),
    st.binary(min_size=0, max_size=40).map(_b64),
    st.binary(min_size=32, max_size=32).map(lambda b: _b64(b).rstrip("=")),
    st.binary(min_size=32, max_size=32).map(lambda b: base64.urlsafe_b64encode(b).decode()),
    st.text(max_size=50).filter(lambda t: "\n" not in t and "\r" not in t),
)


@settings(max_examples=600, deadline=None)
@given(st.lists(LINE, max_size=8) | st.lists(st.binary(min_size=32, max_size=32).map(_b64), min_size=60, max_size=70))
def test_fast_path_reads_what_the_loop_reads(lines):
    text = "\n".join([HEADER, "index 5", *lines]) + "\n\n" + CHECKPOINT
    expected = reference_path(lines, 3)
    assume("" not in lines)  # an empty line ends the proof's head: the checkpoint starts there
    try:
        got: tuple[bytes, ...] | str = parse_tlog_proof(text).path
    except MalformedError as exc:
        got = str(exc)
    assert got == expected


def test_a_checkpoint_without_final_newline_is_refused_on_the_fast_path_too():
    text = "\n".join([HEADER, "index 0", _b64(bytes(32))]) + "\n\n" + CHECKPOINT.rstrip("\n")
    with pytest.raises(MalformedError, match="ends with a newline"):
        parse_tlog_proof(text)


def _old_root(leaf, index, size, path):
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if fn & 1 or fn == sn:
            r = merkle.node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = merkle.node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return r


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 300), st.data())
def test_inlined_fold_is_the_rfc_fold(size, data):
    leaves = [hashlib.sha256(bytes([i % 256, i // 256])).digest() for i in range(size)]
    tree = merkle.MemoryTree(leaves)
    index = data.draw(st.integers(0, size - 1))
    path = tree.inclusion_proof(index, size) if hasattr(tree, "inclusion_proof") else \
        merkle.inclusion_path(index, size, tree.perfect)
    root = merkle.root_from_inclusion_proof(leaves[index], index, size, path)
    assert root == _old_root(leaves[index], index, size, path) == tree.root(size)
    assert merkle.root_from_inclusion_proof(leaves[index], index, size, [bytearray(p) for p in path]) == root
    if path:
        with pytest.raises(ProofError, match="inclusion path element 0"):
            merkle.root_from_inclusion_proof(leaves[index], index, size, [b"short"] + list(path[1:]))


def _answer(parse, text):
    try:
        return parse(text)
    except MalformedError as exc:
        return f"{exc} @ {exc.location}"


_PIECE = st.sampled_from([HEADER, "index 7", "index 07", "index x", "extra AAAA", _b64(bytes(32)), _b64(b"\xff" * 32),
                          _noncanonical(bytes(32)), _b64(bytes(31)), "", "\r", "\n", "\n\n", CHECKPOINT,
                          "x" * 44, "c2sp.org/tlog-proof@v2"])


@settings(max_examples=800, deadline=None)
@given(st.lists(_PIECE, max_size=9), st.sampled_from(["\n", "\n\n", "", "\r\n"]), st.booleans())
def test_the_one_match_head_reads_what_the_line_by_line_parse_reads(pieces, joiner, canonical_start):
    """parse_tlog_proof's one-regex head (a proof as Tiplu writes it) gives exactly the
    strict step-by-step parse's answer -- proof or error words -- on any text."""
    from audit.tlog.proof import _parse_lines

    start = [HEADER, "index 7"] if canonical_start else []
    text = joiner.join(start + pieces)
    assert _answer(parse_tlog_proof, text) == _answer(_parse_lines, text)
    parsed = _answer(parse_tlog_proof, text)
    assert _answer(tlog_proof_parts, text) == (parsed if isinstance(parsed, str) else
                                               (parsed.index, parsed.path, parsed.checkpoint_text))
    honest = "\n".join([HEADER, "index 7"] + [_b64(bytes([i]) * 32) for i in range(len(pieces))]) + "\n\n" + CHECKPOINT
    assert _answer(parse_tlog_proof, honest) == _answer(_parse_lines, honest)
    assert _answer(parse_tlog_proof, honest + "x" * 9000) == _answer(_parse_lines, honest + "x" * 9000)


def test_the_one_match_head_is_the_path_a_tiplu_proof_carries():
    path = tuple(bytes([i]) * 32 for i in range(64))
    text = "\n".join([HEADER, "index 123"] + [_b64(h) for h in path]) + "\n\n" + CHECKPOINT
    assert parse_tlog_proof(text) == parse_tlog_proof.__globals__["_parse_lines"](text)
    assert parse_tlog_proof(text).path == path and parse_tlog_proof(text).index == 123
    assert parse_tlog_proof(text).checkpoint_text == CHECKPOINT
    long = "\n".join([HEADER, "index 1"] + [_b64(bytes(32))] * 65) + "\n\n" + CHECKPOINT
    with pytest.raises(MalformedError, match="at most 64"):
        parse_tlog_proof(long)
