"""Canonical JSON: the one byte string a JSON value hashes and signs as.

Rules (documented in ``docs/fairness.md``): UTF-8; object keys sorted by code point;
no insignificant white space (separators ``,`` and ``:``); non-ASCII characters written
as themselves; no floats anywhere -- amounts are decimal *strings* such as ``"0.25"``.
``json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` in Python and
a sorted ``JSON.stringify`` in JavaScript produce the same bytes for such values.

:func:`canonical_json` writes them with orjson (``OPT_SORT_KEYS``), about eight times
faster: for a value of exactly those types -- dicts with string keys, lists, tuples,
strings, integers of at most 64 bits, booleans, ``None`` -- orjson's bytes are those of the
``json.dumps`` call above (the same escapes: quote, backslash, the short forms b f n r t
and a lower-case six-character escape for the other control characters, nothing else;
keys sorted by code point, which is UTF-8 byte order).  Anything else -- a bigger integer, a lone surrogate, a
subclass, deep nesting -- takes the ``json.dumps`` path, so the bytes (or the error) are
always the documented ones; ``tests/test_canonical_fast.py`` checks this on generated
values and every fixture.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson

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


NOT_JSON, JSON_WITH_FLOATS, PLAIN_JSON = 0, 1, 2


def json_kind(value: Any) -> int:
    """What ``value`` is, in one pass: :data:`PLAIN_JSON` -- only dicts with string keys,
    lists, strings, integers, booleans and ``None``, of exactly those types (what JSON text
    without a non-integer number decodes to: its canonical JSON is orjson's bytes);
    :data:`JSON_WITH_FLOATS` -- the same with floats somewhere; :data:`NOT_JSON` --
    anything else (a tuple, a subclass, another mapping or object)."""
    stack = [value]
    pop, push = stack.pop, stack.extend
    floats = False
    while stack:
        v = pop()
        t = type(v)
        if t is dict:
            for k in v:
                if type(k) is not str:
                    return NOT_JSON
            push(v.values())
        elif t is list:
            push(v)
        elif t is float:
            floats = True
        elif t is not str and t is not int and t is not bool and v is not None:
            return NOT_JSON
    return JSON_WITH_FLOATS if floats else PLAIN_JSON


_SORTED = orjson.OPT_SORT_KEYS
_dumps = orjson.dumps
_EncodeError = orjson.JSONEncodeError


def canonical_json(value: Any) -> bytes:
    """The canonical bytes of a JSON value (see the module docstring)."""
    if _is_plain(value):
        try:
            return _dumps(value, option=_SORTED)
        except _EncodeError:
            pass  # a > 64-bit integer, a lone surrogate, deep nesting: json.dumps decides
    else:
        _reject_floats(value)  # finds and locates the offending value, or accepts a subclass
    return _canonical_text(value)


def plain_canonical_json(value: Any) -> bytes:
    """:func:`canonical_json` of a value :func:`json_kind` found :data:`PLAIN_JSON` (or a
    part of one), without walking it again."""
    try:
        return _dumps(value, option=_SORTED)
    except _EncodeError:
        return _canonical_text(value)


def _canonical_text(value: Any) -> bytes:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedError("a string holds a lone surrogate, which has no UTF-8 form") from None


def canonical_hash(value: Any) -> str:
    """Lower-case hex SHA-256 of :func:`canonical_json`."""
    return hashlib.sha256(canonical_json(value)).hexdigest()
