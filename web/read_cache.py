"""Anonymous reads answered from memory (issue 29 item 11: reads must not starve writes).

A public page or API answer is a function of the ledger and, for a few words ("stalled",
timing), of the clock.  Each process keeps the last ``200`` answer to every anonymous read
(a GET without ``Authorization`` that :func:`web.limits.is_capped_read` judges anonymous)
and gives it again -- in front of Flask: no routing, no ledger, no template -- while it is
*fresh*:

* younger than ``TIPLU_READ_CACHE`` seconds (default 1): an anonymous answer may lag a
  write by at most that long, as an HTTP ``max-age=1`` would (a flood of readers then costs
  one remake of each page a second, however often the players write); or
* the ledger unchanged since it was made (:class:`audit.operator.ledger.version.LedgerVersion`:
  SQLite's ``PRAGMA data_version`` on a connection that never writes, which changes when any
  connection commits, and the file's device and inode) and younger than ``STALE_MAX``
  seconds, so what depends on the clock is at most that old.

A ledger file replaced or gone is never served from memory.  An answer that is not fresh is
made again by one thread; meanwhile the same read is given the older copy (at most
``STALE_MAX`` old), as it is when making it is refused ``503 busy`` (the read slots,
:mod:`web.limits`).  Writes and token reads come first: while one is in flight in the
process, an anonymous read waits for it (up to ``PRIORITY_WAIT``) before doing anything, so
the players' and the operator's requests have the process's interpreter (the GIL) to
themselves.

Every kept answer carries an ``ETag`` (a digest of its bytes, or the page's own); a read
whose ``If-None-Match`` names it gets ``304 Not Modified`` without the body.  Token reads,
writes, errors and answers marked ``no-store``, ``private`` or ``no-cache`` (a hand's page
before its reveal, a statistics page still being computed) are never kept.  ``0`` turns the
cache off.  Measured in ``bench/read_starvation.py`` (docs/scale.md); tested (ordering and
progress, never speed) in ``tests/web/test_web_read_cache.py``.
"""
from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Iterable

#: answers kept per process (the least recently used go first)
MAX_ENTRIES = 512
#: the largest answer kept, in bytes
MAX_BODY = 4 * 1024 * 1024
#: an older copy is given while another thread makes the answer again, for at most this long
STALE_MAX = 10.0
#: how long an anonymous read waits, at most, for the writes and token reads in flight
PRIORITY_WAIT = 1.0
#: files served as they are (never capped, web/limits.py): passed straight to Flask, streamed
FILES = ("/static/", "/verify", "/favicon.ico")
#: what Flask's side sets on an anonymous read's environ (web/limits.py)
ANONYMOUS = "tiplu.anonymous_read"


@dataclass(frozen=True)
class Answer:
    status: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    etag: str
    version: Any
    made: float  # the cache's clock


