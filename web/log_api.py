"""The transparency log's JSON API: the blueprint ``bp`` mounted at ``/api/v1/log``.

Configuration (the flaskr way: the app factory sets these, ``init_app(app)`` registers):

* ``app.config["TIPLU_DB"]`` -- path of the ledger's SQLite file.  A request reads the log
  through the request's one ledger (:func:`web.db.get_ledger`, given back on teardown).
* ``app.config["TIPLU_CHECKPOINT_SIGNER"]`` -- a callable ``signer(log) -> Checkpoint``
  that signs and stores a checkpoint of the log's current head, normally
  :class:`audit.tlog.checkpoint.CheckpointSigner`; if it has ``public_hex`` the
  checkpoint response also carries the operator's public key.

Routes (all GET, all JSON; sizes and indexes are decimal integers):

* ``/checkpoint[?operator=NAME]`` -> ``{"checkpoint": text, "size", "root": hex, "time",
  "public_key", "operator"}`` (``time``: when this server signed it, noted by its ledger
  beside the checkpoint -- not in the signed three-line body, so not evidence): the checkpoint of that operator's log (without ``operator``: of
  the operator whose key is the site's log key), signed by that operator's key only, and
  that key (:mod:`audit.tlog.logs`, "One log per operator" in docs/transparency-log.md).
  The latest stored checkpoint of that log is served while the log has not grown; otherwise a
  new one is signed and stored first, so one size always gets one checkpoint per log.  With witnesses
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
from typing import Any, overload

from datetime import datetime, timezone

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request

from audit.consttime import same_text
from audit.signing import SigningKey
from audit.tlog.checkpoint import DEFAULT_ORIGIN, Checkpoint, make_checkpoint, parse_checkpoint
from audit.tlog.logs import OPERATOR_PARAM, check_id, operator_origin
from audit.tlog.store import TransparencyLog
from replay.errors import MalformedError, TipluError

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
        g.tiplu_log = db.get_ledger().transparency_log()
    log: TransparencyLog = g.tiplu_log
    return log


def _int_arg(name: str, default: int | None = None) -> int:
    return query_int(name, default)


def base_origin() -> str:
    """The base the operators' log origins are made from (:func:`~audit.tlog.logs.operator_origin`):
    the checkpoint signer's origin, else ``TIPLU_LOG_ORIGIN`` (``create_app`` makes them one)."""
    signer = current_app.config.get("TIPLU_CHECKPOINT_SIGNER")
    return getattr(signer, "origin", None) or current_app.config.get("TIPLU_LOG_ORIGIN") or DEFAULT_ORIGIN


def requested_operator() -> str | None:
    """The operator whose log a request names (``?operator=``, :mod:`audit.tlog.logs`), or ``None``."""
    name = request.args.get(OPERATOR_PARAM)
    if name is None:
        return None
    try:
        return check_id(name, what="operator name")
    except MalformedError as exc:
        raise ApiError(400, "bad_request", str(exc)) from None


@overload
def _log_owner(operator: str) -> tuple[str, SigningKey | None]: ...
@overload
def _log_owner(operator: None) -> tuple[str | None, SigningKey | None]: ...
def _log_owner(operator: str | None) -> tuple[str | None, SigningKey | None]:
    """``(operator, key)``: whose log to serve and the key that signs it.

    Each operator's log is signed by that operator's key only (``docs/transparency-log.md``,
    "One log per operator").  ``operator`` given: its log, signed by the site's log key when
    that is the operator's key, else by the key the ledger holds for it (``None`` when it
    holds none: only a checkpoint already stored for the current size is served).  Without one: the log of the
    operator whose key is the site's log key (``TIPLU_LOG_KEY_FILE``); a log key that is no
    operator's key of a ledger with operators is refused (503 ``log_key_not_operator``).  A
    ledger without operators (a bare log) is signed by the log key under the base origin."""
    signer = current_app.config.get("TIPLU_CHECKPOINT_SIGNER")
    signer_key: SigningKey | None = getattr(signer, "key", None)
    ledger = db.get_ledger()
    ops = {op.name: op.public_key for op in ledger.operators()}
    if operator is None:
        if not ops:
            return None, signer_key
        if signer_key is None:
            if len(ops) == 1:  # one operator, no log key: its log, from the checkpoints stored
                return next(iter(ops)), None
            raise ApiError(503, "no_signer", "this server has no checkpoint signer configured: "
                           f"ask for one operator's log with ?{OPERATOR_PARAM}=NAME")
        mine = [name for name, pub in ops.items() if same_text(pub, signer_key.public_hex)]
        if not mine:
            raise ApiError(503, "log_key_not_operator", "the site's log key (TIPLU_LOG_KEY_FILE) is no operator's key: "
                           "each operator's log is signed by the operator's own key, so point it at the operator's "
                           "key file")
        return mine[0], signer_key
    if operator not in ops:
        raise ApiError(404, "not_found", f"no operator {operator!r}")
    if signer_key is not None and same_text(ops[operator], signer_key.public_hex):
        return operator, signer_key
    try:
        return operator, ledger.signing_key(operator)
    except TipluError:
        return operator, None


