"""``/openapi.json``: the OpenAPI 3.1 description of every ``/api`` route, written as data.

:data:`~web.openapi.paths.PATHS` describes the public API and the operator API;
:data:`~web.openapi.log_paths.LOG_PATHS` the transparency log's routes (served only when
:mod:`web.log_api` is registered); :data:`~web.openapi.components.COMPONENTS` the token schemes
and the answers' schemas; :mod:`web.openapi.parts` the building blocks they are written with.
This module adds to every operation the errors every route of its kind can answer, and serves
the document.  ``tests/web/test_web_openapi.py`` checks that every registered ``/api`` route is
described and that every path described is registered.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from .components import COMPONENTS
from .log_paths import LOG_PATHS
from .parts import errors
from .paths import PATHS

__all__ = ["PATHS", "LOG_PATHS", "COMPONENTS", "bp", "document"]

bp = Blueprint("openapi", __name__)


def _with_common_errors(paths: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every operation with the errors every route of its kind can answer, whatever its entry
    above lists: a path parameter or a body can be malformed (400); a body can be too large
    (413); a token route is rate limited per address on failed authentication (429, web/limits.py);
    anything that signs needs the secret store (503); an anonymous read can find every read
    slot taken (503 ``busy``).  So no route's description can leave one out."""
    out: dict[str, dict[str, Any]] = {}
    for path, ops in paths.items():
        out[path] = {}
        for method, op in ops.items():
            codes = set()
            if "{" in path or method == "post":
                codes.add(400)
            if method == "post":
                codes |= {413, 503}
            if op.get("security"):
                codes |= {401, 429}
            elif method == "get":
                codes.add(503)  # an anonymous read past the read slots: 503 busy (web/limits.py)
            responses = dict(op["responses"])
            for code, resp in errors(*sorted(codes)).items():
                responses.setdefault(code, resp)
            out[path][method] = {**op, "responses": responses}
    return out


def document(*, with_log: bool) -> dict[str, Any]:
    """The OpenAPI 3.1 document (with the log's paths when the log API is served)."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "Tiplu API", "version": "1",
                 "description": "Provably-fair hand records, verdicts and the operator lifecycle. "
                                "Every error is {\"error\": {\"status\", \"code\", \"message\"}}. See docs/web.md."},
        "paths": _with_common_errors({**PATHS, **(LOG_PATHS if with_log else {})}),
        "components": COMPONENTS,
    }


@bp.get("/openapi.json")
def openapi_json() -> Response:
    return jsonify(document(with_log="tiplu_log" in current_app.blueprints))
