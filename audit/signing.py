"""Ed25519 statements: canonical JSON signed by an operator, verifiable with its public key alone.

A *statement* is a JSON object with at least ``type`` (``"tiplu.statement/1"``) and
``kind`` (``"commitment"``, ``"seat-receipt"``, ``"deal"``, ``"record"``, ``"reveal"`` ...).
Its signature is Ed25519 over :func:`replay.canonical.canonical_json` of the statement.
A *signed statement* is ``{"statement": {...}, "key": <public key hex>, "sig": <signature hex>}``.

Keys are raw 32-byte Ed25519 keys written as lower-case hex; a key's id is the first 16 hex
digits of ``SHA-256(public key)``.
"""
from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Mapping

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from replay.canonical import canonical_json
from replay.errors import MalformedError
from replay.fairness import parse_hex

from .errors import SignatureError

STATEMENT_TYPE = "tiplu.statement/1"


def key_id(public_key_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:16]


@dataclass(frozen=True)
class SigningKey:
    """An operator's Ed25519 private key (never printed: ``repr`` shows only the key id)."""

    _key: Ed25519PrivateKey

    @classmethod
    def generate(cls) -> "SigningKey":
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_hex(cls, text: str) -> "SigningKey":
        return cls(Ed25519PrivateKey.from_private_bytes(parse_hex(text, what="private key", size=32)))

    def to_hex(self) -> str:
        return self._key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                       serialization.NoEncryption()).hex()

    @property
    def public_hex(self) -> str:
        return self._key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()

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


def verify_bytes(public_key_hex: str, message: bytes, signature_hex: str) -> None:
    """Raise :class:`SignatureError` unless ``signature_hex`` signs ``message`` under the key."""
    try:
        pub = Ed25519PublicKey.from_public_bytes(parse_hex(public_key_hex, what="public key", size=32))
        pub.verify(parse_hex(signature_hex, what="signature", size=64), message)
    except (InvalidSignature, MalformedError, ValueError) as exc:
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
