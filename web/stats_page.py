"""The deal statistics page (``/stats``) and its JSON (``/api/v1/stats``): thin shells over
:mod:`audit.auditor.stats.deals` (the counting and the tests) and :mod:`audit.auditor.stats.cache` (which hands
count, and the cache keyed by the set of published records).

A cold computation audits every published record (minutes for a large archive), longer
than a request may take behind gunicorn.  It runs in one background thread per process,
with its own ledger connection; a request waits up to ``TIPLU_STATS_WAIT`` seconds
(default 2) for it, and otherwise gets a "being computed" answer: the page says how far it
is and refreshes itself (``<meta http-equiv="refresh">``, no script); the API answers 503
with the one error shape (code ``computing``).  Once computed, a request costs one
fingerprint of the published records (a new publication audits only the new records).
"""
from __future__ import annotations

import threading
from typing import Any

from flask import Blueprint, current_app, render_template

from audit.operator.ledger import Ledger
from audit.auditor.stats.deals import LEVEL, USED
from audit.auditor.stats.cache import LedgerStats

from . import stats_svg
from .db import get_ledger
from .errors import ApiError

bp = Blueprint("stats", __name__)
DEFAULT_WAIT = 2.0
REFRESH_SECONDS = 5


class Worker:
    """One cached computation over the published records (``cache``: :class:`LedgerStats` or
    another with its ``cached``/``result``/``progress``) and at most one run of it at a time,
    in a background thread; ``model`` renders the finished result once per fingerprint."""

    def __init__(self, cache: Any, model: Any, name: str) -> None:
        self.stats = cache
        self.model = model
        self.name = name
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.error: str | None = None

    def start(self, db_path: str) -> threading.Thread:
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.error = None
                self.thread = threading.Thread(target=self._run, args=(db_path,), name=self.name, daemon=True)
                self.thread.start()
            return self.thread

    def _run(self, db_path: str) -> None:
        try:
            with Ledger(db_path) as ledger:
                self.stats.result(ledger, self.model)
        except Exception as exc:  # noqa: BLE001 - reported on the page, never a traceback
            self.error = type(exc).__name__


def _worker() -> Worker:
    if "tiplu_stats" not in current_app.extensions:
        current_app.extensions["tiplu_stats"] = Worker(LedgerStats(), _model, "tiplu-stats")
    return current_app.extensions["tiplu_stats"]


def _model(stats: Any) -> dict[str, Any]:
    """Everything the page and the API show, computed once per set of published records."""
    data = stats.to_json()
    games = []
    for g in data["games"]:
        charts = [{**c, "picture": stats_svg.picture(c)} for c in g["charts"]]
        games.append({**g, "charts": charts, "anchor": f"{g['preset'].replace('/', '-')}-{g['seats']}"})
    return {"json": data, "games": games}


def warm(app: Any) -> None:
    """Compute the statistics now, before the app serves (``tiplu demo``: its first /stats
    visit right after the demo's audit must not say "being computed")."""
    with app.app_context():
        _worker().start(current_app.config["TIPLU_DB"]).join()


def stats_model() -> dict[str, Any] | None:
    """The finished model for the ledger as it is now, or ``None`` while it is computed."""
    return finished_model(_worker())


def finished_model(worker: Worker) -> Any:
    """``worker``'s finished model for the ledger as it is now: started (or joined) and
    waited for up to ``TIPLU_STATS_WAIT`` seconds; ``None`` while it is computed."""
    _, model = worker.stats.cached(get_ledger())
    if model is not None:
        return model
    thread = worker.start(current_app.config["TIPLU_DB"])
    thread.join(float(current_app.config.get("TIPLU_STATS_WAIT", DEFAULT_WAIT)))
    _, model = worker.stats.cached(get_ledger())
    return model


@bp.get("/stats")
def stats_page():
    model = stats_model()
    if model is None:
        worker = _worker()
        done, total = worker.stats.progress
        # progress held in this process, not in the ledger: never kept by a cache (web/read_cache.py)
        return render_template("stats_pending.html", done=done, total=total, error=worker.error,
                               refresh=REFRESH_SECONDS), 200, {"Cache-Control": "no-store"}
    return render_template("stats.html", data=model["json"], games=model["games"], level=LEVEL, used=USED,
                           legend=stats_svg.legend())


@bp.get("/api/v1/stats")
def stats_api():
    model = stats_model()
    if model is None:
        done, total = _worker().stats.progress
        raise ApiError(503, "computing", f"the statistics are being computed ({done} of {total} records audited); "
                                         f"retry in {REFRESH_SECONDS} seconds")
    return model["json"]
