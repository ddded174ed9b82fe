"""Constant-time comparison of texts that may come from anyone.

:func:`hmac.compare_digest` takes two ``str`` only when both are ASCII and raises
``TypeError`` otherwise, so a record or request carrying a non-ASCII character where a
hex digest belongs would crash the comparison instead of failing it.  :func:`same_text`
compares the UTF-8 bytes (lone surrogates kept, as JSON can carry them): equal texts are
equal bytes, and any text is a value, never an exception.
"""
from __future__ import annotations

import hmac


def same_text(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are the same text, in time independent of where they differ."""
    return hmac.compare_digest(a.encode("utf-8", "surrogatepass"), b.encode("utf-8", "surrogatepass"))
