"""Errors of the trust and storage layer (they extend :mod:`replay.errors`)."""
from __future__ import annotations

from replay.errors import TipluError


class SignatureError(TipluError, ValueError):
    """A signature that does not verify under the expected public key."""


class LedgerError(TipluError):
    """Base class of ledger errors."""


class LedgerStateError(LedgerError, ValueError):
    """A call out of order for the hand's lifecycle (e.g. a seed after the deal)."""


class LedgerIntegrityError(LedgerError):
    """Stored data that contradicts itself (a broken chain, a statement that does not verify)."""


class NotALedgerError(LedgerError, ValueError):
    """A path that is not a Tiplu ledger: missing, empty, not SQLite, or another program's database.

    Opening never creates or migrates such a file unless asked to create one (``create=True``)."""


class NotFoundError(LedgerError, LookupError):
    """No such operator, table, hand or statement."""


class AuthError(TipluError):
    """A missing or wrong token."""


class ProofError(TipluError, ValueError):
    """A Merkle inclusion or consistency proof (or a tree head) that does not verify."""
