"""Witness cosignatures: C2SP ``tlog-cosignature`` ``cosignature/v1`` (timestamped Ed25519).

A witness that checked a checkpoint's consistency adds one note signature line to it::

    — <witness name> base64(key id || timestamp || signature)

* ``key id`` (4 bytes) = ``SHA-256(<witness name> || 0x0A || 0x04 || <32-byte public key>)[:4]``
  -- signature type **0x04**, not the 0x01 of a log's own signature;
* ``timestamp`` (8 bytes, big endian) -- POSIX seconds when the witness signed, non-zero,
  below 2**63;
* ``signature`` (64 bytes) -- Ed25519 over the *cosigned message*::

      cosignature/v1\\n
      time <timestamp, decimal>\\n
      <the checkpoint's note text: every body line with its \\n, extension lines included>

A witness's public identity is its vkey ``<name>+<hex key id>+base64(0x04 || key)``.
:func:`verify_cosignatures` checks a checkpoint's lines against the witnesses a client
trusts and :func:`check_quorum` says whether enough of them verified.  Lines of unknown
keys are ignored (signed-note); a line of a known witness that fails to verify counts as
a failure for that witness, never as a cosignature.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any, Sequence

from audit.errors import SignatureError
from audit.signing import SigningKey, verify_bytes
from replay.errors import MalformedError, TipluError

from .note import TYPE_COSIGNATURE_ED25519, Note, NoteLine, Vkey, check_key_name, parse_note, parse_vkey

HEADER = b"cosignature/v1\n"
MAX_TIMESTAMP = 2**63 - 1


class WitnessQuorumError(TipluError):
    """A checkpoint has fewer valid cosignatures than the quorum asked for."""

    def __init__(self, message: str, *, results: Sequence["CosignatureResult"] = ()) -> None:
        super().__init__(message)
        self.results = tuple(results)


def cosigned_message(note_text: bytes, timestamp: int) -> bytes:
    """The bytes a ``cosignature/v1`` Ed25519 cosigner signs for a checkpoint's note text."""
    if isinstance(timestamp, bool) or not isinstance(timestamp, int) or not 0 <= timestamp <= MAX_TIMESTAMP:
        raise MalformedError("a cosignature timestamp is an integer from 0 to 2**63-1")
    if not note_text.endswith(b"\n"):
        raise MalformedError("a checkpoint's note text ends with a newline")
    return HEADER + b"time %d\n" % timestamp + note_text


def witness_vkey(name: str, public_key_hex: str) -> Vkey:
    """The vkey (type 0x04) of a witness key under ``name``."""
    return Vkey.for_key(check_key_name(name), TYPE_COSIGNATURE_ED25519, bytes.fromhex(public_key_hex))


def parse_witness_vkey(text: str) -> Vkey:
    """Parse a witness vkey; it must be of signature type 0x04 (``cosignature/v1``)."""
    return parse_vkey(text, sig_type=TYPE_COSIGNATURE_ED25519)


def cosign(key: SigningKey, name: str, note_text: bytes, timestamp: int) -> NoteLine:
    """The cosignature line of ``key`` (named ``name``) on a checkpoint's note text."""
    if timestamp <= 0:
        raise MalformedError("a witness cosignature's timestamp is not zero")
    sig = bytes.fromhex(key.sign_bytes(cosigned_message(note_text, timestamp)))
    vkey = witness_vkey(name, key.public_hex)
    return NoteLine(name, vkey.key_id, struct.pack(">Q", timestamp) + sig)


def verify_cosignature(line: NoteLine, vkey: Vkey, note_text: bytes) -> int:
    """Verify one cosignature line under ``vkey``; return its timestamp or raise SignatureError."""
    if vkey.sig_type != TYPE_COSIGNATURE_ED25519:
        raise SignatureError(f"{vkey.name!r} is not a cosignature/v1 (0x04) key")
    if line.key_name != vkey.name or line.key_id != vkey.key_id:
        raise SignatureError(f"the line is not by {vkey.name!r}")
    if len(line.signature) != 8 + 64:
        raise SignatureError(f"cosignature by {vkey.name!r} is not 8 + 64 bytes")
    timestamp = int.from_bytes(line.signature[:8], "big")  # 8 bytes, big endian
    if timestamp == 0 or timestamp > MAX_TIMESTAMP:
        raise SignatureError(f"cosignature by {vkey.name!r} has timestamp {timestamp} (0 or above 2**63-1)")
    verify_bytes(vkey.public_hex, cosigned_message(note_text, timestamp), line.signature[8:].hex())
    return timestamp


