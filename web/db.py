"""The ledger for the current request: opened on first use, kept in ``g``, closed on teardown.

The app never creates a ledger (``tiplu init`` does): a missing or foreign ``TIPLU_DB`` is a
503 ``no_ledger``.  ``TIPLU_SECRETS`` (default: beside the ledger) is the secret store, opened
only by the writes that need a secret (commit, reveal, signing).

With witnesses configured (``TIPLU_WITNESSING``) the ledger gets ``cosign_checkpoint``, a
``(log, checkpoint_text) -> text`` hook the publisher calls on a record's checkpoint, so a
published record carries the witnesses' cosignatures (:mod:`audit.tlog.witnessing`)."""
from __future__ import annotations

from flask import Flask, current_app, g


def get_ledger():
    if "ledger" not in g:
        from audit.ledger import Ledger

        g.ledger = Ledger(current_app.config["TIPLU_DB"], secrets_path=current_app.config.get("TIPLU_SECRETS"))
        witnessing = current_app.config.get("TIPLU_WITNESSING")
        if witnessing is not None:
            g.ledger.cosign_checkpoint = witnessing.cosigner()
    return g.ledger


def close_ledger(exc: BaseException | None = None) -> None:
    ledger = g.pop("ledger", None)
    if ledger is not None and hasattr(ledger, "close"):
        ledger.close()


def init_app(app: Flask) -> None:
    """Close the request's ledger on teardown (registered once per app)."""
    if app.extensions.setdefault("tiplu_db", False):
        return
    app.extensions["tiplu_db"] = True
    app.teardown_appcontext(close_ledger)
