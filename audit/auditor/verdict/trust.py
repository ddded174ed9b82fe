"""The auditor's trust anchor: which operator key an audit trusts, and why.

A record names its operator's key (``table.public_key``), but that is only the operator's
*claim*: a forger writes its own key there.  An audit verifies the log checkpoint (and,
with ``check_signatures``, every statement) under a key the auditor pinned beforehand.

:class:`TrustAnchor` ``(public_key, basis, origin)``; ``basis`` says where the key came from:

=================  ==========================================================================
``pinned``         given on the command line (``--public-key HEX``) or by the caller
``trust-file``     read from a trust file (``--trust FILE``, see :func:`load_trust_file`)
``monitor-state``  the key a monitor pinned on first use and has watched since
``ledger``         the auditor opened the ledger and read the operator registry
``policy``         a ``log`` line of the auditor's pinned C2SP tlog-policy (``--policy FILE``,
                   :mod:`audit.tlog.policy`): the vkey's key, and its name as the log's origin
``record``         nothing pinned: the record's own claimed key -- *not* a trust anchor
=================  ==========================================================================

An audit with basis ``record`` still checks that the record is self-consistent, but says
plainly that nothing ties the key to the operator (:attr:`TrustAnchor.is_pinned`).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replay.errors import MalformedError

if TYPE_CHECKING:
    from ...tlog.policy import Policy

BASES = ("pinned", "trust-file", "monitor-state", "ledger", "policy", "record")
TRUST_FORMAT = "tiplu.trust/1"
_KEY_RE = re.compile(r"[0-9a-f]{64}")


def parse_key(text: object, *, what: str = "public key") -> str:
    """A 32-byte Ed25519 public key as 64 lower-case hex digits (upper case accepted)."""
    if not isinstance(text, str) or not _KEY_RE.fullmatch(text.lower()):
        raise MalformedError(f"a {what} is 64 hex digits (32 bytes)")
    return text.lower()


@dataclass(frozen=True, slots=True)
class TrustAnchor:
    """The key an audit trusts (hex), where it came from, and the log origin if pinned too."""

    public_key: str
    basis: str
    origin: str | None = None

    def __post_init__(self) -> None:
        if self.basis not in BASES:
            raise MalformedError(f"a trust basis is one of {', '.join(BASES)}")
        object.__setattr__(self, "public_key", parse_key(self.public_key))

    @property
    def is_pinned(self) -> bool:
        """Whether the key came from outside the record (anything but basis ``record``)."""
        return self.basis != "record"

    def to_json(self) -> dict[str, Any]:
        return {"public_key": self.public_key, "basis": self.basis, "origin": self.origin,
                "pinned": self.is_pinned}

    def describe(self) -> str:
        where = f" for log {self.origin}" if self.origin else ""
        if not self.is_pinned:
            return (f"key {self.public_key[:16]}... taken from the record itself: NOT a trust anchor "
                    "(pin the operator's key with --public-key or --trust)")
        return f"key {self.public_key[:16]}...{where} ({self.basis})"


def load_trust_file(path: str | Path) -> TrustAnchor:
    """Read a trust file: ``{"format": "tiplu.trust/1", "public_key": HEX, "origin": TEXT?}``.

    ``origin`` (optional) pins the log's name too: a checkpoint of another origin is then
    refused.  Raises :class:`MalformedError` for anything else.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MalformedError(f"cannot read trust file {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != TRUST_FORMAT:
        raise MalformedError(f"a trust file is a JSON object with \"format\": {TRUST_FORMAT!r}")
    origin = data.get("origin")
    if origin is not None and (not isinstance(origin, str) or not origin or origin != origin.strip()):
        raise MalformedError("a trust file's origin is a non-empty log name")
    extra = set(data) - {"format", "public_key", "origin", "operator", "comment"}
    if extra:
        raise MalformedError(f"a trust file has no field {sorted(extra)[0]!r}")
    return TrustAnchor(parse_key(data.get("public_key"), what="trust file public_key"), "trust-file", origin)


class TrustConflictError(MalformedError):
    """A trust file (or ``--public-key``) and a pinned policy that name different logs."""


def reconcile(trust: TrustAnchor | None, policy: "Policy | None") -> TrustAnchor | None:
    """The anchor an audit uses when both a key (``--public-key``, ``--trust``, a state file)
    and a C2SP policy (``--policy``) are given.

    A policy's ``log`` lines already pin the key and (as the vkey's name) the origin, and in
    Tiplu the operator signs its statements with its log's key (one log per operator).  So
    the two must agree: the key must be one of the policy's logs, and a pinned origin that
    log's name; anything else is a :class:`TrustConflictError` (nothing silently wins).
    When they agree the anchor keeps its own basis and gains the log's origin.  A policy
    with no ``log`` line leaves the key to the trust file."""
    if trust is None or policy is None or not policy.logs:
        return trust
    logs = [log for log in policy.logs if log.vkey.public_hex == trust.public_key]
    if not logs:
        raise TrustConflictError(f"the key pinned ({trust.public_key[:16]}...) is not a log of the policy "
                                 f"{policy.name} (its logs: {', '.join(log.origin for log in policy.logs)})")
    if trust.origin is not None and trust.origin not in [log.origin for log in logs]:
        raise TrustConflictError(f"the trust file pins origin {trust.origin!r}, but the policy {policy.name} "
                                 f"names that key's log {logs[0].origin!r}")
    if trust.origin is None and trust.basis != "record":
        return TrustAnchor(trust.public_key, trust.basis, logs[0].origin)
    return trust
