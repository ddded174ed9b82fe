"""A fast yes/no JSON Schema check for the keywords the hand-record schema uses.

:func:`compile_schema` turns a schema into nested Python closures that answer only "is this
instance valid?".  It understands exactly these keywords, with jsonschema's (draft
2020-12) meaning: ``type``, ``required``, ``properties``, ``items`` (one schema for every
item), ``minItems``/``maxItems``, ``minLength``/``maxLength``, ``minimum``, ``pattern``
(``re.search``), ``const``/``enum`` of strings, ``oneOf``; and it ignores the annotations
``$schema``, ``$id``, ``title``, ``description``, ``format`` (jsonschema, as used here,
does not assert formats either).  Any other keyword raises :class:`Unsupported`, and the
caller then uses jsonschema alone -- so a schema change can never make this check laxer.

:mod:`audit.schema` uses it as a fast path: a record it accepts is valid; a record it
rejects goes to jsonschema for the located error message (so messages are unchanged).
The profile of an archive audit showed jsonschema's generic machinery at ~35% of the
time per record; this check costs a few percent.
"""
from __future__ import annotations

import re
from typing import Any, Callable

Check = Callable[[Any], bool]
ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "format", "examples", "default"})


class Unsupported(ValueError):
    """The schema uses a keyword this module does not implement."""


def _is_integer(x: Any) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer())


def _of(kind: type) -> Check:
    return lambda x: isinstance(x, kind)


TYPES: dict[str, Check] = {
    "object": _of(dict),
    "array": _of(list),
    "string": _of(str),
    "integer": _is_integer,
    "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def compile_schema(schema: Any) -> Check:
    """A predicate equal to ``jsonschema`` validity for ``schema`` (or :class:`Unsupported`)."""
    if schema is True or schema == {}:
        return lambda x: True
    if not isinstance(schema, dict):
        raise Unsupported(f"schema {schema!r}")
    unknown = set(schema) - ANNOTATIONS - {
        "type", "required", "properties", "items", "minItems", "maxItems", "minLength", "maxLength",
        "minimum", "pattern", "const", "enum", "oneOf"}
    if unknown:
        raise Unsupported(", ".join(sorted(unknown)))
    checks: list[Check] = []
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if any(n not in TYPES for n in names):
            raise Unsupported(f"type {names!r}")
        preds = [TYPES[n] for n in names]
        checks.append(preds[0] if len(preds) == 1 else (lambda x: any(p(x) for p in preds)))
    for key in ("const", "enum"):
        if key in schema:
            allowed = [schema[key]] if key == "const" else schema[key]
            if not all(isinstance(a, str) for a in allowed):
                raise Unsupported(f"{key} of non-strings")  # jsonschema's equality has subtleties there
            values = frozenset(allowed)
            checks.append(lambda x, values=values: isinstance(x, str) and x in values)
    if "required" in schema:
        req = tuple(schema["required"])
        def required(x: Any) -> bool:
            if isinstance(x, dict):
                for k in req:
                    if k not in x:
                        return False
            return True
        checks.append(required)
    if "properties" in schema:
        props = tuple((k, compile_schema(v)) for k, v in schema["properties"].items())

        def properties(x: Any) -> bool:
            if not isinstance(x, dict):
                return True
            for k, check in props:
                if k in x and not check(x[k]):
                    return False
            return True
        checks.append(properties)
    if "items" in schema:
        each = compile_schema(schema["items"])
        def items(x: Any) -> bool:
            if isinstance(x, list):
                for i in x:
                    if not each(i):
                        return False
            return True
        checks.append(items)
    if "minItems" in schema:
        lo = schema["minItems"]
        checks.append(lambda x: not isinstance(x, list) or len(x) >= lo)
    if "maxItems" in schema:
        hi = schema["maxItems"]
        checks.append(lambda x: not isinstance(x, list) or len(x) <= hi)
    if "minLength" in schema:
        lo_s = schema["minLength"]
        checks.append(lambda x: not isinstance(x, str) or len(x) >= lo_s)
    if "maxLength" in schema:
        hi_s = schema["maxLength"]
        checks.append(lambda x: not isinstance(x, str) or len(x) <= hi_s)
    if "minimum" in schema:
        m = schema["minimum"]
        checks.append(lambda x: not _is_number(x) or x >= m)
    if "pattern" in schema:
        search = re.compile(schema["pattern"]).search
        checks.append(lambda x: not isinstance(x, str) or search(x) is not None)
    if "oneOf" in schema:
        alts = [compile_schema(s) for s in schema["oneOf"]]
        checks.append(lambda x: sum(1 for a in alts if a(x)) == 1)
    if len(checks) == 1:
        return checks[0]
    seq = tuple(checks)

    def every(x: Any) -> bool:
        for c in seq:
            if not c(x):
                return False
        return True
    return every
