"""Write rate limits (Flask-Limiter), applied *after* authentication.

Two limits, both counted in Flask-Limiter's storage (``TIPLU_RATELIMIT_STORAGE``, default
``memory://``: per worker process; a shared ``redis://`` URI makes them one across workers):

* **per token** -- a seat's commit and reveal count against that seat token's own allowance
  (``TIPLU_RATE_LIMIT`` requests per minute, default 60).  A token acts for exactly one hand
  and seat, so this is per token *and* seat.  Requests without a valid token never count
  here: nobody can spend a player's allowance but the player.
* **failed authentication** -- a request to any token-authenticated route whose token is
  missing, unknown or revoked counts against its client address (``TIPLU_AUTH_FAIL_LIMIT``
  per minute, default 30); past it such requests get 429 before any work.  A request with
  a valid token is exempt, so failures from one address (or behind one proxy) never lock
  out the honest players there.

And one cap on **anonymous reads** (``TIPLU_READ_SLOTS``, default 2): at most that many GET
or HEAD requests of the public pages and API are served at once by one process; one past it
is answered at once, before any work, with 503 ``busy`` and ``Retry-After: 1``.  Token
routes (every write, and the operator's and seats' reads), any read that carries a valid
token (an operator or a player following its hand) and static files are never capped, so however many anonymous readers there are, a process keeps threads free for the
players' and the operator's writes (issue 29: 40 readers had made an honest write step
take 65 times as long).  Run gunicorn with more ``--threads`` than the slots.

The client address is ``request.remote_addr``: behind a reverse proxy set
``TIPLU_TRUSTED_PROXIES`` (the number of proxies in front of the app) so werkzeug's
``ProxyFix`` takes it from ``X-Forwarded-For`` (``docs/web.md``, "Behind a proxy").
Beyond a limit: 429 ``rate_limited`` in the one error shape, with ``Retry-After``.
"""
from __future__ import annotations

import threading

from flask import Flask, current_app, g, request
from flask_limiter import Limiter

from .auth import principal_or_none

#: endpoints a seat token writes to (per-token limit)
SEAT_WRITES = ("api.seat_commit", "api.seat_reveal")
#: endpoints that authenticate with a token (failed-authentication limit)
TOKEN_ROUTE_PREFIXES = ("api.seat_", "operator_api.")
#: cheap endpoints no read cap applies to: files served as they are
UNCAPPED_READS = ("static", "pages.verify_asset", "pages.verify_page", "pages.verify_redirect", "pages.favicon")


def is_capped_read() -> bool:
    """Whether this request is an anonymous read the read slots cap: a GET or HEAD of a
    public page or API route, without a valid token (a player or the operator reading with
    its token is not anonymous)."""
    endpoint = request.endpoint or ""
    if request.method not in ("GET", "HEAD") or endpoint.startswith(TOKEN_ROUTE_PREFIXES) or endpoint in UNCAPPED_READS:
        return False
    return "Authorization" not in request.headers or principal_or_none() is None


def _init_read_slots(app: Flask) -> None:
    @app.before_request
    def _mark_an_anonymous_read():
        # web/read_cache.py keeps only what Flask's side judged an anonymous read
        if is_capped_read():
            request.environ["tiplu.anonymous_read"] = True
        return None

    slots = int(app.config.get("TIPLU_READ_SLOTS", 0) or 0)
    if slots <= 0:
        return
    gate = threading.BoundedSemaphore(slots)
    app.extensions["tiplu_read_slots"] = gate

    @app.before_request
    def _take_a_read_slot():
        if not is_capped_read():
            return None
        if not gate.acquire(blocking=False):
            from .errors import ApiError
            raise ApiError(503, "busy", "this server is answering as many reads as it serves at once; "
                                        "retry in a second")
        g.tiplu_read_slot = True
        return None

    @app.teardown_request
    def _give_the_read_slot_back(_exc):
        if g.pop("tiplu_read_slot", False):
            gate.release()


def _token_key() -> str:
    who = principal_or_none()
    return f"token:{who.token_id}" if who is not None else "no-token"


def _client_key() -> str:
    return f"addr:{request.remote_addr or 'unknown'}"


def _seat_limit() -> str:
    return f"{int(current_app.config['TIPLU_RATE_LIMIT'])} per minute"


def _auth_fail_limit() -> str:
    return f"{int(current_app.config['TIPLU_AUTH_FAIL_LIMIT'])} per minute"


def _unauthenticated(response) -> bool:
    return response.status_code == 401


def init_app(app: Flask) -> None:
    """A limiter of this app's own (its counters are not shared with another app object);
    call after the blueprints are registered: it wraps their token routes."""
    limiter = Limiter(key_func=_client_key, app=app, storage_uri=app.config["TIPLU_RATELIMIT_STORAGE"],
                      strategy="moving-window", headers_enabled=True, default_limits=[])
    # shared limits: one allowance per token over both seat routes, one failure count per address
    seat = limiter.shared_limit(_seat_limit, scope="seat-writes", key_func=_token_key,
                                exempt_when=lambda: principal_or_none() is None)
    failed = limiter.shared_limit(_auth_fail_limit, scope="auth-failures", key_func=_client_key,
                                  deduct_when=_unauthenticated, exempt_when=lambda: principal_or_none() is not None)
    for endpoint, view in list(app.view_functions.items()):
        if endpoint.startswith(TOKEN_ROUTE_PREFIXES):
            if endpoint in SEAT_WRITES:
                view = seat(view)
            app.view_functions[endpoint] = failed(view)
    app.extensions["tiplu_limiter"] = limiter
    _init_read_slots(app)
