"""The transparency log's JSON API: the blueprint ``bp`` mounted at ``/api/v1/log``.

Configuration (the flaskr way: the app factory sets these, ``init_app(app)`` registers):

* ``app.config["TIPLU_DB"]`` -- path of the ledger's SQLite file.  A request reads the log
  through the request's one ledger (:func:`web.db.get_ledger`, given back on teardown).
* ``app.config["TIPLU_CHECKPOINT_SIGNER"]`` -- a callable ``signer(log) -> Checkpoint``
  that signs and stores a checkpoint of the log's current head, normally
  :class:`audit.tlog.checkpoint.CheckpointSigner`; if it has ``public_hex`` the
  checkpoint response also carries the operator's public key.

Routes (all GET, all JSON; sizes and indexes are decimal integers):

* ``/checkpoint`` -> ``{"checkpoint": text, "size", "root": hex, "time", "public_key"?}``
  (``time``: when this server signed it, noted by its ledger beside the checkpoint -- not in
  the signed three-line body, so not evidence).
  The latest stored checkpoint is served while the log has not grown; otherwise a new one
  is signed and stored first, so one size always gets one checkpoint.  With witnesses
  configured (``app.config["TIPLU_WITNESSING"]``, from ``TIPLU_WITNESSES``) the text carries
  their cosignature lines and the body adds ``"witnesses": [{"name", "vkey", "url",
  "cosigned", "reason"}]`` and ``"witnesses_missing": [name, ...]``; a witness that is down
  is simply missing (asked again later), the checkpoint is served all the same.
* ``/entries?start=&end=`` -> ``{"entries": [{"index", "entry": <signed statement>}]}`` for
  ``start <= index < end`` (``end`` exclusive, clamped to the log size and to at most
  :data:`MAX_PAGE` entries: ask again from the next index).
* ``/proof/inclusion?index=&size=`` -> ``{"index", "size", "leaf_hash", "path": [hex]}``
  (``size`` defaults to the current size).
* ``/proof/consistency?first=&second=`` -> ``{"first", "second", "path": [hex]}``.

Errors are the app's one shape (:mod:`web.errors`), ``{"error": {"status", "code",
"message"}}``: 400 ``bad_request`` for a malformed or impossible parameter, 404
``not_found`` for an index or size the log does not have, 503 ``no_signer`` when no signer
is configured, 503 ``no_ledger`` when ``TIPLU_DB`` is not a ledger, 500 ``integrity`` when
the stored tree contradicts itself.
"""
from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Flask, current_app, g, jsonify

from audit.ledger import queries
from audit.tlog.checkpoint import Checkpoint, parse_checkpoint
from audit.tlog.store import TransparencyLog

from . import db, errors
from .errors import ApiError
from .params import query_int

MAX_PAGE = 256

bp = Blueprint("tiplu_log", __name__, url_prefix="/api/v1/log")


def init_app(app: Flask) -> None:
    """Mount the log API, with what it stands on: the one error shape (:mod:`web.errors`)
    and the request's ledger (:mod:`web.db`) -- both registered once per app."""
    errors.init_app(app)
    db.init_app(app)
    app.register_blueprint(bp)


def get_log() -> TransparencyLog:
    """The request's :class:`TransparencyLog`: the log of the request's one ledger connection."""
    if "tiplu_log" not in g:
        g.tiplu_log = queries.transparency_log(db.get_ledger())
    return g.tiplu_log


def _int_arg(name: str, default: int | None = None) -> int:
    return query_int(name, default)


def current_checkpoint(log: TransparencyLog) -> Checkpoint:
    """The checkpoint of ``log``'s current size: the latest stored one while the log has not
    grown (and it is of the signer's origin and a plain three-line one), else a new one signed (and stored) by ``TIPLU_CHECKPOINT_SIGNER`` -- so one size
    always gets one checkpoint.  Raises :class:`ApiError` 503 ``no_signer`` when a new one is
    needed and no signer is configured."""
    size = log.size()
    latest = log.latest_checkpoint()
    cp = parse_checkpoint(latest, legacy=True) if latest is not None else None
    signer = current_app.config.get("TIPLU_CHECKPOINT_SIGNER")
    mine = getattr(signer, "origin", None)
    # a checkpoint stored before format 3 (with the time line) is never served: sign a plain one
    if cp is None or cp.size != size or (mine is not None and cp.origin != mine) or cp.legacy_time is not None:
        if signer is None:
            raise ApiError(503, "no_signer", "this server has no checkpoint signer configured")
        cp = signer(log)
    return cp


def checkpoint_json(cp: Checkpoint, log: TransparencyLog | None = None) -> dict[str, Any]:
    """``{"checkpoint", "size", "root", "time", "public_key"?}`` (``time``: when this server
    signed it, its ledger's unsigned note -- not evidence; the signed body has no time):
    the signer's public key is
    added when the configured signer has one (monitors pin it on first use).  With witnesses
    configured, the checkpoint text carries their cosignatures and ``witnesses`` /
    ``witnesses_missing`` say who cosigned (:mod:`audit.tlog.witnessing`)."""
    log = log if log is not None else get_log()
    body: dict[str, Any] = {"checkpoint": cp.text, "size": cp.size, "root": cp.root.hex(),
                            "time": log.checkpoint_time(cp.text)}
    signer = current_app.config.get("TIPLU_CHECKPOINT_SIGNER")
    if getattr(signer, "public_hex", None):
        body["public_key"] = signer.public_hex
    witnessing = current_app.config.get("TIPLU_WITNESSING")
    if witnessing is not None:
        witnessed = witnessing.witness(log, cp.text)
        body["checkpoint"] = witnessed.text
        body.update(witnessed.to_json())
    return body


@bp.get("/checkpoint")
def checkpoint():
    log = get_log()
    return jsonify(checkpoint_json(current_checkpoint(log), log))


@bp.get("/entries")
def entries():
    log = get_log()
    size = log.size()
    start = _int_arg("start")
    end = _int_arg("end", start + MAX_PAGE)
    if end <= start:
        raise ApiError(400, "bad_request", "end must be larger than start (end is exclusive)")
    if start >= size:
        raise ApiError(404, "not_found", f"no entry {start}: the log has {size} entries")
    end = min(end, size, start + MAX_PAGE)
    return jsonify({"entries": [{"index": i, "entry": json.loads(e)} for i, e in log.entries(start, end)]})


@bp.get("/proof/inclusion")
def inclusion_proof():
    log = get_log()
    index = _int_arg("index")
    size = _int_arg("size", log.size())
    path = log.inclusion_proof(index, size)
    return jsonify({"index": index, "size": size, "leaf_hash": log.leaf_hash(index).hex(),
                    "path": [p.hex() for p in path]})


@bp.get("/proof/consistency")
def consistency_proof():
    log = get_log()
    first = _int_arg("first")
    second = _int_arg("second", log.size())
    path = log.consistency_proof(first, second)
    return jsonify({"first": first, "second": second, "path": [p.hex() for p in path]})
