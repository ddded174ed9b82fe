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
    """Whether ``a`` and ``b`` are the same text, in time independent of where they differ.

    Two ASCII texts (every digest, key and signature as Tiplu writes them) are compared as
    they are: their UTF-8 bytes are their characters, which :func:`hmac.compare_digest`
    takes directly (``str.isascii`` reads a flag, it does not scan)."""
    if type(a) is str and type(b) is str and a.isascii() and b.isascii():
        return _compare(a, b)
    return _compare(a.encode("utf-8", "surrogatepass"), b.encode("utf-8", "surrogatepass"))


_compare = hmac.compare_digest
