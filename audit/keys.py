"""Key files (``tiplu.key/1``): an Ed25519 signing key as a small JSON document.

``{"format": "tiplu.key/1", "private_key": HEX, "public_key": HEX, "key_id": HEX}``, written
by ``tiplu keys new`` and read wherever a key is kept outside the ledger: an operator's
``--key-file``, the site's log key (``TIPLU_LOG_KEY_FILE``), a witness's key.  The trust
layer owns it so that the CLI and the web app both read keys from here, neither from the
other.
"""
from __future__ import annotations

import json
from typing import Any

from replay.errors import MalformedError

from .signing import SigningKey

KEY_FORMAT = "tiplu.key/1"


def key_document(key: SigningKey) -> dict[str, Any]:
    """The ``tiplu.key/1`` document of ``key`` (it holds the private key: keep it private)."""
    return {"format": KEY_FORMAT, "private_key": key.to_hex(), "public_key": key.public_hex, "key_id": key.key_id}


def load_key_file(path: str) -> SigningKey:
    """A :class:`SigningKey` from a ``tiplu.key/1`` file (the message never echoes the key)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        raise MalformedError(f"{path} is not a {KEY_FORMAT} JSON key file") from None
    if not isinstance(doc, dict) or doc.get("format") != KEY_FORMAT:
        raise MalformedError(f"{path} is not a {KEY_FORMAT} key file")
    key = SigningKey.from_hex(doc.get("private_key"))
    if doc.get("public_key") not in (None, key.public_hex):
        raise MalformedError(f"{path}: the public key does not belong to the private key")
    return key
