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

The client address is ``request.remote_addr``: behind a reverse proxy set
``TIPLU_TRUSTED_PROXIES`` (the number of proxies in front of the app) so werkzeug's
``ProxyFix`` takes it from ``X-Forwarded-For`` (``docs/web.md``, "Behind a proxy").
Beyond a limit: 429 ``rate_limited`` in the one error shape, with ``Retry-After``.
"""
from __future__ import annotations

from flask import Flask, current_app, request
from flask_limiter import Limiter

from .auth import principal_or_none

#: endpoints a seat token writes to (per-token limit)
SEAT_WRITES = ("api.seat_commit", "api.seat_reveal")
#: endpoints that authenticate with a token (failed-authentication limit)
TOKEN_ROUTE_PREFIXES = ("api.seat_", "operator_api.")


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
