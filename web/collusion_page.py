"""The collusion review pages (``/collusion``, ``/collusion/account/<name>``) and their JSON
(``/api/v1/collusion``): thin shells over :mod:`audit.auditor.collusion` and its ledger cache
(:mod:`audit.auditor.collusion.ledger_cache`), computed in the background like the deal statistics
(:mod:`web.stats_page`)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template

from audit.auditor.collusion.ledger_cache import LedgerCollusion
from audit.auditor.collusion.report import CollusionReport

from . import collusion_account_svg, collusion_svg
from .errors import ApiError
from .stats_page import REFRESH_SECONDS, Worker, finished_model

bp = Blueprint("collusion", __name__)


def _model(report: CollusionReport) -> dict[str, Any]:
    data = report.to_json()
    flagged = {f["account"] for f in data["flags"]}
    signals = []
    for signal, words in sorted(data["signals"].items()):
        rows = [a for a in data["accounts"] if a["signal"] == signal and a["tested"]]
        if rows:
            signals.append({"signal": signal, "words": words, "rows": rows,
                            "picture": collusion_svg.band_chart(rows)})
    flagged |= {a for f in data["pair_flags"] for a in f["accounts"]}
    series: dict[str, dict[str, Any]] = {}
    for (account, signal), s in report.series.items():
        series.setdefault(account, {})[signal] = s.to_json()
    return {"json": data, "signals": signals, "graph": collusion_svg.pair_graph(data["pairs"], flagged),
            "series": series}


def _worker() -> Worker:
    if "tiplu_collusion" not in current_app.extensions:
        current_app.extensions["tiplu_collusion"] = Worker(LedgerCollusion(), _model, "tiplu-collusion")
    return current_app.extensions["tiplu_collusion"]


def _pending():
    done, total = _worker().stats.progress
    # progress held in this process, not in the ledger: never kept by a cache (web/read_cache.py)
    return render_template("stats_pending.html", done=done, total=total, error=_worker().error,
                           refresh=REFRESH_SECONDS, what="collusion review"), 200, {"Cache-Control": "no-store"}


@bp.get("/collusion")
def collusion_page():
    model = finished_model(_worker())
    if model is None:
        return _pending()
    return render_template("collusion.html", data=model["json"], signals=model["signals"], graph=model["graph"])


@bp.get("/collusion/account/<name>")
def collusion_account(name: str):
    model = finished_model(_worker())
    if model is None:
        return _pending()
    rows = [a for a in model["json"]["accounts"] if a["account"] == name]
    if not rows:
        abort(404)
    pairs = [p for p in model["json"]["pairs"] if name in p["accounts"]]
    mine = model["series"].get(name, {})
    charts = [{"signal": r["signal"], "words": model["json"]["signals"].get(r["signal"], ""),
               "picture": collusion_account_svg.excess_chart(mine[r["signal"]], flagged=r["flagged"])}
              for r in rows if r["signal"] in mine]
    return render_template("collusion_account.html", name=name, rows=rows, pairs=pairs, data=model["json"],
                           charts=charts,
                           pair_flags=[f for f in model["json"]["pair_flags"] if name in f["accounts"]])


@bp.get("/api/v1/collusion")
def collusion_api():
    model = finished_model(_worker())
    if model is None:
        done, total = _worker().stats.progress
        raise ApiError(503, "computing", f"the collusion review is being computed ({done} of {total} records "
                                         f"audited); retry in {REFRESH_SECONDS} seconds")
    return model["json"]
