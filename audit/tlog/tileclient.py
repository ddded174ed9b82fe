"""Reading an operator's log entries through its C2SP ``tlog-tiles`` entry bundles.

:class:`~audit.auditor.sources.operator_api.LogClient` (the monitor and the URL audit) reads the entries
below a checkpoint's size from ``<base>/log/<operator>/tile/entries/<N>[.p/<W>]``
(:func:`~audit.tlog.logs.tiles_prefix`, :func:`~audit.tlog.logs.tile_path`): static,
cacheable resources, 256 entries a request.  A bundle is the entries, each a big-endian
uint16 length and the entry bytes (the canonical JSON of a signed statement).  When the
server has no tiles (404 on the first bundle: a server from before them), the client falls
back to the JSON API ``/api/v1/log/entries`` -- documented in docs/transparency-log.md.
Whatever is read, the caller rebuilds the tree and compares it with the signed checkpoint,
so a bundle that lies is caught there (``log_inconsistent``).
"""
from __future__ import annotations

import json
import struct
from typing import Any

from replay.errors import MalformedError

from .logs import TILE_WIDTH, tile_path, tiles_prefix


class NoTiles(Exception):
    """The server serves no tiles for this log (fall back to the JSON API)."""


def parse_bundle(data: bytes, width: int) -> list[bytes]:
    """The ``width`` entries of an entry bundle; :class:`MalformedError` if it is not exactly that."""
    out, at = [], 0
    while at < len(data):
        if at + 2 > len(data):
            raise MalformedError("an entry bundle ends inside a length")
        (length,) = struct.unpack(">H", data[at:at + 2])
        if at + 2 + length > len(data):
            raise MalformedError("an entry bundle ends inside an entry")
        out.append(data[at + 2:at + 2 + length])
        at += 2 + length
    if len(out) != width:
        raise MalformedError(f"an entry bundle of width {width} holds {len(out)} entries")
    return out


def bundle_entries(get: Any, operator: str, start: int, end: int) -> list[dict[str, Any]]:
    """``[{"index", "entry"}]`` from ``start`` to the end of its bundle (at most ``end``), read
    with ``get(path) -> (status, bytes)``; raises :class:`NoTiles` on a 404."""
    n = start // TILE_WIDTH
    width = min(TILE_WIDTH, end - n * TILE_WIDTH)
    if width <= 0:
        return []
    status, data = get(tiles_prefix(operator) + tile_path("entries", n, width))
    if status == 404:
        raise NoTiles(operator)
    if status != 200:
        raise MalformedError(f"entry bundle {n} answered {status}")
    entries = parse_bundle(data, width)
    out = []
    for k, raw in enumerate(entries):
        index = n * TILE_WIDTH + k
        if index < start:
            continue
        try:
            out.append({"index": index, "entry": json.loads(raw.decode("utf-8"))})
        except (UnicodeDecodeError, ValueError):
            raise MalformedError(f"entry {index} of the bundle is not JSON") from None
    return out
