"""C2SP ``tlog-proof`` (``c2sp.org/tlog-proof@v1``): one leaf's offline-checkable log evidence.

A proof is text (LF line ends)::

    c2sp.org/tlog-proof@v1
    index 73894
    gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=
    ...                                   (zero or more inclusion-path hashes, base64)

    <the checkpoint note, verbatim>

* line 1: the header ``c2sp.org/tlog-proof@v1``;
* optionally ``extra <base64>`` (opaque, unauthenticated; Tiplu never writes one);
* ``index <n>``: the leaf's zero-based index, decimal, no leading zeros;
* the inclusion path (RFC 6962 / RFC 9162 §2.1.3), one standard-base64 SHA-256 hash per
  line, the leaf's sibling first, the root's child last;
* an empty line, then the checkpoint (:mod:`audit.tlog.checkpoint`) exactly as the log
  signed it.

:func:`format_tlog_proof` writes one; :func:`parse_tlog_proof` reads one strictly and raises
:class:`~replay.errors.MalformedError` for anything else.  Parsing does not verify: the
caller checks the checkpoint signature (:func:`~audit.tlog.checkpoint.verify_checkpoint`)
and folds the leaf hash up the path (:func:`~audit.tlog.merkle.verify_inclusion`) --
:func:`verify_tlog_proof` does both.
"""
from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from replay.errors import MalformedError

from . import merkle
from .note import b64decode_strict

if TYPE_CHECKING:
    from .checkpoint import Checkpoint

HEADER = "c2sp.org/tlog-proof@v1"
MAX_PROOF_CHARS = 8192  # a 64-hash path (2**64 leaves) and a 4096-character checkpoint fit
_INDEX_RE = re.compile(r"index (0|[1-9][0-9]{0,19})")
#: one canonical standard-base64 32-byte hash (44 characters, the last data character's two
#: unused bits zero), per line: what :func:`b64decode_strict` accepts of length 32, exactly
_HASH_LINES_RE = re.compile(r"(?:[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=\n)*")
_a2b = binascii.a2b_base64
#: the whole head of a proof Tiplu writes (no extra line, canonical hashes) up to the empty
#: line: what the strict parse below accepts of such a text, in one match
_HEAD_RE = re.compile(r"c2sp\.org/tlog-proof@v1\nindex (0|[1-9][0-9]{0,19})\n"
                      r"((?:[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=\n){0,64})\n")


@dataclass(frozen=True, slots=True)
class TlogProof:
    """A parsed proof: the leaf index, the inclusion path and the checkpoint text (verbatim)."""

    index: int
    path: tuple[bytes, ...]
    checkpoint_text: str
    extra: bytes | None = None

    def __str__(self) -> str:
        return format_tlog_proof(self.index, self.path, self.checkpoint_text, extra=self.extra)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def format_tlog_proof(index: int, path: Sequence[bytes], checkpoint_text: str, *,
                      extra: bytes | None = None) -> str:
    """The proof text for leaf ``index`` with inclusion ``path`` under ``checkpoint_text``."""
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise MalformedError("a leaf index is a non-negative integer")
    if not isinstance(checkpoint_text, str) or not checkpoint_text.endswith("\n") or "\n\n" not in checkpoint_text:
        raise MalformedError("a checkpoint is note text: a body, a blank line, signature lines")
    lines = [HEADER]
    if extra is not None:
        lines.append(f"extra {_b64(extra)}")
    lines.append(f"index {index}")
    for h in path:
        if not isinstance(h, (bytes, bytearray)) or len(h) != merkle.HASH_SIZE:
            raise MalformedError("an inclusion path is 32-byte hashes")
        lines.append(_b64(bytes(h)))
    return "\n".join(lines) + "\n\n" + checkpoint_text


def parse_tlog_proof(text: str) -> TlogProof:
    """Parse a ``c2sp.org/tlog-proof@v1`` text strictly; :class:`MalformedError` otherwise."""
    parts = _head_parts(text)
    return _parse_lines(text) if parts is None else TlogProof(*parts)


