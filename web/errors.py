"""The one JSON error shape, everywhere on the API::

    {"error": {"status": 404, "code": "not_found", "message": "no hand 'x'"}}

HTTP errors keep their status; Tiplu's typed errors map to 4xx (:data:`STATUS_OF`; stored
data that contradicts itself is a 500 ``integrity``; a server whose ledger or secret store
cannot be used -- missing, not a ledger, a store readable by others -- is a 503
``no_ledger`` or ``misconfigured`` whose message names no path); an unexpected error is a 500 with a
generic message -- never a traceback, never a secret.  Every blueprint, the log API's
too, answers through this one handler.
Pages (non-API paths) get the same information as a small HTML page.
"""
from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from audit.errors import (AuthError, LedgerIntegrityError, LedgerStateError, NotALedgerError, NotFoundError,
                          SignatureError)
from audit.operator.ledger import SecretStoreError
from replay.errors import CommitmentMismatchError, IllegalMoveError, MalformedError, RulesetError, TipluError

log = logging.getLogger("tiplu.web")

# Most specific first.
STATUS_OF: list[tuple[type[BaseException], int, str]] = [
    (NotALedgerError, 503, "no_ledger"),  # the server's TIPLU_DB is missing or not a ledger
    (AuthError, 401, "unauthorized"),
    (NotFoundError, 404, "not_found"),
    (LedgerIntegrityError, 500, "integrity"),  # stored data that contradicts itself (e.g. the log's tree)
    (LedgerStateError, 409, "conflict"),
    (CommitmentMismatchError, 422, "commitment_mismatch"),
    (SignatureError, 422, "bad_signature"),
    (IllegalMoveError, 422, "illegal_move"),
    (RulesetError, 400, "bad_ruleset"),
    (MalformedError, 400, "malformed"),
    (TipluError, 400, "bad_request"),
]


class ApiError(Exception):
    """An error with an HTTP status and a stable code, raised by the web layer itself."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_body(status: int, code: str, message: str) -> dict[str, Any]:
    return {"error": {"status": status, "code": code, "message": message}}


def _wants_json() -> bool:
    # /log/...: the C2SP tlog-tiles resources (web/log_tiles.py), read by programs
    return request.path.startswith(("/api/", "/log/")) or request.path == "/openapi.json" or request.is_json


def _respond(status: int, code: str, message: str) -> Response:
    if _wants_json():
        resp = jsonify(error_body(status, code, message))
    else:
        resp = Response(render_template("error.html", status=status, code=code, message=message), mimetype="text/html")
    resp.status_code = status
    if code == "busy":  # the read slots are taken (web/limits.py): a second is enough
        resp.headers["Retry-After"] = "1"
    return resp


#: 5xx answers the app gives on purpose that say nothing is wrong: the server is busy for a
#: moment (``busy``: the read slots, web/limits.py) or still computing a page (``computing``)
TRANSIENT_CODES = frozenset({"busy", "computing"})


def answer_level(exc: ApiError) -> int:
    """The log level of a 5xx :class:`ApiError`, logged by its code (never as ``internal
    error``, kept for what the app did not expect, and never with a traceback): INFO for a
    transient answer (a flood of ``503 busy`` is the read cap working, not an error),
    ERROR for a 500 (stored data that contradicts itself), WARNING for the rest (a missing
    signer, a log key that is no operator's: the operator has something to fix)."""
    if exc.code in TRANSIENT_CODES:
        return logging.INFO
    return logging.ERROR if exc.status == 500 else logging.WARNING


def classify(exc: BaseException) -> tuple[int, str, str]:
    if isinstance(exc, ApiError):
        return exc.status, exc.code, exc.message
    if isinstance(exc, HTTPException) and exc.code == 429:  # Flask-Limiter's RateLimitExceeded
        return 429, "rate_limited", f"rate limit exceeded ({exc.description}); try again later"
    if isinstance(exc, HTTPException):
        code = (exc.name or "error").lower().replace(" ", "_").replace("'", "")
        return exc.code or 500, code, exc.description or exc.name or "error"
    if isinstance(exc, NotALedgerError):  # the message names a server path: not for clients
        return 503, "no_ledger", "this server's ledger is not available"
    if isinstance(exc, SecretStoreError):  # the server's configuration, not the request: says nothing of it
        return 503, "misconfigured", "this server is misconfigured and cannot sign now; its operator's log says why"
    for kind, status, code in STATUS_OF:
        if isinstance(exc, kind):
            return status, code, str(exc)
    return 500, "internal_error", "internal error"


def init_app(app: Flask) -> None:
    """Answer every error of ``app`` in the one shape (once per app: a blueprint's own
    ``init_app`` may call this too)."""
    if app.extensions.setdefault("tiplu_errors", False):
        return
    app.extensions["tiplu_errors"] = True

    @app.errorhandler(Exception)
    def handle(exc: Exception) -> Response:
        status, code, message = classify(exc)
        if isinstance(exc, SecretStoreError):  # the operator needs the path and the fix; the client none of it
            log.error("configuration error on %s %s: %s", request.method, request.path, exc)
        elif isinstance(exc, ApiError) and status >= 500:  # an answer the app chose, not a fault
            log.log(answer_level(exc), "%s %s on %s %s: %s", status, exc.code, request.method, request.path,
                    exc.message)
        elif status >= 500:
            log.error("internal error on %s %s: %s", request.method, request.path, type(exc).__name__)
        return _respond(status, code, message)
