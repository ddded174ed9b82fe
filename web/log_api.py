"""The transparency log's JSON API: the blueprint ``bp`` mounted at ``/api/v1/log``.

Configuration (the flaskr way: the app factory sets these, ``init_app(app)`` registers):

* ``app.config["TIPLU_DB"]`` -- path of the ledger's SQLite file.  Each request opens one
  :class:`sqlite_utils.Database` in ``flask.g`` and closes it on teardown.
* ``app.config["TIPLU_CHECKPOINT_SIGNER"]`` -- a callable ``signer(log) -> Checkpoint``
  that signs and stores a checkpoint of the log's current head, normally
  :class:`audit.tlog.checkpoint.CheckpointSigner`; if it has ``public_hex`` the
  checkpoint response also carries the operator's public key.

Routes (all GET, all JSON; sizes and indexes are decimal integers):

* ``/checkpoint`` -> ``{"checkpoint": text, "size", "root": hex, "time", "public_key"?}``.
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

Errors use the project's one shape, ``{"error": {"status", "code", "message"}}``: 400
``bad_request`` for a malformed or impossible parameter, 404 ``not_found`` for an index or
size the log does not have, 503 ``no_signer`` when no signer is configured, 500
``integrity`` when the stored tree contradicts itself.
"""
from __future__ import annotations

import json
import pathlib
import sqlite3
from typing import Any

import sqlite_utils
from flask import Blueprint, Flask, current_app, g, jsonify, request

from audit.errors import LedgerIntegrityError, NotFoundError, ProofError
from audit.tlog.checkpoint import Checkpoint, parse_checkpoint
from audit.tlog.store import TransparencyLog
from replay.errors import TipluError

from . import errors
from .params import query_int

MAX_PAGE = 256

bp = Blueprint("tiplu_log", __name__, url_prefix="/api/v1/log")


class ApiError(errors.ApiError, TipluError):
    """An error answered as ``{"error": {"status", "code", "message"}}``.

    Also a :class:`web.errors.ApiError`, so the app's error handler answers it with its own
    status and code when it is raised outside this blueprint (``current_checkpoint`` is
    called by ``/api/v1/hands/<id>/log-proofs`` too).
    """


def error_response(status: int, code: str, message: str):
    return jsonify({"error": {"status": status, "code": code, "message": message}}), status


@bp.errorhandler(errors.ApiError)
def _api_error(exc: errors.ApiError):
    return error_response(exc.status, exc.code, exc.message)


@bp.errorhandler(NotFoundError)
def _not_found(exc: NotFoundError):
    return error_response(404, "not_found", str(exc))


@bp.errorhandler(ProofError)
def _bad_proof_request(exc: ProofError):
    return error_response(400, "bad_request", str(exc))


@bp.errorhandler(LedgerIntegrityError)
def _integrity(exc: LedgerIntegrityError):
    return error_response(500, "integrity", str(exc))


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


def get_log() -> TransparencyLog:
    """The request's :class:`TransparencyLog` over ``TIPLU_DB`` (opened once per request)."""
    if "tiplu_log" not in g:
        path = current_app.config["TIPLU_DB"]
        try:  # mode=rw: a missing file is an error, never created by a read
            conn = sqlite3.connect(pathlib.Path(path).resolve().as_uri() + "?mode=rw", uri=True)
        except sqlite3.OperationalError:
            raise ApiError(503, "no_ledger", "this server's ledger is not available") from None
        g.tiplu_log_db = sqlite_utils.Database(conn)
        g.tiplu_log = TransparencyLog(g.tiplu_log_db)
    return g.tiplu_log


@bp.teardown_app_request
def _close_db(exc: BaseException | None) -> None:
    g.pop("tiplu_log", None)
    db = g.pop("tiplu_log_db", None)
    if db is not None:
        db.close()


def _int_arg(name: str, default: int | None = None) -> int:
    return query_int(name, default)


def current_checkpoint(log: TransparencyLog) -> Checkpoint:
    """The checkpoint of ``log``'s current size: the latest stored one while the log has not
    grown (and it is of the signer's origin), else a new one signed (and stored) by ``TIPLU_CHECKPOINT_SIGNER`` -- so one size
    always gets one checkpoint.  Raises :class:`ApiError` 503 ``no_signer`` when a new one is
    needed and no signer is configured."""
    size = log.size()
    latest = log.latest_checkpoint()
    cp = parse_checkpoint(latest) if latest is not None else None
    signer = current_app.config.get("TIPLU_CHECKPOINT_SIGNER")
    mine = getattr(signer, "origin", None)
    if cp is None or cp.size != size or (mine is not None and cp.origin != mine):
        if signer is None:
            raise ApiError(503, "no_signer", "this server has no checkpoint signer configured")
        cp = signer(log)
    return cp


def checkpoint_json(cp: Checkpoint, log: TransparencyLog | None = None) -> dict[str, Any]:
    """``{"checkpoint", "size", "root", "time", "public_key"?}``: the signer's public key is
    added when the configured signer has one (monitors pin it on first use).  With witnesses
    configured, the checkpoint text carries their cosignatures and ``witnesses`` /
    ``witnesses_missing`` say who cosigned (:mod:`audit.tlog.witnessing`)."""
    body: dict[str, Any] = {"checkpoint": cp.text, "size": cp.size, "root": cp.root.hex(), "time": cp.time}
    signer = current_app.config.get("TIPLU_CHECKPOINT_SIGNER")
    if getattr(signer, "public_hex", None):
        body["public_key"] = signer.public_hex
    witnessing = current_app.config.get("TIPLU_WITNESSING")
    if witnessing is not None:
        witnessed = witnessing.witness(log if log is not None else get_log(), cp.text)
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
