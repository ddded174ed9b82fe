"""Validate a hand record against its JSON Schema (``docs/hand-record.schema.json``).

jsonschema gives every violation a JSON path, so an auditor learns *where* a record is
wrong; :func:`validate_record` raises :class:`~replay.errors.MalformedError` with that
location.  The schema checks shape; :mod:`replay.records` then checks meaning.  The
record model there (:class:`~replay.record_model.HandRecordDoc`) is the fast yes/no check, and
a test keeps it and the documented schema equal.
"""
from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator

from replay.canonical import NOT_JSON, json_kind
from replay.errors import MalformedError
from replay.record_model import check_shape
from replay.registry import game_names, presets


def _validator() -> Draft202012Validator:
    """The schema's validator, its ruleset's preset and game enums the registry's as it is now:
    the built-in ones the schema names, and any game registered at run time (tests/toy_game)."""
    return _validator_for(presets(), game_names())


@cache
def _validator_for(known_presets: tuple[str, ...], known_games: tuple[str, ...]) -> Draft202012Validator:
    schema = json.loads(resources.files("audit.schemas").joinpath("hand-record.schema.json").read_text(encoding="utf-8"))
    ruleset = schema["properties"]["ruleset"]
    ruleset = schema.get("$defs", {}).get(ruleset.get("$ref", "").rsplit("/", 1)[-1], ruleset)
    for name, known in (("preset", known_presets), ("game", known_games)):
        listed = ruleset["properties"][name]["enum"]   # the file's words stay as they are; a registered one is added
        listed += [k for k in known if k not in listed]
    return Draft202012Validator(schema)


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
        out.append(MalformedError(_message(err), location=path))
    return out


def _message(err: Any) -> str:
    """jsonschema's words, but a pattern that the schema describes (a point value, a
    commission, a statement time: the model's ``Meta``) says what it stands for, not its regex."""
    described = err.schema.get("description") if isinstance(err.schema, dict) else None
    if err.validator == "pattern" and isinstance(described, str) and isinstance(err.instance, str):
        shown = err.instance if len(err.instance) <= 40 else err.instance[:40] + "..."
        return f"{shown!r} is not {described}"
    message: str = err.message  # jsonschema is untyped: its ValidationError's message is text
    return message if len(message) < 200 else message[:200] + "..."


def validate_record(data: Any, *, kind: int | None = None) -> None:
    """Raise the first schema violation as a :class:`MalformedError`.

    The record model (:class:`replay.record_model.HandRecordDoc`, msgspec) answers yes or no for
    JSON data (``kind``: :func:`replay.canonical.json_kind` of ``data``, when the caller has
    it): what it accepts is valid, since it states every constraint of the schema and no
    laxer (``tests/test_record_model.py``).  Anything else goes through jsonschema, which
    finds and locates the violation -- so the messages are jsonschema's, as before.  (The
    model is not asked about other Python values: msgspec would read a tuple as an array.)"""
    if kind is None:
        kind = json_kind(data)
    if kind != NOT_JSON and check_shape(data):
        return
    errors = schema_errors(data)
    if errors:
        raise errors[0]
