"""Ed25519 statements: canonical JSON signed by an operator, verifiable with its public key alone.

A *statement* is a JSON object with at least ``type`` (``"tiplu.statement/2"``; format 3) and
``kind`` (``"commitment"``, ``"seat-receipt"``, ``"deal"``, ``"record"``, ``"reveal"`` ...).
Its signature is Ed25519 over :func:`replay.canonical.canonical_json` of the statement.
A *signed statement* is ``{"statement": {...}, "key": <public key hex>, "sig": <signature hex>}``.

Keys are raw 32-byte Ed25519 keys written as lower-case hex; a key's id is the first 16 hex
digits of ``SHA-256(public key)``.

One backend: pyca/``cryptography`` (OpenSSL) makes keys, signs and verifies.  Verification
runs behind strict pre-checks (:func:`check_strict`) that refuse the edge cases RFC 8032
leaves open -- OpenSSL alone would accept a signature under the identity point as a key
for any message: ``docs/security.md`` ("Signature verification") explains.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from replay.canonical import canonical_json
from replay.errors import MalformedError
from replay.fairness import parse_hex

from .errors import SignatureError

STATEMENT_TYPE = "tiplu.statement/2"  # format 3 (docs/format-3.md): what the ledger signs
STATEMENT_TYPE_V1 = "tiplu.statement/1"  # the statements of tiplu.hand/2 records and tiplu.receipt/2

_P = 2**255 - 19  # the field prime of Curve25519
#: The order of the Ed25519 base point; a signature's S must be below it (RFC 8032 5.1.7).
L = 2**252 + 27742317777372353535851937790883648493
#: The y coordinates (mod 2**255, sign bit ignored) of the points of small order -- the
#: identity (1), order 2 (p-1), order 4 (0) and the two order-8 y values -- and the
#: non-canonical encodings p and p+1 of 0 and 1: libsodium's ``ge25519_has_small_order`` list.
_Y8 = 2707385501144840649318225287225658788936804267575313519463743609750303402022
SMALL_ORDER_Y = frozenset({0, 1, _P - 1, _Y8, _P - _Y8, _P, _P + 1})
_Y_MASK = (1 << 255) - 1


def key_id(public_key_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:16]


@dataclass(frozen=True)
class SigningKey:
    """An operator's Ed25519 private key (never printed: ``repr`` shows only the key id).

    The public key (hex) is derived once, when the key is made: a ledger signs every
    statement with one key."""

    _key: Ed25519PrivateKey
    _public_hex: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        public = self._key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        object.__setattr__(self, "_public_hex", public.hex())

    @classmethod
    def generate(cls) -> "SigningKey":
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_hex(cls, text: object) -> "SigningKey":  # any value: parse_hex refuses a non-hex one
        return cls(Ed25519PrivateKey.from_private_bytes(parse_hex(text, what="private key", size=32)))

    def to_hex(self) -> str:
        return self._key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                       serialization.NoEncryption()).hex()

    @property
    def public_hex(self) -> str:
        return self._public_hex

    @property
    def key_id(self) -> str:
        return key_id(self.public_hex)

    def sign_bytes(self, message: bytes) -> str:
        return self._key.sign(message).hex()

    def sign(self, statement: Mapping[str, Any]) -> dict[str, Any]:
        """A signed statement: the statement, the public key and the signature over its canonical JSON."""
        stmt = dict(statement)
        stmt.setdefault("type", STATEMENT_TYPE)
        return {"statement": stmt, "key": self.public_hex, "sig": self.sign_bytes(canonical_json(stmt))}

    def __repr__(self) -> str:
        return f"SigningKey(<private key {self.key_id}>)"


def check_strict(public_key: bytes, signature: bytes) -> None:
    """Refuse the edge cases on which Ed25519 implementations differ (RFC 8032 leaves them open).

    Raises :class:`SignatureError` when ``S >= L`` (a malleable, non-canonical S), when the
    key is encoded non-canonically (``y >= p``), or when the key or the signature's ``R`` is a
    point of small order (such a key lets one signature verify many messages).  These are
    the checks libsodium makes before verifying; OpenSSL (``cryptography``) does not make
    the small-order ones, so they are made here first.
    """
    y = int.from_bytes(public_key, "little") & _Y_MASK
    if y >= _P or y in SMALL_ORDER_Y:
        raise SignatureError("the public key is non-canonical or of small order")
    if int.from_bytes(signature[32:], "little") >= L:
        raise SignatureError("the signature's S is not below the group order (non-canonical)")
    if int.from_bytes(signature[:32], "little") & _Y_MASK in SMALL_ORDER_Y:
        raise SignatureError("the signature's R is a point of small order")


@lru_cache(maxsize=64)
def _openssl_key(public_key: bytes) -> Ed25519PublicKey:
    """The parsed key object, per key (an audit verifies many statements under one key)."""
    return Ed25519PublicKey.from_public_bytes(public_key)


def _verify(public_key: bytes, message: bytes, signature: bytes) -> None:
    try:
        _openssl_key(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        raise SignatureError("invalid signature") from None


def verify_bytes(public_key_hex: str, message: bytes, signature_hex: str) -> None:
    """Raise :class:`SignatureError` unless ``signature_hex`` signs ``message`` under the key.

    Strict: besides the Ed25519 equation, :func:`check_strict`'s edge cases are refused."""
    try:
        pub = parse_hex(public_key_hex, what="public key", size=32)
        sig = parse_hex(signature_hex, what="signature", size=64)
        check_strict(pub, sig)
        _verify(pub, message, sig)
    except (SignatureError, MalformedError) as exc:
        detail = str(exc) or "invalid signature"
        raise SignatureError(f"signature does not verify under key {str(public_key_hex)[:16]}...: {detail}") from None


def verify_statement(signed: Mapping[str, Any], public_key_hex: str | None = None) -> dict[str, Any]:
    """Verify a signed statement (under ``public_key_hex`` when given); returns the statement."""
    if not isinstance(signed, Mapping) or not isinstance(signed.get("statement"), Mapping):
        raise MalformedError("a signed statement needs 'statement', 'key' and 'sig'")
    key = signed.get("key")
    if public_key_hex is not None and not hmac.compare_digest(str(key), public_key_hex):
        raise SignatureError("statement is signed by another key than the operator's")
    statement = dict(signed["statement"])
    verify_bytes(str(key), canonical_json(statement), str(signed.get("sig")))
    return statement
