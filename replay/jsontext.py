"""JSON text to a value, as :func:`json.loads` reads it, faster.

:func:`decode_json` is what reads every record line (:func:`replay.records.load_json`) and
every ``tiplu eval`` request: msgspec decodes strict UTF-8 JSON (about three times faster)
to the very values :func:`json.loads` gives (last duplicate key wins, integers of any
size); what it refuses -- bad JSON, and the extras :func:`json.loads` accepts (``NaN``,
``Infinity``, lone surrogates, UTF-16/32 or BOM-prefixed bytes) -- goes to
:func:`json.loads`, which decides: its value, or its very error.
"""
from __future__ import annotations

import json
from typing import Any

import msgspec

_decode = msgspec.json.Decoder().decode


def decode_json(text: str | bytes) -> Any:
    """:func:`json.loads`'s value of ``text``, or the error :func:`json.loads` raises."""
    try:
        return _decode(text)
    except (msgspec.DecodeError, RecursionError, UnicodeEncodeError):
        pass  # UnicodeEncodeError: a str holding a lone surrogate, which json.loads reads
    return json.loads(text)