def tlog_proof_parts(text: str) -> tuple[int, tuple[bytes, ...], str]:
    """``(index, path, checkpoint_text)`` of :func:`parse_tlog_proof` (same checks, same
    errors), without building the :class:`TlogProof`: what an audit reads of a record's
    proofs, a dozen per record."""
    parts = _head_parts(text)
    if parts is None:
        p = _parse_lines(text)
        return p.index, p.path, p.checkpoint_text
    return parts


def _head_parts(text: str) -> tuple[int, tuple[bytes, ...], str] | None:
    """The parts of a proof as Tiplu writes it (no extra line, canonical hashes), read by
    one match; ``None`` for any other text, which :func:`_parse_lines` reads (or words)."""
    m = _HEAD_RE.match(text) if type(text) is str and len(text) <= MAX_PROOF_CHARS else None
    if m is None or "\r" in text or text[-1] != "\n":
        return None
    end = m.end()
    if len(text) == end:
        return None
    # the common text in one match: its first empty line is the one the match ends with
    # (each line before it is one non-empty line), so this is what the steps below find
    index, hashes = m.group(1, 2)
    return int(index), tuple(map(_a2b, hashes[:-1].split("\n"))) if hashes else (), text[end:]


def _parse_lines(text: str) -> TlogProof:
    """:func:`parse_tlog_proof` step by step: any text, and the words of its first error."""
    if not isinstance(text, str) or len(text) > MAX_PROOF_CHARS:
        raise MalformedError(f"a tlog proof is text of at most {MAX_PROOF_CHARS} characters")
    if "\r" in text:
        raise MalformedError("a tlog proof uses LF line ends")
    head, sep, checkpoint = text.partition("\n\n")
    if not sep or not checkpoint:
        raise MalformedError("a tlog proof needs an empty line before its checkpoint")
    lines = head.split("\n")
    if lines[0] != HEADER:
        raise MalformedError(f"a tlog proof starts with {HEADER!r}", location="line 1")
    at = 1
    extra = None
    if at < len(lines) and lines[at].startswith("extra "):
        extra = b64decode_strict(lines[at][len("extra "):], "the extra data")
        at += 1
    if at >= len(lines):
        raise MalformedError("a tlog proof needs an 'index' line", location=f"line {at + 1}")
    m = _INDEX_RE.fullmatch(lines[at])
    if not m:
        raise MalformedError("the index line is 'index <decimal, no leading zeros>'", location=f"line {at + 1}")
    index = int(m.group(1))
    hashes = lines[at + 1:]
    if len(hashes) <= 64 and _HASH_LINES_RE.fullmatch("\n".join(hashes) + "\n" if hashes else ""):
        # every line is a canonical 32-byte hash: decode them at once (the loop below words
        # the error of any other input, in the same order of checks)
        if not checkpoint.endswith("\n"):
            raise MalformedError("the checkpoint ends with a newline")
        return TlogProof(index, tuple(map(_a2b, hashes)), checkpoint, extra)
    path = []
    for n, line in enumerate(hashes, start=at + 2):
        h = b64decode_strict(line, f"inclusion hash on line {n}")
        if len(h) != merkle.HASH_SIZE:
            raise MalformedError("an inclusion hash is 32 bytes", location=f"line {n}")
        path.append(h)
    if len(path) > 64:
        raise MalformedError("an inclusion path has at most 64 hashes")
    if not checkpoint.endswith("\n"):
        raise MalformedError("the checkpoint ends with a newline")
    return TlogProof(index, tuple(path), checkpoint, extra)


def verify_tlog_proof(text: str, entry: bytes, public_key_hex: str, *, origin: str | None = None) -> Checkpoint:
    """Check a proof for log entry ``entry`` under the log's key; return the checkpoint or raise.

    Raises :class:`MalformedError` (unparseable), :class:`~audit.errors.SignatureError`
    (the checkpoint does not verify) or :class:`~audit.errors.ProofError` (the leaf does not
    fold to the checkpoint's root at that index).
    """
    from .checkpoint import verify_checkpoint

    proof = parse_tlog_proof(text)
    cp = verify_checkpoint(proof.checkpoint_text, public_key_hex, origin=origin)
    merkle.verify_inclusion(merkle.leaf_hash(entry), proof.index, cp.size, list(proof.path), cp.root)
    return cp
