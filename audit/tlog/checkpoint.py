"""Signed checkpoints: the log's size and root, signed by the operator, as a C2SP signed note.

A checkpoint is UTF-8 text in the shape of the C2SP ``tlog-checkpoint`` and ``signed-note``
specifications::

    tiplu.example/log
    6
    duZ9rbzfHhDht03cYIq9L5jfsW+851J3tSMqEn8gh+8=

    — tiplu.example/log PD0fAc3VzvZLIFyXj7GnxYDnfxEw8C6JCZU/64oeyd9dTAnGWbAMMhCJxCRffAynFk40D33hOhGxgWSiBL/F2cB2uwM=

* line 1: the *origin*, the log's name (no leading/trailing space, non-empty);
* line 2: the tree size in decimal (no leading zeros);
* line 3: the root hash, standard base64 with padding (32 bytes);
* no extension line (C2SP calls them NOT RECOMMENDED; witnesses that sign only three lines
  could not cosign the log otherwise);
* a blank line, then one or more signature lines ``— <key name> <base64(key id || sig)>``
  (``—`` is U+2014 EM DASH followed by a space).

**What is signed**: the *body*, the three lines above each ending in ``\\n`` (LF) --
exactly the bytes before the blank line, UTF-8 -- with Ed25519 (RFC 8032, pure).

**The legacy body** (before format 3, ``docs/format-3.md``): a fourth line ``time
YYYY-MM-DDTHH:MM:SSZ``, the UTC issue time, covered by the signature.  It is read only with
``legacy=True``, which the checks of a document pass only for the formats that were
published with it (:func:`accepts_legacy_time`: ``tiplu.hand/2`` records and
``tiplu.receipt/2`` receipts) and for a log's own stored history; every checkpoint signed
now has three lines.  When a checkpoint was issued is what the witnesses' cosignature
timestamps say (proven by them) and the statements' own times (claimed by the operator); the
log store keeps the time it signed one beside it (:meth:`TransparencyLog.checkpoint_time`:
not signed, not evidence).
The *key id* is the first 4 bytes of ``SHA-256(<key name> || 0x0A || 0x01 || <32-byte
public key>)`` (0x01 = the signed-note type for Ed25519); the signature line carries
those 4 bytes followed by the 64-byte signature.  The key name defaults to the origin.

Anyone with the operator's public key alone can verify a checkpoint with
:func:`verify_checkpoint` (or the C2SP note tooling of other ecosystems).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Callable

from audit.errors import SignatureError
from audit.signing import SigningKey, verify_bytes
from replay.errors import MalformedError

from .note import b64decode_strict

if TYPE_CHECKING:
    from .store import TransparencyLog

SIGNATURE_DASH = "\u2014 "
ED25519_NOTE_TYPE = b"\x01"
_SIZE_RE = re.compile(r"0|[1-9][0-9]{0,19}")
_TIME_RE = re.compile(r"time ([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)")
_NAME_RE = re.compile(r"[^\s+]+")
#: the document formats published with the legacy four-line checkpoint body (``docs/format-3.md``)
LEGACY_TIME_FORMATS = frozenset({"tiplu.hand/2", "tiplu.receipt/2"})
MAX_CHECKPOINT_CHARS = 4096
#: The log's origin when nothing else is configured (the website's ``TIPLU_LOG_ORIGIN``).
DEFAULT_ORIGIN = "tiplu.local/log"


def note_key_id(key_name: str, public_key_hex: str) -> bytes:
    """The 4-byte C2SP signed-note key id of an Ed25519 key under ``key_name``."""
    pub = bytes.fromhex(public_key_hex)
    return hashlib.sha256(key_name.encode("utf-8") + b"\n" + ED25519_NOTE_TYPE + pub).digest()[:4]


def accepts_legacy_time(document_format: object) -> bool:
    """Whether a document of this ``format`` may carry a checkpoint with the legacy ``time``
    line (only the formats published before format 3 may)."""
    return isinstance(document_format, str) and document_format in LEGACY_TIME_FORMATS


def format_time(t: datetime) -> str:
    if t.tzinfo is None:
        raise MalformedError("a checkpoint time must be timezone-aware")
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class NoteSignature:
    """One signature line: the key name, the 4-byte key id and the 64-byte signature."""

    key_name: str
    key_id: bytes
    signature: bytes


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A parsed checkpoint (not yet verified unless it came from :func:`verify_checkpoint`)."""

    origin: str
    size: int
    root: bytes
    #: the legacy ``time`` line's value (a checkpoint signed before format 3), else ``None``
    legacy_time: str | None
    signatures: tuple[NoteSignature, ...]
    text: str

    @property
    def body(self) -> bytes:
        """The signed bytes: the body lines (three; four in a legacy checkpoint), each ending in LF."""
        return checkpoint_body(self.origin, self.size, self.root, self.legacy_time)

    @property
    def root_hex(self) -> str:
        return self.root.hex()

    def __str__(self) -> str:
        return self.text


