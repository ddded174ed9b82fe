"""The operators' logs as C2SP ``tlog-tiles`` static resources: the blueprint ``bp``.

Each operator's log (:mod:`audit.tlog.logs`: its prefix is ``tiles_prefix(operator)``,
``/log/<operator>/``) is served beside the JSON API, as the C2SP ``tlog-tiles`` spec says:

* ``<prefix>checkpoint`` -- the log's current signed checkpoint (the same one
  ``/api/v1/log/checkpoint?operator=`` serves, with the witnesses' cosignature lines when
  witnesses are configured), ``text/plain; charset=utf-8``, cacheable for a few seconds;
* ``<prefix>tile/<L>/<N>[.p/<W>]`` -- Merkle tree tiles: ``W`` (256 when full) 32-byte hashes,
  hash ``i`` the tree hash of the ``256**L`` leaves from ``(N*256 + i) * 256**L``;
* ``<prefix>tile/entries/<N>[.p/<W>]`` -- entry bundles: the log entries (each the canonical
  JSON of a signed statement, :func:`audit.tlog.store.leaf_entry`) ``N*256 ..``, each as a
  big-endian uint16 length and the entry bytes.

Tiles and bundles are ``application/octet-stream``.  The tree is append-only, so a tile's
bytes never change: a full one is ``Cache-Control: public, max-age=31536000, immutable``; a
partial one (``.p/<W>``) is served while the log has at least that many leaves, cached for a
minute (a client asks for it only after a checkpoint whose size needs it, and then for the
full tile).  A path the spec does not allow, an unknown operator, or a tile the log is too
small for is 404 in the app's one error shape.  The tree under every operator's log is the
ledger's one tree, so the tiles of two operators' prefixes are the same bytes; what differs
is the checkpoint, signed by each operator's own key.
"""
from __future__ import annotations

import struct

from flask import Blueprint, Flask, Response, current_app

from audit.errors import NotFoundError
from audit.tlog.logs import TILE_WIDTH, check_id, parse_tile_path
from replay.errors import MalformedError

from . import errors
from audit.tlog.store import TransparencyLog

from .errors import ApiError
from .log_api import current_checkpoint, get_log, _log_owner

bp = Blueprint("tiplu_tiles", __name__, url_prefix="/log")

IMMUTABLE = "public, max-age=31536000, immutable"
PARTIAL = "public, max-age=60"
CHECKPOINT = "public, max-age=5"


def init_app(app: Flask) -> None:
    errors.init_app(app)
    app.register_blueprint(bp)


def _owner(operator: str) -> str:
    """The operator, if the ledger has it (its tiles are served only then)."""
    try:
        check_id(operator, what="operator name")
    except MalformedError as exc:
        raise ApiError(404, "not_found", str(exc)) from None
    name, _ = _log_owner(operator)
    return name


@bp.get("/<operator>/checkpoint")
def checkpoint(operator: str) -> Response:
    log = get_log()
    cp = current_checkpoint(log, _owner(operator))
    text = cp.text
    witnessing = current_app.config.get("TIPLU_WITNESSING")
    if witnessing is not None:
        text = witnessing.witness(log, cp.text).text
    return Response(text, content_type="text/plain; charset=utf-8", headers={"Cache-Control": CHECKPOINT})


def bundle(log: TransparencyLog, index: int, width: int) -> bytes:
    """The entry bundle of entries ``index*256 .. index*256 + width`` (each: uint16 BE length, bytes)."""
    start = index * TILE_WIDTH
    if start + width > log.size():
        raise NotFoundError(f"the log is too small for entry bundle {index} of width {width}")
    out = bytearray()
    for _, entry in log.entries(start, start + width):
        if len(entry) > 0xFFFF:
            raise ApiError(500, "integrity", "a log entry is longer than an entry bundle can hold (65535 bytes)")
        out += struct.pack(">H", len(entry)) + entry
    return bytes(out)


@bp.get("/<operator>/<path:rest>")
def tile(operator: str, rest: str) -> Response:
    _owner(operator)
    try:
        level, index, width = parse_tile_path(rest)
    except MalformedError as exc:
        raise ApiError(404, "not_found", str(exc)) from None
    log = get_log()
    body = log.tile(level, index, width) if isinstance(level, int) else bundle(log, index, width)  # else "entries"
    return Response(body, content_type="application/octet-stream",
                    headers={"Cache-Control": IMMUTABLE if width == TILE_WIDTH else PARTIAL})