class ReadCache:
    """WSGI middleware in front of the Flask app (:func:`init_app`)."""

    def __init__(self, app: Callable, version: Callable[[], Any], max_age: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``clock``: seconds, monotonic (injectable: tests age the answers without waiting)."""
        self.app, self.version, self.max_age, self.clock = app, version, max_age, clock
        self._answers: OrderedDict[tuple, Answer] = OrderedDict()
        self._making: set[tuple] = set()
        self._lock = threading.Lock()
        self._done = threading.Condition()
        self._priority = 0  # writes and token reads in flight in this process

    @staticmethod
    def _key(environ: dict) -> tuple | None:
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD") or "HTTP_AUTHORIZATION" in environ \
                or environ.get("CONTENT_TYPE") or "HTTP_RANGE" in environ \
                or environ.get("PATH_INFO", "").startswith(FILES):
            return None
        return (environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST"), environ.get("SCRIPT_NAME", ""),
                environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""),
                environ.get("HTTP_X_FORWARDED_PROTO"), environ.get("HTTP_X_FORWARDED_HOST"))

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        key = self._key(environ)
        if key is None:
            if environ.get("REQUEST_METHOD") in ("GET", "HEAD") and "HTTP_AUTHORIZATION" not in environ:
                return self.app(environ, start_response)
            return self._first(environ, start_response)
        with self._done:  # a player's or the operator's request in flight: let it have the process first
            if self._priority:
                self._done.wait_for(lambda: not self._priority, timeout=PRIORITY_WAIT)
        now = self.clock()
        version = self.version()
        with self._lock:
            old = self._answers.get(key)
            if old is not None:
                self._answers.move_to_end(key)
            usable = False
            if old is not None and version is not None and old.version[:2] == version[:2]:  # the same file
                age = now - old.made
                fresh = age < self.max_age or (old.version == version and age < STALE_MAX)
                usable = age < STALE_MAX
                if fresh or (usable and key in self._making):
                    return self._give(old, environ, start_response)
            self._making.add(key)
        try:
            return self._make(key, version, old if usable else None, environ, start_response)
        finally:
            with self._lock:
                self._making.discard(key)

    def _first(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        """A write, or a read with a token (a player's or the operator's): served first."""
        with self._done:
            self._priority += 1
        try:
            return list(self.app(environ, start_response))  # done when its answer is made
        finally:
            with self._done:
                self._priority -= 1
                if not self._priority:
                    self._done.notify_all()

    def _make(self, key: tuple, version: Any, old: Answer | None, environ: dict,
              start_response: Callable) -> Iterable[bytes]:
        got: dict[str, Any] = {}

        def capture(status: str, headers: list, exc_info: Any = None) -> Callable:
            got["status"], got["headers"] = status, headers
            return lambda data: None  # the legacy write(): Flask never calls it

        body_iter = self.app(environ, capture)
        try:
            body = b"".join(body_iter)
        finally:
            close = getattr(body_iter, "close", None)
            if close is not None:
                close()
        status, headers = got["status"], got["headers"]
        if status.startswith("503") and old is not None:  # busy (the read slots): the older copy instead
            return self._give(old, environ, start_response)
        cacheable = (environ.get(ANONYMOUS) and status.startswith("200") and version is not None
                     and len(body) <= MAX_BODY and environ.get("REQUEST_METHOD") == "GET"
                     and not any(k.lower() == "set-cookie" or (k.lower() == "cache-control" and _no_store(v))
                                 for k, v in headers))
        if not cacheable:
            start_response(status, headers)
            return [body]
        etag = next((v for k, v in headers if k.lower() == "etag"), None) or \
            '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        headers = [(k, v) for k, v in headers if k.lower() != "etag"] + [("ETag", etag)]
        answer = Answer(status, tuple(headers), body, etag, version, self.clock())
        with self._lock:
            self._answers[key] = answer
            self._answers.move_to_end(key)
            while len(self._answers) > MAX_ENTRIES:
                self._answers.popitem(last=False)
        return self._give(answer, environ, start_response)

    @staticmethod
    def _give(answer: Answer, environ: dict, start_response: Callable) -> Iterable[bytes]:
        match = environ.get("HTTP_IF_NONE_MATCH")
        if match and (match.strip() == "*" or answer.etag in [m.strip() for m in match.split(",")]):
            keep = {"etag", "cache-control", "vary", "expires", "content-location", "date"}
            start_response("304 Not Modified", [(k, v) for k, v in answer.headers if k.lower() in keep])
            return [b""]
        start_response(answer.status, list(answer.headers))
        return [b""] if environ.get("REQUEST_METHOD") == "HEAD" else [answer.body]


def _no_store(cache_control: str) -> bool:
    """An answer that says it must not be kept (``no-store``, ``private``, ``no-cache``): a
    hand's page before its reveal, for one."""
    words = {w.strip().split("=")[0].lower() for w in cache_control.split(",")}
    return bool(words & {"no-store", "private", "no-cache"})


def init_app(app: Any) -> None:
    """Put the cache in front of ``app`` (``TIPLU_READ_CACHE`` seconds; 0: none)."""
    max_age = float(app.config.get("TIPLU_READ_CACHE", 0) or 0)
    if max_age <= 0:
        return
    from audit.operator.ledger import LedgerVersion

    cache = ReadCache(app.wsgi_app, LedgerVersion(app.config["TIPLU_DB"]), max_age)
    app.wsgi_app = cache
    app.extensions["tiplu_read_cache"] = cache