def checkpoint_body(origin: str, size: int, root: bytes, legacy_time: str | None = None) -> bytes:
    """The signed body: origin, size, base64 root (and, only to re-derive a legacy
    checkpoint's bytes, its ``time`` line)."""
    if not origin or origin != origin.strip() or "\n" in origin:
        raise MalformedError("a checkpoint origin is one non-empty line without surrounding spaces")
    tail = "" if legacy_time is None else f"time {legacy_time}\n"
    return f"{origin}\n{size}\n{base64.b64encode(root).decode('ascii')}\n{tail}".encode("utf-8")


def sign_checkpoint(key: SigningKey, *, origin: str, size: int, root: bytes,
                    key_name: str | None = None) -> Checkpoint:
    """A checkpoint of ``(size, root)`` signed by ``key``: the plain three-line C2SP body."""
    key_name = origin if key_name is None else key_name
    if not _NAME_RE.fullmatch(key_name):
        raise MalformedError("a key name is non-empty, without spaces or '+'")
    body = checkpoint_body(origin, size, root)
    sig = bytes.fromhex(key.sign_bytes(body))
    line = f"{SIGNATURE_DASH}{key_name} {base64.b64encode(note_key_id(key_name, key.public_hex) + sig).decode('ascii')}\n"
    return parse_checkpoint(body.decode("utf-8") + "\n" + line)


def make_checkpoint(log: "TransparencyLog", key: SigningKey, *, origin: str, now: datetime,
                    key_name: str | None = None) -> Checkpoint:
    """Sign the log's current size and root and store the checkpoint in the log, with ``now``
    beside it as its issue time (the store's note, not signed: not evidence)."""
    size = log.size()
    cp = sign_checkpoint(key, origin=origin, size=size, root=log.root(size), key_name=key_name)
    log.record_checkpoint(cp.size, cp.root, format_time(now), cp.text)
    return cp


@dataclass(frozen=True)
class CheckpointSigner:
    """``signer(log) -> Checkpoint``: the value of ``app.config["TIPLU_CHECKPOINT_SIGNER"]``.

    Signs the log's current head with ``key`` under ``origin`` at ``clock()`` and stores it.
    ``public_hex`` is published by the API so that monitors can pin the key on first use.
    """

    key: SigningKey
    origin: str
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(timezone.utc))

    @property
    def public_hex(self) -> str:
        return self.key.public_hex

    def __call__(self, log: "TransparencyLog") -> Checkpoint:
        return make_checkpoint(log, self.key, origin=self.origin, now=self.clock())


def _valid_time(t: str) -> None:
    """``datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ")``'s ValueError for a ``t`` of
    :data:`_TIME_RE`'s fixed-width digits, without its format parser: the same fields go to
    the same ``datetime`` constructor, which refuses the same dates (month 0 or 13, 30
    February, hour 24, second 60, year 0; ``tests/tlog/test_checkpoint.py``)."""
    datetime(int(t[0:4]), int(t[5:7]), int(t[8:10]), int(t[11:13]), int(t[14:16]), int(t[17:19]))


