"""Canonical JSON: the one byte string a JSON value hashes and signs as.

Rules (documented in ``docs/fairness.md``): UTF-8; object keys sorted by code point;
no insignificant white space (separators ``,`` and ``:``); non-ASCII characters written
as themselves; no floats anywhere -- amounts are decimal *strings* such as ``"0.25"``.
``json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` in Python and
a sorted ``JSON.stringify`` in JavaScript produce the same bytes for such values.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from .errors import MalformedError


def _reject_floats(value: Any, path: str = "$") -> None:
    if isinstance(value, float):
        raise MalformedError("floats are not allowed in canonical JSON; use a decimal string", location=path)
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise MalformedError("object keys must be strings", location=path)
            _reject_floats(v, f"{path}.{k}")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _reject_floats(v, f"{path}[{i}]")


_PLAIN = (str, int, bool, type(None))


def _is_plain(value: Any) -> bool:
    """True when ``value`` surely holds no float and no non-string key (no paths built:
    the common case of a clean value costs one pass).  False means "look closer"."""
    stack = [value]
    pop, push = stack.pop, stack.extend
    while stack:
        v = pop()
        t = type(v)
        if t is dict:
            for k in v:
                if type(k) is not str:
                    return False
            push(v.values())
        elif t is list or t is tuple:
            push(v)
        elif t not in _PLAIN:
            return False
    return True


def canonical_json(value: Any) -> bytes:
    """The canonical bytes of a JSON value (see the module docstring)."""
    if not _is_plain(value):
        _reject_floats(value)  # finds and locates the offending value, or accepts a subclass
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedError("a string holds a lone surrogate, which has no UTF-8 form") from None


def canonical_hash(value: Any) -> str:
    """Lower-case hex SHA-256 of :func:`canonical_json`."""
    return hashlib.sha256(canonical_json(value)).hexdigest()
