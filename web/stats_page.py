"""The deal statistics page (``/stats``) and its JSON (``/api/v1/stats``): thin shells over
:mod:`audit.stats` (the counting and the tests) and :mod:`audit.stats_cache` (which hands
count, and the cache keyed by the set of published records)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, render_template

from audit.stats import LEVEL, USED
from audit.stats_cache import LedgerStats

from . import stats_svg
from .db import get_ledger

bp = Blueprint("stats", __name__)


def _cache() -> LedgerStats:
    return current_app.extensions.setdefault("tiplu_stats", LedgerStats())


def _model(stats: Any) -> dict[str, Any]:
    """Everything the page and the API show, computed once per set of published records."""
    data = stats.to_json()
    games = []
    for g in data["games"]:
        charts = [{**c, "picture": stats_svg.picture(c)} for c in g["charts"]]
        games.append({**g, "charts": charts, "anchor": f"{g['preset'].replace('/', '-')}-{g['seats']}"})
    return {"json": data, "games": games}


def stats_model() -> tuple[dict[str, Any], bool]:
    _, model, warm = _cache().result(get_ledger(), _model)
    return model, warm


@bp.get("/stats")
def stats_page():
    model, _ = stats_model()
    return render_template("stats.html", data=model["json"], games=model["games"], level=LEVEL, used=USED,
                           legend=stats_svg.legend())


@bp.get("/api/v1/stats")
def stats_api():
    model, _ = stats_model()
    return jsonify(model["json"])
