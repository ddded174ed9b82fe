"""Whose log is which: one signed log per operator of a ledger.  The one place that says it.

A ledger can hold several operators.  Each operator has **its own log**: the origin
:func:`operator_origin` names it, and only that operator's key signs its checkpoints.  So a
record's checkpoint is always signed by its own operator's key, and a served checkpoint
never names one key beside another's signature (``docs/transparency-log.md``, "One log per
operator").

The Merkle tree under every operator's log is the ledger's one tree (leaf ``i`` is the
ledger's ``i``-th statement): an operator's log is that tree as that operator signs it.
What the operators sign apart is the *checkpoint*, so each has its own origin, its own
checkpoints, its own witnesses' view (a witness keys its state by origin).

Addresses (every route and client asks these functions, never spells them):

* the origin of operator ``X``'s log: ``<base origin>/X`` (the site's ``TIPLU_LOG_ORIGIN``
  is the base; :func:`operator_origin`);
* the JSON checkpoint: ``GET /api/v1/log/checkpoint?operator=X`` (:func:`checkpoint_api`);
  without ``operator``, the log of the operator whose key is the site's log key;
* C2SP ``tlog-tiles`` resources of that log under :func:`tiles_prefix` (``/log/X/``:
  ``checkpoint``, ``tile/...``, ``tile/entries/...``).
"""
from __future__ import annotations

import re
from urllib.parse import quote

from replay.errors import MalformedError

#: the query parameter naming an operator's log on the log API
OPERATOR_PARAM = "operator"

#: an operator name, as the ledger allows it (``audit.operator.ledger.inputs.check_id``)
_OPERATOR_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")


def check_id(text: object, *, what: str) -> str:
    if not isinstance(text, str) or not _OPERATOR_RE.fullmatch(text):
        raise MalformedError(f"{what} must be 1-64 characters of A-Z a-z 0-9 . _ : - (starting with a letter or digit)")
    return text


def operator_origin(base: str, operator: str) -> str:
    """The origin (checkpoint line 1, and its signature's key name) of ``operator``'s log."""
    check_id(operator, what="operator name")
    base = base.rstrip("/")
    if not base or any(c.isspace() or c in "+\u2014" for c in base):
        raise MalformedError(f"a log origin base is a non-empty name without spaces, '+' or '\u2014': {base!r}")
    return f"{base}/{operator}"


def checkpoint_api(operator: str | None = None) -> str:
    """The path of the JSON checkpoint of ``operator``'s log (the site's own log without one)."""
    path = "/api/v1/log/checkpoint"
    return path if operator is None else f"{path}?{OPERATOR_PARAM}={quote(check_id(operator, what='operator name'), safe='')}"


def tiles_prefix(operator: str) -> str:
    """The URL prefix of ``operator``'s log as C2SP ``tlog-tiles`` static resources."""
    return f"/log/{quote(check_id(operator, what='operator name'), safe='')}/"


#: hashes in a full tile, entries in a full bundle (C2SP tlog-tiles)
TILE_WIDTH = 256


def tile_index_path(index: int) -> str:
    """C2SP tlog-tiles ``<N>``: zero-padded 3-digit elements, all but the last with ``x``."""
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise MalformedError("a tile index is a non-negative integer")
    parts = [f"{index % 1000:03d}"]
    index //= 1000
    while index:
        parts.append(f"x{index % 1000:03d}")
        index //= 1000
    return "/".join(reversed(parts))


def tile_path(level: int | str, index: int, width: int = TILE_WIDTH) -> str:
    """``tile/<L>/<N>[.p/<W>]`` (``level`` ``"entries"``: an entry bundle), relative to
    :func:`tiles_prefix`; ``width`` below 256 is a partial tile."""
    if not (level == "entries" or isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= 63):
        raise MalformedError("a tile level is 0..63 or 'entries'")
    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= TILE_WIDTH:
        raise MalformedError("a tile width is 1..256")
    tail = "" if width == TILE_WIDTH else f".p/{width}"
    return f"tile/{level}/{tile_index_path(index)}{tail}"


_TILE_RE = re.compile(r"tile/(entries|0|[1-9][0-9]?)/((?:x[0-9]{3}/)*[0-9]{3})(?:\.p/([1-9][0-9]{0,2}))?")


def parse_tile_path(path: str) -> tuple[int | str, int, int]:
    """``(level, index, width)`` of a :func:`tile_path` (the inverse, exactly: any other
    spelling -- a leading zero, a level above 63, a width of 0 or 256 -- is refused)."""
    m = _TILE_RE.fullmatch(path)
    if not m:
        raise MalformedError(f"not a tile path: {path!r}")
    level: int | str = m.group(1) if m.group(1) == "entries" else int(m.group(1))
    index = int("".join(part.lstrip("x") for part in m.group(2).split("/")))
    width = int(m.group(3)) if m.group(3) else TILE_WIDTH
    if (isinstance(level, int) and level > 63) or (m.group(3) and width >= TILE_WIDTH) or tile_path(level, index, width) != path:
        raise MalformedError(f"not a tile path: {path!r}")
    return level, index, width
