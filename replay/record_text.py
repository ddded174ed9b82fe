"""The strict reading of a record's text (docs/records.md): a statement's ``time`` has one
spelling, and every number in a record is written as an integer.  Both the Python audit and
the browser verifier (``web/static/verifier/record.mjs``) hold records to these rules, and
the conformance suite pins them (``tools/conformance_strict.py``)."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .errors import MalformedError

#: the one spelling of a statement's ``time`` (docs/records.md): UTC, milliseconds, a literal Z
#: (the record's schema states it too: :mod:`replay.record_model`)
STATEMENT_TIME_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$"
STATEMENT_TIME = re.compile(STATEMENT_TIME_PATTERN)


def is_statement_time(text: Any) -> bool:
    """Whether ``text`` is a statement time as documented: exactly ``YYYY-MM-DDTHH:MM:SS.mmmZ``
    (24 characters) and a real date and time.  No other ISO-8601 form (an offset, no
    milliseconds, the basic format, a space for the ``T``) is one."""
    if not isinstance(text, str) or STATEMENT_TIME.fullmatch(text) is None:
        return False
    year, month, day, hour, minute, second = (int(text[a:b]) for a, b in ((0, 4), (5, 7), (8, 10), (11, 13), (14, 16), (17, 19)))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    return year >= 1 and 1 <= month <= 12 and 1 <= day <= days[month - 1] and hour < 24 and minute < 60 and second < 60


def refuse_non_integers(data: Any) -> None:
    """:class:`MalformedError` at the first number written with a fraction or an exponent."""
    where = first_non_integer(data)
    if where is not None:
        raise MalformedError("a number is written with a fraction or an exponent: a record writes every number "
                             "as an integer (1, not 1.0 or 1e0)", location=where)


def first_non_integer(data: Any) -> str | None:
    """The location of the first number in ``data`` that JSON text wrote with a fraction or an
    exponent (a float: ``1.0``, ``1e0``), or ``None``.  A record writes every number as an
    integer (docs/records.md), so such a record is malformed wherever the number is."""
    stack: list[tuple[Any, str]] = [(data, "$")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, float):
            return path
        if isinstance(value, Mapping):
            stack.extend((v, f"{path}.{k}") for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(value))))
    return None
