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

Each route declares its limit where it is defined, with a decorator under its route
(:func:`token_route`, :func:`seat_write`, :func:`file_route`); a route that declares none is a
public read.  The limits follow the declaration, never the endpoint's name, so a token route
named otherwise is limited all the same; a test walks the app's routes and fails for one that
answers 401 to a bad token without declaring a token limit (tests/web/test_web_route_limits.py),
and a request to a token route the limiter never wrapped (one added after :func:`init_app`) is
refused with 500 instead of served unlimited.

Beyond a limit: 429 ``rate_limited`` in the one error shape, with ``Retry-After``.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, TypeVar

from flask import Flask, current_app, g, request
from flask_limiter import Limiter

from .auth import principal_or_none

#: the kinds of limit a route declares (:func:`limit_of`)
PUBLIC = "public"          # no declaration: an anonymous GET or HEAD takes a read slot
FILE = "file"              # a file served as it is: never capped
TOKEN = "token"            # authenticated by a token: failed authentication counts per address; never capped
SEAT_WRITE = "seat-write"  # a seat token's write: the token's own allowance too
KINDS = (PUBLIC, FILE, TOKEN, SEAT_WRITE)
#: the kinds of a route that takes a token
TOKEN_KINDS = (TOKEN, SEAT_WRITE)
#: Flask's own route, which no module of ours defines
BUILTIN = {"static": FILE}

#: the attribute a declaration sets on a view function (kept by ``functools.wraps``)
_DECLARED = "tiplu_limit"
#: set on a token route's view once the limiter wraps it
_WRAPPED = "tiplu_limited"

View = TypeVar("View", bound=Callable[..., object])


def _declare(kind: str) -> Callable[[View], View]:
    def declare(view: View) -> View:
        setattr(view, _DECLARED, kind)
        return view
    return declare


#: ``@token_route`` under a route: it authenticates with a token (failed-authentication limit)
token_route = _declare(TOKEN)
#: ``@seat_write`` under a route: a seat token's write (its own allowance, and failed authentication)
seat_write = _declare(SEAT_WRITE)
#: ``@file_route`` under a route: a file served as it is (no read slot)
file_route = _declare(FILE)


def limit_of(app: Flask, endpoint: str | None) -> str:
    """The limit the route of ``endpoint`` declared (:data:`KINDS`; :data:`PUBLIC` when none)."""
    view = app.view_functions.get(endpoint or "")
    declared = getattr(view, _DECLARED, None)
    return declared if declared is not None else BUILTIN.get(endpoint or "", PUBLIC)


def is_capped_read() -> bool:
    """Whether this request is an anonymous read the read slots cap: a GET or HEAD of a
    public page or API route, without a valid token (a player or the operator reading with
    its token is not anonymous)."""
    if request.method not in ("GET", "HEAD") or limit_of(current_app, request.endpoint) != PUBLIC:
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


def _refuse_an_unlimited_token_route() -> None:
    # a token route added after init_app was never wrapped: refused, never served unlimited
    if limit_of(current_app, request.endpoint) in TOKEN_KINDS and \
            not getattr(current_app.view_functions.get(request.endpoint or ""), _WRAPPED, False):
        raise RuntimeError(f"route {request.endpoint!r} takes a token but was added after the limits: "
                           "register it before web.limits.init_app")


def init_app(app: Flask) -> None:
    """A limiter of this app's own (its counters are not shared with another app object);
    call after the blueprints are registered: it wraps their token routes, by what each
    declared (:func:`limit_of`)."""
    limiter = Limiter(key_func=_client_key, app=app, storage_uri=app.config["TIPLU_RATELIMIT_STORAGE"],
                      strategy="moving-window", headers_enabled=True, default_limits=[])
    # shared limits: one allowance per token over both seat routes, one failure count per address
    seat = limiter.shared_limit(_seat_limit, scope="seat-writes", key_func=_token_key,
                                exempt_when=lambda: principal_or_none() is None)
    failed = limiter.shared_limit(_auth_fail_limit, scope="auth-failures", key_func=_client_key,
                                  deduct_when=_unauthenticated, exempt_when=lambda: principal_or_none() is not None)
    for endpoint, route_view in list(app.view_functions.items()):
        # Flask-Limiter's decorators are typed for sync and async views alike: the views here are sync
        view: Callable[..., Any] = route_view
        kind = limit_of(app, endpoint)
        if kind not in KINDS:
            raise ValueError(f"route {endpoint!r} declares the unknown limit {kind!r}")
        if kind in TOKEN_KINDS:
            if kind == SEAT_WRITE:
                view = seat(view)
            view = failed(view)
            setattr(view, _WRAPPED, True)
            app.view_functions[endpoint] = view
    app.before_request(_refuse_an_unlimited_token_route)
    app.extensions["tiplu_limiter"] = limiter
    _init_read_slots(app)
