"""The one parser of request parameters: integers and ids from query strings, paths and bodies.

Outside text is never handed to ``int()`` or to SQL unchecked (``int("²")`` raises although
``"²".isdigit()``; an integer of 2**63 or more overflows SQLite; a list where an id belongs
reaches the driver as a wrong type).  Every integer parameter goes through
:func:`query_int` (query strings) or the :class:`SeatConverter` (paths, ``<seat:seat>``);
every id in a body goes through :func:`body_id`.  The rule (``docs/web.md``):

* an integer is 1-18 ASCII digits without a leading zero (no sign, no other script's digits,
  no spaces), inside the route's bounds -- at most ``MAX_INT`` (below SQLite's 2**63);
* an id is a JSON string, checked by :func:`audit.operator.ledger.check_id`.

A violation is a 400 ``bad_request`` (a path segment that is no seat number: a 404) in the
one error shape.
"""
from __future__ import annotations

import re
from typing import Any

from flask import Flask, request
from werkzeug.routing import BaseConverter, ValidationError

from .errors import ApiError

MAX_INT = 10 ** 18 - 1  # 18 digits: well inside SQLite's signed 64-bit integers
MAX_SEAT = 63
_DIGITS = re.compile(r"0|[1-9][0-9]{0,17}")


def parse_int(text: str, *, what: str, lo: int = 0, hi: int = MAX_INT) -> int:
    """``text`` as a whole number in ``lo..hi`` (ASCII digits only); :class:`ApiError` 400 otherwise."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        raise ApiError(400, "bad_request", f"{what} must be a whole number written with the digits 0-9"
                                           " (no sign, no leading zero, at most 18 digits)")
    value = int(text)
    if not lo <= value <= hi:
        raise ApiError(400, "bad_request", f"{what} must be between {lo} and {hi}")
    return value


def query_int(name: str, default: int | None = None, *, lo: int = 0, hi: int = MAX_INT) -> int:
    """The query parameter ``name`` as a bounded whole number (``default`` when absent; 400 if
    absent without a default)."""
    text = request.args.get(name)
    if text is None:
        if default is None:
            raise ApiError(400, "bad_request", f"missing parameter {name!r}")
        return default
    return parse_int(text, what=f"parameter {name!r}", lo=lo, hi=hi)


def body_id(body: dict[str, Any], name: str, *, what: str | None = None) -> str:
    """``body[name]`` as an id (a string of the ledger's id alphabet); 400 ``malformed`` otherwise."""
    from audit.operator.ledger import check_id

    return check_id(body.get(name), what=what or name)


class SeatConverter(BaseConverter):
    """``<seat:name>``: a seat number in a path, 0..``MAX_SEAT`` in ASCII digits (404 otherwise)."""

    regex = r"0|[1-9][0-9]?"

    def to_python(self, value: str) -> int:
        if int(value) > MAX_SEAT:
            raise ValidationError()  # no such route: 404
        return int(value)

    def to_url(self, value: Any) -> str:
        return str(int(value))


def init_app(app: Flask) -> None:
    app.url_map.converters["seat"] = SeatConverter
