"""C2SP signed notes (``signed-note@v1.0.0``): parse a note, its verifier keys, its signatures.

This is the generic layer under checkpoints and cosignatures; :mod:`audit.tlog.checkpoint`
keeps Tiplu's own four-line checkpoint, :mod:`audit.tlog.cosignature` adds the witnesses'
``cosignature/v1`` lines.  The spec's words:

* *note text* -- UTF-8 text ending in ``\\n``, no control characters but ``\\n``; it is
  separated from the signatures by the **last** empty line of the note.
* *signature line* -- ``— <key name> base64(4-byte key id || signature)`` + ``\\n``
  (``—`` is U+2014, then a space).  Key names are non-empty, without spaces or ``+``.
* *key id* -- ``SHA-256(key name || 0x0A || signature type || public key)[:4]``, big endian.
* *vkey* (verifier key) -- ``<key name>+<hex key id>+<base64(signature type || public key)>``.
* *signature types* used here: ``0x01`` Ed25519 over the note text (a log's own signature),
  ``0x04`` timestamped Ed25519 cosignature (``c2sp.org/tlog-cosignature``).

A verifier ignores lines whose (name, key id) is not one of its keys; a line that matches a
known key must verify (:mod:`audit.tlog.cosignature`, :func:`verify_ed25519_note`).
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
from dataclasses import dataclass

from audit.errors import SignatureError
from audit.signing import verify_bytes
from replay.errors import MalformedError

SIGNATURE_DASH = "\u2014 "
TYPE_ED25519 = 0x01
TYPE_COSIGNATURE_ED25519 = 0x04
KNOWN_TYPES = {TYPE_ED25519: "Ed25519", TYPE_COSIGNATURE_ED25519: "Ed25519 cosignature/v1"}
#: The largest note parsed (a checkpoint and dozens of signature lines fit easily).
MAX_NOTE_BYTES = 64 * 1024
#: Signature lines accepted per note (the spec requires accepting at least 16).
MAX_SIGNATURES = 64

_NAME_RE = re.compile(r"[^\s+\u2014]+")
_HEX8_RE = re.compile(r"[0-9a-f]{8}")
_CONTROL_RE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


def check_key_name(name: str) -> str:
    """Return ``name`` if it is a valid key name (non-empty, no Unicode space, no '+')."""
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise MalformedError(f"key name {name!r} must be non-empty, without spaces or '+'")
    return name


def key_id(name: str, sig_type: int, public_key: bytes) -> bytes:
    """``SHA-256(name || 0x0A || type || public key)[:4]`` (signed-note, "Signatures")."""
    return hashlib.sha256(name.encode("utf-8") + b"\n" + bytes([sig_type]) + public_key).digest()[:4]


def b64decode_strict(text: str, what: str) -> bytes:
    """Standard padded base64 (RFC 4648 §4), canonical encodings only."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise MalformedError(f"{what} is not standard base64") from None
    if base64.b64encode(raw).decode("ascii") != text:
        raise MalformedError(f"{what} is not canonical base64")
    return raw


@dataclass(frozen=True, slots=True)
class Vkey:
    """A verifier key: name, 4-byte key id, signature type and public key material."""

    name: str
    key_id: bytes
    sig_type: int
    public_key: bytes

    @classmethod
    def for_key(cls, name: str, sig_type: int, public_key: bytes) -> "Vkey":
        """The vkey of ``public_key`` under ``name`` with the recommended key id."""
        check_key_name(name)
        return cls(name, key_id(name, sig_type, public_key), sig_type, bytes(public_key))

    @property
    def public_hex(self) -> str:
        return self.public_key.hex()

    def __str__(self) -> str:
        material = base64.b64encode(bytes([self.sig_type]) + self.public_key).decode("ascii")
        return f"{self.name}+{self.key_id.hex()}+{material}"


def parse_vkey(text: str, *, sig_type: int | None = None) -> Vkey:
    """Parse ``<name>+<hex key id>+<base64(type || key)>``; with ``sig_type``, require that type.

    Ed25519 types (0x01, 0x04) need a 32-byte key, and the key id must be the one the
    spec recommends (so a vkey cannot claim a key id that is not its key's).
    """
    if not isinstance(text, str):
        raise MalformedError("a verifier key is text")
    parts = text.strip().split("+", 2)  # the name has no '+'; the base64 may
    if len(parts) != 3:
        raise MalformedError("a verifier key is <name>+<hex key id>+<base64 key>")
    name, kid_hex, material_b64 = parts
    check_key_name(name)
    if not _HEX8_RE.fullmatch(kid_hex):
        raise MalformedError("a verifier key's id is 8 lower-case hex digits")
    material = b64decode_strict(material_b64, "verifier key material")
    if not material:
        raise MalformedError("a verifier key has no key material")
    vtype, pub = material[0], material[1:]
    if sig_type is not None and vtype != sig_type:
        raise MalformedError(f"verifier key {name!r} has signature type 0x{vtype:02x}, expected 0x{sig_type:02x}"
                             f" ({KNOWN_TYPES.get(sig_type, 'unknown')})")
    if vtype not in KNOWN_TYPES:
        raise MalformedError(f"verifier key {name!r}: signature type 0x{vtype:02x} is not supported")
    if len(pub) != 32:
        raise MalformedError(f"verifier key {name!r}: an Ed25519 key is 32 bytes")
    vkey = Vkey(name, bytes.fromhex(kid_hex), vtype, pub)
    if not hmac.compare_digest(vkey.key_id, key_id(name, vtype, pub)):
        raise MalformedError(f"verifier key {name!r}: key id {kid_hex} is not the id of its key")
    return vkey


