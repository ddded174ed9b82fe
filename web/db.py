"""The ledger for the current request: opened on first use, kept in ``g``, closed on teardown."""
from __future__ import annotations

from flask import Flask, current_app, g


def get_ledger():
    if "ledger" not in g:
        from audit.ledger import Ledger

        g.ledger = Ledger(current_app.config["TIPLU_DB"])
    return g.ledger


def close_ledger(exc: BaseException | None = None) -> None:
    ledger = g.pop("ledger", None)
    if ledger is not None and hasattr(ledger, "close"):
        ledger.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_ledger)