def current_checkpoint(log: TransparencyLog, operator: str | None = None) -> Checkpoint:
    """The checkpoint of ``operator``'s log (:func:`_log_owner`; default: the request's
    ``?operator=``, else the site's own) at ``log``'s current size: the latest stored one of
    that log while the log has not grown, else a new one signed (and stored) by that
    operator's key -- so one size always gets one checkpoint per log (a legacy four-line one
    stored before format 3 is replaced by a plain one of the same tree).  Raises
    :class:`ApiError` 503 ``no_signer`` when a new one is needed and no key can sign it."""
    if operator is None:
        operator = requested_operator()
    operator, key = _log_owner(operator)
    base = base_origin()
    signer = current_app.config.get("TIPLU_CHECKPOINT_SIGNER")
    origin = base if operator is None else operator_origin(base, operator)  # None: a bare log
    size = log.size()
    latest = log.latest_checkpoint(origin)
    cp = parse_checkpoint(latest, legacy=True) if latest is not None else None
    # a checkpoint stored before format 3 (with the time line) is not served while a key can
    # sign a plain one of the same tree
    if cp is None or cp.size != size or (cp.legacy_time is not None and key is not None):
        if key is None:
            if cp is not None and cp.size == size:
                return cp  # the current one, stored: nothing here can sign another
            raise ApiError(503, "no_signer", "this server has no key to sign this log's checkpoint")
        clock = getattr(signer, "clock", None)
        now = clock() if clock is not None else datetime.now(timezone.utc)
        cp = make_checkpoint(log, key, origin=origin, now=now)
    return cp


def checkpoint_json(cp: Checkpoint, log: TransparencyLog | None = None) -> dict[str, Any]:
    """``{"checkpoint", "size", "root", "time", "public_key", "operator"?}`` (``time``: when this
    server signed it, its ledger's unsigned note -- not evidence; the signed body has no time): the public key
    of the operator whose log it is (the one key that signed it; monitors pin it on first
    use).  With witnesses configured, the checkpoint text carries their cosignatures and
    ``witnesses`` / ``witnesses_missing`` say who cosigned (:mod:`audit.tlog.witnessing`)."""
    log = log if log is not None else get_log()
    body: dict[str, Any] = {"checkpoint": cp.text, "size": cp.size, "root": cp.root.hex(),
                            "time": log.checkpoint_time(cp.text)}
    key = _signing_public_key(cp)
    if key is not None:
        body["public_key"], body["operator"] = key
    witnessing = current_app.config.get("TIPLU_WITNESSING")
    if witnessing is not None:
        witnessed = witnessing.witness(log, cp.text)
        body["checkpoint"] = witnessed.text
        body.update(witnessed.to_json())
    return body


def _signing_public_key(cp: Checkpoint) -> tuple[str, str | None] | None:
    """``(public key hex, operator or None)`` of the key whose signature ``cp`` carries: the
    operator whose origin it is, or, for a bare log, the configured signer -- never a key
    beside another key's signature."""
    from audit.tlog.checkpoint import verify_checkpoint

    candidates: list[tuple[str, str | None]] = []
    base = base_origin()
    for op in db.get_ledger().operators():
        if cp.origin == operator_origin(base, op.name):
            candidates.append((op.public_key, op.name))
    signer_hex = getattr(current_app.config.get("TIPLU_CHECKPOINT_SIGNER"), "public_hex", None)
    if signer_hex:
        candidates.append((signer_hex, None))
    for pub, name in candidates:
        try:
            verify_checkpoint(cp.text, pub)
        except (TipluError, ValueError):
            continue
        return pub, name
    return None


@bp.get("/checkpoint")
def checkpoint() -> Response:
    log = get_log()
    return jsonify(checkpoint_json(current_checkpoint(log), log))


@bp.get("/entries")
def entries() -> Response:
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
def inclusion_proof() -> Response:
    log = get_log()
    index = _int_arg("index")
    size = _int_arg("size", log.size())
    path = log.inclusion_proof(index, size)
    return jsonify({"index": index, "size": size, "leaf_hash": log.leaf_hash(index).hex(),
                    "path": [p.hex() for p in path]})


@bp.get("/proof/consistency")
def consistency_proof() -> Response:
    log = get_log()
    first = _int_arg("first")
    second = _int_arg("second", log.size())
    path = log.consistency_proof(first, second)
    return jsonify({"first": first, "second": second, "path": [p.hex() for p in path]})


@bp.get("/policy")
def get_policy() -> Response:
    """The operator's own C2SP ``tlog-policy`` (text/plain, :func:`audit.tlog.policy.operator_policy_text`):
    every operator's log of this site (its vkey; the name is the log's origin), the witnesses
    it submits checkpoints to (``TIPLU_WITNESSES``) and a quorum of any of them.  It is what the
    operator says about itself: an auditor pins its own policy (``--policy FILE``); no audit
    reads this one."""
    from audit.tlog.policy import operator_policy_text

    base = base_origin()
    logs = [(operator_origin(base, op.name), op.public_key) for op in db.get_ledger().operators()]
    signer_hex = getattr(current_app.config.get("TIPLU_CHECKPOINT_SIGNER"), "public_hex", None)
    if not logs and signer_hex:
        logs = [(base, signer_hex)]
    witnessing = current_app.config.get("TIPLU_WITNESSING")
    witnesses = [(e.name, str(e.vkey), e.url) for e in (witnessing.endpoints if witnessing is not None else ())]
    return Response(operator_policy_text(logs, witnesses), mimetype="text/plain")
