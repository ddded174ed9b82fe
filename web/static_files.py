"""Files served as they are: the verify page (``web/static/verify.html``, at ``/verify/``) and
its modules and styles, and the favicon.  Each route declares itself a file route
(:func:`web.limits.file_route`): no read slot is taken for a file."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, redirect, send_from_directory
from flask.typing import ResponseReturnValue

from .limits import file_route

bp = Blueprint("files", __name__)

STATIC = Path(__file__).parent / "static"


@bp.get("/verify")
@file_route
def verify_redirect() -> ResponseReturnValue:
    return redirect("/verify/", code=308)


@bp.get("/verify/")
@file_route
def verify_page() -> ResponseReturnValue:
    return send_from_directory(STATIC, "verify.html")


@bp.get("/verify/<path:name>")
@file_route
def verify_asset(name: str) -> ResponseReturnValue:
    if not name.endswith((".mjs", ".css", ".html", ".json")):
        abort(404)
    return send_from_directory(STATIC, name)  # 404 for a path outside STATIC or no such file


@bp.get("/favicon.ico")
@file_route
def favicon() -> ResponseReturnValue:
    return Response(status=204)
