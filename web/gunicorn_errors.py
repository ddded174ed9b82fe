"""gunicorn's own error answers in the app's one JSON error shape.

gunicorn answers some requests before the app sees them -- a request line longer than
``limit_request_line`` (414), headers past ``limit_request_fields`` or
``limit_request_field_size`` (431), a request that is not HTTP (400) -- and it writes those
answers as HTML (``gunicorn.util.write_error``).  :func:`install` replaces that writer with
one that sends ``{"error": {"status", "code", "message"}}`` (``web/errors.py``), so a client
sees the one shape whoever answers.  It is installed by ``web/gunicorn_conf.py`` (gunicorn's
``-c python:web.gunicorn_conf``; the ``gunicorn.conf.py`` at the repo root loads it).

What cannot be shaped: a connection gunicorn drops without an answer (a timeout, a client
that closes), and errors of a proxy in front.  The message never echoes the request line or
a header (they can be long, and are the client's own).
"""
from __future__ import annotations

import json
import socket

#: status -> (code, message) of the answers gunicorn itself gives
ANSWERS = {
    400: ("bad_request", "the request is not valid HTTP"),
    403: ("forbidden", "the request is not allowed from here"),
    414: ("uri_too_long", "the request line (method, path and query) is too long"),
    417: ("expectation_failed", "the Expect header is not supported"),
    431: ("request_header_fields_too_large", "too many request headers, or one too large"),
    500: ("internal_error", "internal error"),
    501: ("not_implemented", "that transfer coding is not supported"),
}


def error_response(status: int, reason: str) -> bytes:
    """The raw HTTP answer gunicorn sends for ``status``, in the one error shape."""
    code, message = ANSWERS.get(status, (reason.lower().replace(" ", "_") or "error", reason or "error"))
    body = json.dumps({"error": {"status": status, "code": code, "message": message}}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


def install() -> None:
    """Make gunicorn's workers write their own errors in the one JSON shape."""
    from gunicorn import util

    def write_error(sock: socket.socket, status_int: int | str, reason: str, mesg: str) -> None:  # gunicorn.util.write_error's signature
        util.write_nonblock(sock, error_response(int(status_int), str(reason)))

    util.write_error = write_error
