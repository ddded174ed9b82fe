"""The ledger for the current request: taken on first use, kept in ``g``, given back on teardown.

The app never creates a ledger (``tiplu init`` does): a missing or foreign ``TIPLU_DB`` is a
503 ``no_ledger``.  ``TIPLU_SECRETS`` (default: beside the ledger) is the secret store, opened
only by the writes that need a secret (commit, reveal, signing).

Opening a ledger costs more than most pages: a new SQLite connection parses the whole schema,
and the opening checks the file is a ledger and its migrations are applied (about 1 ms of
CPU, most of a warm hand page).  So an opened ledger is not closed after its request but kept
for the next one (:class:`LedgerPool`, a few per app, one request at a time each): a request
sees the same committed data either way (SQLite's WAL: every read statement outside a
transaction reads the latest commit).  A ledger goes back only if its request left no
transaction open and raised nothing; a pool notices a ledger file replaced or emptied under
it (the file's device, inode and size, one ``stat`` a request, as the opening did) and then
opens again, which refuses the new file as opening always did.  An in-memory ledger is not
pooled (each open of one is a new, empty ledger).

With witnesses configured (``TIPLU_WITNESSING``) every ledger is made with ``cosign_checkpoint``,
a ``(log, checkpoint_text) -> text`` hook the publisher calls on a record's checkpoint, so a
published record carries the witnesses' cosignatures (:mod:`audit.tlog.witnessing`).  The hook
is given when a ledger is made and is fixed for its life; a pool is of one file, one secret
store and one hook, so a ledger kept between requests carries exactly its app's hook and
nothing a request could leave on it (tests/web/test_web_ledger_pool.py)."""
from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app, g

if TYPE_CHECKING:
    from audit.operator.ledger import Ledger
    from audit.operator.ledger import Cosigner

#: opened ledgers an app keeps idle between requests (more concurrent requests open more)
POOL_SIZE = 8


class LedgerPool:
    """Opened ledgers of one file, kept between requests (:func:`get_ledger`), each made with
    the one witness hook ``cosign`` (``None``: no witnesses)."""

    def __init__(self, path: str, secrets_path: str | None, size: int = POOL_SIZE, *,
                 cosign: Cosigner | None = None) -> None:
        self.path, self.secrets_path, self.size, self.cosign = path, secrets_path, size, cosign
        self._idle: list[Ledger] = []
        self._file: tuple[int, int] | None = None   # (device, inode) the idle ledgers were opened on
        self._lock = threading.Lock()

    def take(self) -> tuple[Ledger, tuple[int, int] | None]:
        """An opened ledger and the file it was opened on (``None``: not to be given back)."""
        from audit.operator.ledger import Ledger

        try:
            st = os.stat(self.path)
            file = (st.st_dev, st.st_ino) if st.st_size else None
        except OSError:
            file = None
        with self._lock:
            if file != self._file:     # replaced, emptied or gone: the idle ledgers are of another file
                stale, self._idle, self._file = self._idle, [], file
            else:
                stale = []
            ledger = self._idle.pop() if self._idle else None
        for old in stale:
            old.close()
        if ledger is not None:
            return ledger, file
        if file is None:   # opened as always, so refused as always (no ledger, an empty file, ...)
            return Ledger(self.path, secrets_path=self.secrets_path, cosign_checkpoint=self.cosign), None
        return Ledger.open_shared(self.path, secrets_path=self.secrets_path, cosign_checkpoint=self.cosign), file

    def give(self, ledger: Ledger, file: tuple[int, int] | None) -> None:
        """Keep ``ledger`` for the next request, or close it."""
        if file is not None and ledger.is_reusable():
            with self._lock:
                if file == self._file and len(self._idle) < self.size:
                    self._idle.append(ledger)
                    return
        ledger.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for ledger in idle:
            ledger.close()


def _cosigner(app: Flask) -> Cosigner | None:
    """The app's witness hook (``TIPLU_WITNESSING``), made once per app: ``None`` without witnesses."""
    witnessing = app.config.get("TIPLU_WITNESSING")
    if witnessing is None:
        return None
    made: dict[int, tuple[Any, Cosigner]] = app.extensions.setdefault("tiplu_cosigners", {})
    if id(witnessing) not in made:  # the Witnessing is kept with its hook, so its id names only it
        made[id(witnessing)] = (witnessing, witnessing.cosigner())
    return made[id(witnessing)][1]


def _pool(app: Flask) -> LedgerPool | None:
    path, secrets = app.config["TIPLU_DB"], app.config.get("TIPLU_SECRETS")
    if not isinstance(path, (str, os.PathLike)) or str(path) in ("", ":memory:"):
        return None
    path = os.fspath(path)
    cosign = _cosigner(app)
    pools: dict[tuple[str, Any, int], LedgerPool] = app.extensions.setdefault("tiplu_ledger_pools", {})
    key = (path, secrets, id(cosign))  # the pool keeps its hook, so the id names only it
    pool = pools.get(key)
    if pool is None:
        pool = pools.setdefault(key, LedgerPool(path, None if secrets is None else os.fspath(secrets), cosign=cosign))
    return pool


def get_ledger() -> Ledger:
    """The request's ledger: opened (or taken from the pool) on first use, kept in ``g``."""
    if "ledger" not in g:
        pool = _pool(current_app)
        if pool is None:
            from audit.operator.ledger import Ledger

            ledger: Ledger = Ledger(current_app.config["TIPLU_DB"], secrets_path=current_app.config.get("TIPLU_SECRETS"),
                                    cosign_checkpoint=_cosigner(current_app))
            g.ledger_from = None
        else:
            ledger, file = pool.take()
            g.ledger_from = (pool, file)
        g.ledger = ledger
    opened: Ledger = g.ledger
    return opened


def close_ledger(exc: BaseException | None = None) -> None:
    ledger = g.pop("ledger", None)
    source = g.pop("ledger_from", None)
    if ledger is None or not hasattr(ledger, "close"):
        return
    if source is None or exc is not None:
        ledger.close()
    else:
        pool, file = source
        pool.give(ledger, file)


def init_app(app: Flask) -> None:
    """Give the request's ledger back on teardown (registered once per app)."""
    if app.extensions.setdefault("tiplu_db", False):
        return
    app.extensions["tiplu_db"] = True
    app.teardown_appcontext(close_ledger)