@dataclass(frozen=True, slots=True)
class NoteLine:
    """One signature line: key name, 4-byte key id, signature bytes (after the id)."""

    key_name: str
    key_id: bytes
    signature: bytes

    def __str__(self) -> str:
        return f"{SIGNATURE_DASH}{self.key_name} {base64.b64encode(self.key_id + self.signature).decode('ascii')}\n"


@dataclass(frozen=True, slots=True)
class Note:
    """A parsed (unverified) note: the text (bytes signed) and its signature lines."""

    text: str
    signatures: tuple[NoteLine, ...]

    @property
    def body(self) -> bytes:
        return self.text.encode("utf-8")

    def lines_for(self, vkey: Vkey) -> list[NoteLine]:
        """The signature lines whose name *and* key id are ``vkey``'s (others are ignored)."""
        return [s for s in self.signatures if s.key_name == vkey.name and hmac.compare_digest(s.key_id, vkey.key_id)]

    def __str__(self) -> str:
        return self.text + "\n" + "".join(str(s) for s in self.signatures)


def parse_signature_line(line: str) -> NoteLine:
    """Parse one ``— <name> <base64>`` line (without its ``\\n``)."""
    if not line.startswith(SIGNATURE_DASH):
        raise MalformedError("a signature line starts with '\u2014 '")
    parts = line[len(SIGNATURE_DASH):].split(" ")
    if len(parts) != 2:
        raise MalformedError("a signature line is '\u2014 <key name> <base64>'")
    check_key_name(parts[0])
    raw = b64decode_strict(parts[1], "signature")
    if len(raw) < 5:
        raise MalformedError("a signature is a 4-byte key id and the signature bytes")
    return NoteLine(parts[0], raw[:4], raw[4:])


def parse_signature_lines(text: str) -> tuple[NoteLine, ...]:
    """Lines of signatures, each ending in ``\\n`` (as a witness answers ``add-checkpoint``)."""
    if not isinstance(text, str) or not text.endswith("\n"):
        raise MalformedError("signature lines each end with a newline")
    lines = text[:-1].split("\n")
    if len(lines) > MAX_SIGNATURES:
        raise MalformedError(f"more than {MAX_SIGNATURES} signature lines")
    return tuple(parse_signature_line(line) for line in lines)


def parse_note(text: str) -> Note:
    """Parse a signed note strictly (no signature is checked); raise :class:`MalformedError`."""
    if not isinstance(text, str):
        raise MalformedError("a note is text")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise MalformedError("a note is UTF-8 text (no lone surrogates)") from None
    if size > MAX_NOTE_BYTES:
        raise MalformedError(f"a note is at most {MAX_NOTE_BYTES} bytes")
    if _CONTROL_RE.search(text):
        raise MalformedError("a note has no control characters other than newline")
    if not text.endswith("\n"):
        raise MalformedError("a note ends with a newline")
    cut = text.rfind("\n\n")
    if cut < 0:
        raise MalformedError("a note needs an empty line between its text and its signatures")
    body, sigs = text[:cut + 1], text[cut + 2:]
    if not sigs:
        raise MalformedError("a note needs at least one signature line")
    return Note(body, parse_signature_lines(sigs))


def verify_ed25519_note(note: Note, vkey: Vkey) -> None:
    """Verify ``vkey``'s (type 0x01) signature on ``note``: raise unless one matching line
    exists and every matching line verifies (a bad line from a known key rejects the note)."""
    if vkey.sig_type != TYPE_ED25519:
        raise SignatureError(f"key {vkey.name!r} is not an Ed25519 (0x01) note key")
    lines = note.lines_for(vkey)
    if not lines:
        raise SignatureError(f"no signature by {vkey.name!r} ({vkey.key_id.hex()})")
    for line in lines:
        if len(line.signature) != 64:
            raise SignatureError(f"signature by {vkey.name!r} is not 64 bytes")
        verify_bytes(vkey.public_hex, note.body, line.signature.hex())