def parse_checkpoint(text: str, *, legacy: bool = False) -> Checkpoint:
    """Parse checkpoint text strictly (no signature check); raise :class:`MalformedError`.

    The body is three lines; with ``legacy`` a fourth, the pre-format-3 ``time`` line, is
    accepted too (and nothing else after the root ever is)."""
    if not isinstance(text, str) or len(text) > MAX_CHECKPOINT_CHARS:
        raise MalformedError("a checkpoint is text of at most 4096 characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedError("a checkpoint is UTF-8 text (no lone surrogates)") from None
    if not text.endswith("\n") or "\r" in text:
        raise MalformedError("a checkpoint ends with a newline and uses LF line ends")
    head, sep, tail = text.partition("\n\n")
    if not sep:
        raise MalformedError("a checkpoint needs a blank line between its body and its signatures")
    lines = head.split("\n")
    if len(lines) != 3 and not (legacy and len(lines) == 4):
        raise MalformedError("a checkpoint body is exactly 3 lines: origin, size, root" + (
            " (no line after the root)" if len(lines) > 3 else ""))
    origin, size_text, root_text = lines[:3]
    if not _SIZE_RE.fullmatch(size_text):
        raise MalformedError("checkpoint size is not a decimal number", location="line 2")
    root = b64decode_strict(root_text, "checkpoint root")
    if len(root) != 32:
        raise MalformedError("checkpoint root is not 32 bytes", location="line 3")
    legacy_time = None
    if len(lines) == 4:
        m = _TIME_RE.fullmatch(lines[3])
        if not m:
            raise MalformedError("a legacy checkpoint's 4th line is not 'time YYYY-MM-DDTHH:MM:SSZ'", location="line 4")
        try:
            _valid_time(m.group(1))
        except ValueError:
            raise MalformedError("checkpoint time is not a valid date", location="line 4") from None
        legacy_time = m.group(1)
    checkpoint_body(origin, 0, root)  # validates the origin
    signatures = []
    for line in tail[:-1].split("\n"):
        if not line.startswith(SIGNATURE_DASH):
            raise MalformedError("a signature line starts with '— '")
        parts = line[len(SIGNATURE_DASH):].split(" ")
        if len(parts) != 2 or not _NAME_RE.fullmatch(parts[0]):
            raise MalformedError("a signature line is '— <key name> <base64>'")
        raw = b64decode_strict(parts[1], "signature")
        if len(raw) < 5:
            raise MalformedError("a signature is a 4-byte key id and the signature bytes")
        signatures.append(NoteSignature(parts[0], raw[:4], raw[4:]))
    if not signatures:
        raise MalformedError("a checkpoint needs at least one signature line")
    return Checkpoint(origin, int(size_text), root, legacy_time, tuple(signatures), text)


def verify_checkpoint(text: str, public_key_hex: str, *, origin: str | None = None,
                      key_name: str | None = None, legacy: bool = False) -> Checkpoint:
    """Parse and verify a checkpoint under the operator's public key; return it or raise.
    ``legacy``: accept the pre-format-3 body (:func:`parse_checkpoint`).

    Raises :class:`MalformedError` for text that does not parse and :class:`SignatureError`
    when no signature line of ``key_name`` (default: the origin) with this key's id verifies,
    or when ``origin`` is given and differs.
    """
    cp = parse_checkpoint(text, legacy=legacy)
    if origin is not None and not hmac.compare_digest(cp.origin.encode(), origin.encode()):
        raise SignatureError(f"checkpoint is for log {cp.origin!r}, not {origin!r}")
    name = cp.origin if key_name is None else key_name
    kid = note_key_id(name, public_key_hex)
    candidates = [s for s in cp.signatures if s.key_name == name and hmac.compare_digest(s.key_id, kid)]
    if not candidates:
        raise SignatureError(f"checkpoint has no signature by key {name!r} ({kid.hex()})")
    for s in candidates:
        try:
            verify_bytes(public_key_hex, cp.body, s.signature.hex())
            return cp
        except SignatureError:
            continue
    raise SignatureError(f"checkpoint signature by {name!r} does not verify")
