"""The witness's HTTP service (C2SP ``tlog-witness``): a small Flask app of its own.

Run it under gunicorn like the site, on its own port and with its own settings::

    TIPLU_WITNESS_NAME=witness.example/w1 TIPLU_WITNESS_KEY_FILE=witness.key \\
    TIPLU_WITNESS_DB=witness.db TIPLU_WITNESS_LOGS=logs.txt \\
    gunicorn -w 2 -b 127.0.0.1:8100 'web.witness:create_app()'

(``tiplu witness serve`` is the same app on Flask's development server.)

Settings (config keys, or the environment variables of the same names):

============================  ============================================================
``TIPLU_WITNESS_NAME``        the witness's key name, e.g. ``witness.example/w1`` (required)
``TIPLU_WITNESS_KEY_FILE``    its ``tiplu.key/1`` Ed25519 key file (``tiplu keys new``; required)
``TIPLU_WITNESS_DB``          its SQLite state file (default ``instance/witness.db``)
``TIPLU_WITNESS_LOGS``        the logs it witnesses: a file of ``<origin> <log vkey>`` lines (required)
``TIPLU_WITNESS_MARKER``      its durable state marker (default ``<key file>.state``): what the key
                              cosigned, kept apart from the database; the witness refuses to
                              start when the database is missing or behind it
                              (:mod:`audit.tlog.witness_marker`, ``tiplu witness reinit``)
``TIPLU_WITNESS``             a ready :class:`audit.tlog.witness.Witness` (tests; overrides the rest)
============================  ============================================================

Routes (the submission and monitoring prefixes are both the app's root):

* ``POST /add-checkpoint`` -- the protocol; 200 with ``text/plain`` cosignature lines, or
  the spec's status with a one-line ``text/plain`` reason (409: the witness's size,
  ``text/x.tlog.size``).
* ``GET /<hex SHA-256 of the origin>/checkpoint`` -- the last checkpoint cosigned for that
  log, with the log's signature and the witness's cosignature (404 if none).
* ``GET /`` -- ``{"name", "vkey", "logs": [origin, ...]}`` (JSON), to configure clients.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Mapping

from flask import Flask, Response, current_app, jsonify, request

from audit.tlog.witness import Witness, WitnessRefusal, load_logs_file
from audit.tlog.witness_marker import default_marker

MAX_REQUEST_BYTES = 128 * 1024
SETTINGS = ("TIPLU_WITNESS_NAME", "TIPLU_WITNESS_KEY_FILE", "TIPLU_WITNESS_DB", "TIPLU_WITNESS_LOGS",
            "TIPLU_WITNESS_MARKER")


def _text(body: str, status: int = 200, content_type: str = "text/plain; charset=utf-8") -> Response:
    return Response(body, status=status, content_type=content_type)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES
    for name in SETTINGS:
        if os.environ.get(name):
            app.config[name] = os.environ[name]
    app.config.setdefault("TIPLU_WITNESS_DB", str(Path(app.instance_path) / "witness.db"))
    if test_config is not None:
        app.config.from_mapping(test_config)
    if app.config.get("TIPLU_WITNESS") is None:
        app.config["TIPLU_WITNESS"] = _witness_from_settings(app.config)
    local = threading.local()

    def witness() -> Witness:
        """One :class:`Witness` (one SQLite connection) per thread of this process."""
        configured: Witness = current_app.config["TIPLU_WITNESS"]
        mine = getattr(local, "witness", None)
        if mine is None:
            mine = local.witness = Witness(configured.db_path, configured.key, configured.name, configured.logs,
                                           clock=configured._clock, marker=configured.marker)
        return mine

    @app.post("/add-checkpoint")
    def add_checkpoint() -> Response:
        try:
            return _text(witness().add_checkpoint(request.get_data(cache=False)))
        except WitnessRefusal as exc:
            return _text(exc.body, exc.status, exc.content_type)

    @app.get("/<digest>/checkpoint")
    def monitoring_checkpoint(digest: str) -> Response:
        text = witness().latest_by_hash(digest.lower()) if len(digest) == 64 else None
        if text is None:
            return _text("no checkpoint cosigned for this log\n", 404)
        return _text(text)

    @app.get("/")
    def info() -> Response:
        w = witness()
        return jsonify({"name": w.name, "vkey": str(w.vkey), "logs": sorted(w.logs)})

    @app.errorhandler(413)
    def too_large(exc: Exception) -> Response:
        return _text(f"a request is at most {MAX_REQUEST_BYTES} bytes\n", 413)

    @app.errorhandler(404)
    def not_found(exc: Exception) -> Response:
        return _text("not found\n", 404)

    @app.errorhandler(405)
    def bad_method(exc: Exception) -> Response:
        return _text("method not allowed\n", 405)

    @app.errorhandler(Exception)
    def internal(exc: Exception) -> Response:
        app.logger.error("witness internal error: %s", type(exc).__name__)
        return _text("internal error\n", 500)

    return app


def _witness_from_settings(config: Mapping[str, Any]) -> Witness:
    from audit.keys import load_key_file
    from replay.errors import MalformedError

    missing = [k for k in ("TIPLU_WITNESS_NAME", "TIPLU_WITNESS_KEY_FILE", "TIPLU_WITNESS_LOGS") if not config.get(k)]
    if missing:
        raise MalformedError(f"the witness needs the settings {', '.join(missing)} (docs/transparency-log.md)")
    db = Path(config["TIPLU_WITNESS_DB"])
    db.parent.mkdir(parents=True, exist_ok=True)
    marker = config.get("TIPLU_WITNESS_MARKER") or default_marker(config["TIPLU_WITNESS_KEY_FILE"])
    return Witness(db, load_key_file(config["TIPLU_WITNESS_KEY_FILE"]), config["TIPLU_WITNESS_NAME"],
                   load_logs_file(config["TIPLU_WITNESS_LOGS"]), marker=marker)
