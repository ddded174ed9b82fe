"""Who may write: bearer tokens (:mod:`audit.tokens`) and the public write rate limit.

The auth model (``docs/web.md``):

* no ``Authorization: Bearer ...`` header, or a token that is unknown, wrong or revoked
  -> 401 ``unauthorized``;
* an operator token acts only for its operator: its tables and hands (403 ``forbidden``
  otherwise); a seat token on an operator route -> 403;
* a seat token acts only on its own hand and seat (403 otherwise); an operator token on a
  seat route -> 403 too: a seat's seed is the player's, not the house's.

:class:`RateLimiter` is a small in-memory sliding window (per client address, per minute,
``TIPLU_RATE_LIMIT`` requests) for the public write routes: beyond it, 429.
"""
from __future__ import annotations

import threading
import time
from collections import deque
from typing import Callable

from flask import current_app, request

from audit.errors import AuthError
from audit.tokens import Principal, authenticate

from .db import get_ledger
from .errors import ApiError


def bearer_token() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AuthError("this route needs 'Authorization: Bearer <token>'")
    return token.strip()


def current_principal() -> Principal:
    return authenticate(get_ledger().db, bearer_token())


def require_operator(operator: str | None = None) -> Principal:
    """The operator token's principal; 403 for a seat token or another operator's resource."""
    who = current_principal()
    if not who.is_operator:
        raise ApiError(403, "forbidden", "a seat token cannot use the operator API")
    if operator is not None and who.operator != operator:
        raise ApiError(403, "forbidden", "this token's operator does not own that resource")
    return who


def require_seat(hand_id: str, seat: int) -> Principal:
    """The seat token's principal for exactly this hand and seat; 403 for anything else."""
    who = current_principal()
    if who.is_operator:
        raise ApiError(403, "forbidden", "a seat's seed is submitted with that seat's own token")
    if who.hand_id != hand_id or who.seat != seat:
        raise ApiError(403, "forbidden", "this token acts only for its own hand and seat")
    return who


class RateLimiter:
    """At most ``limit`` hits per ``window`` seconds per key (sliding window, in memory)."""

    def __init__(self, limit: int, window: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> bool:
        """Count one request; ``False`` when it is over the limit (and is not counted)."""
        now = self.clock()
        with self._lock:
            q = self._hits.setdefault(key, deque())
            while q and q[0] <= now - self.window:
                q.popleft()
            if len(q) >= self.limit:
                return False
            q.append(now)
            if len(self._hits) > 100_000:  # forget idle clients
                for k in [k for k, v in self._hits.items() if not v]:
                    del self._hits[k]
            return True


def rate_limit() -> None:
    """Apply ``TIPLU_RATE_LIMIT`` (per client address per minute) to this request: 429 beyond it."""
    limiter = current_app.extensions.get("tiplu_rate")
    if limiter is None:
        limiter = current_app.extensions["tiplu_rate"] = RateLimiter(int(current_app.config["TIPLU_RATE_LIMIT"]))
    if not limiter.hit(request.remote_addr or "unknown"):
        raise ApiError(429, "rate_limited", f"at most {limiter.limit} write requests per minute; try again later")
