"""Validate a hand record against its JSON Schema (``docs/hand-record.schema.json``).

jsonschema gives every violation a JSON path, so an auditor learns *where* a record is
wrong; :func:`validate_record` raises :class:`~replay.errors.MalformedError` with that
location.  The schema checks shape; :mod:`replay.records` then checks meaning.
"""
from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator

from replay.errors import MalformedError


@cache
def _validator() -> Draft202012Validator:
    text = resources.files("audit.schemas").joinpath("hand-record.schema.json").read_text(encoding="utf-8")
    return Draft202012Validator(json.loads(text))


MAX_DEPTH = 64  # a real record nests about 8 deep; deeper input would exhaust the recursion limit


def too_deep(data: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether lists/objects nest more than ``limit`` levels (checked without recursion)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > limit:
                return True
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return False


def schema_errors(data: Any) -> list[MalformedError]:
    """Every schema violation, each with its location (``$.table.seats[2].player``)."""
    if too_deep(data):
        return [MalformedError(f"nested more than {MAX_DEPTH} levels deep", location="$")]
    out = []
    for err in sorted(_validator().iter_errors(data), key=lambda e: list(e.absolute_path)):
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
        out.append(MalformedError(err.message if len(err.message) < 200 else err.message[:200] + "...",
                                  location=path))
    return out


@cache
def _fast_check():
    """The compiled yes/no check (:mod:`audit.fastschema`), or ``None`` if the schema uses a
    keyword it does not implement (then jsonschema alone decides)."""
    from .fastschema import Unsupported, compile_schema

    try:
        return compile_schema(_validator().schema)
    except Unsupported:
        return None


def validate_record(data: Any) -> None:
    """Raise the first schema violation as a :class:`MalformedError`.

    A record the fast check accepts is valid (it implements the schema's keywords exactly);
    anything else goes through jsonschema, which finds and locates the violation."""
    fast = _fast_check()
    if fast is not None and fast(data):
        return
    errors = schema_errors(data)
    if errors:
        raise errors[0]