@dataclass(frozen=True, slots=True)
class CosignatureResult:
    """What one trusted witness's lines on a checkpoint came to."""

    witness: str  # the vkey text
    name: str
    ok: bool
    timestamp: int | None
    reason: str | None  # None when ok

    def to_json(self) -> dict[str, Any]:
        return {"witness": self.witness, "name": self.name, "ok": self.ok,
                "timestamp": self.timestamp, "reason": self.reason}


def verify_cosignatures(note: Note | str, witnesses: Sequence[Vkey]) -> list[CosignatureResult]:
    """One result per trusted witness, in the order given.

    A witness is ``ok`` when it has at least one line on the note and every line of its
    (name, key id) verifies; ``reason`` says ``missing`` or why a line failed."""
    if isinstance(note, str):
        note = parse_note(note)
    results = []
    for vkey in witnesses:
        lines = note.lines_for(vkey)
        if not lines:
            results.append(CosignatureResult(str(vkey), vkey.name, False, None, "missing"))
            continue
        try:
            stamps = [verify_cosignature(line, vkey, note.body) for line in lines]
        except SignatureError as exc:
            results.append(CosignatureResult(str(vkey), vkey.name, False, None, f"invalid: {exc}"))
            continue
        results.append(CosignatureResult(str(vkey), vkey.name, True, max(stamps), None))
    return results


def distinct_keys(witnesses: Sequence[Vkey]) -> int:
    """How many distinct public keys ``witnesses`` name: what a quorum counts.  One key listed
    under two names is one witness (``cosignature/v1`` does not commit to the name, and one
    party holding one key must not count twice)."""
    return len({v.public_key for v in witnesses})


def shared_keys(witnesses: Sequence[Vkey]) -> list[list[str]]:
    """The names that share a public key, one list per shared key (for messages)."""
    by_key: dict[bytes, list[str]] = {}
    for v in dict.fromkeys(witnesses):
        by_key.setdefault(v.public_key, []).append(v.name)
    return [names for names in by_key.values() if len(names) > 1]


def check_quorum(note: Note | str, witnesses: Sequence[Vkey], quorum: int) -> list[CosignatureResult]:
    """Verify the cosignatures and raise :class:`WitnessQuorumError` if fewer than ``quorum``
    distinct trusted witness *keys* cosigned (:func:`distinct_keys`: a key under two names
    counts once); return the per-witness results otherwise."""
    witnesses = list(dict.fromkeys(witnesses))
    if quorum < 0 or quorum > distinct_keys(witnesses):
        raise MalformedError(f"a quorum of {quorum} needs at least that many distinct witness keys "
                             f"(got {distinct_keys(witnesses)}{_shared_note(witnesses)})")
    results = verify_cosignatures(note, witnesses)
    good = {v.public_key for v, r in zip(witnesses, results) if r.ok}
    if len(good) < quorum:
        detail = "; ".join(f"{r.name}: {r.reason}" for r in results if not r.ok)
        raise WitnessQuorumError(f"{len(good)} of the required {quorum} witness cosignatures verify"
                                 + (f" ({detail})" if detail else "") + _shared_note(witnesses), results=results)
    return results


def _shared_note(witnesses: Sequence[Vkey]) -> str:
    shared = shared_keys(witnesses)
    return "".join(f"; {' and '.join(names)} are one key, counted once" for names in shared)


def parse_witness_list(values: Sequence[str]) -> list[Vkey]:
    """Parse ``--witness`` values (vkeys), refusing duplicates."""
    keys = [parse_witness_vkey(v) for v in values]
    if len(set(keys)) != len(keys):
        raise MalformedError("the same witness key is given twice")
    return keys
