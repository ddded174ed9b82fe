"""The Tiplu website: public pages, the JSON API, the operator API and the in-browser verifier.

Flask, the flaskr way: :func:`create_app` builds an app from defaults, an optional
``instance/config.py`` and ``test_config``; each subsystem has one ``init_app(app)``.

Settings (every one documented in ``docs/web.md``):

=========================  ===============================================================
``TIPLU_DB``               the ledger database file (default ``instance/tiplu.db``; env ``TIPLU_DB``)
``TIPLU_SECRETS``          its secret store (default: beside it, ``tiplu.secrets.db``; env ``TIPLU_SECRETS``)
``MAX_CONTENT_LENGTH``     largest request body in bytes (default 256 KiB)
``TIPLU_LOG_ORIGIN``       the transparency log's origin line (default ``tiplu.local/log``)
``TIPLU_RATE_LIMIT``       a seat token's writes (commit, reveal) per minute (default 60; :mod:`web.limits`)
``TIPLU_AUTH_FAIL_LIMIT``  requests with a missing or bad token per client address per minute (default 30)
``TIPLU_READ_SLOTS``       anonymous reads one process serves at once (default 2; 0: no cap); past it 503 ``busy``
``TIPLU_READ_CACHE``       seconds an anonymous read's answer is given again from memory while the ledger is unchanged (default 1; 0: off)
``TIPLU_RATELIMIT_STORAGE`` where the limits count (default ``memory://``, per worker; e.g. ``redis://host``)
``TIPLU_TRUSTED_PROXIES``  reverse proxies in front of the app whose ``X-Forwarded-For`` is trusted (default 0)
``TIPLU_LOG_KEY_FILE``     a ``tiplu.key/1`` file whose key signs log checkpoints (env ``TIPLU_LOG_KEY_FILE``)
``TIPLU_CHECKPOINT_SIGNER`` a ready ``signer(log) -> Checkpoint`` (overrides the key file)
``TIPLU_WITNESSES``        witnesses to cosign each checkpoint: ``<URL> <vkey>`` entries, ``;``-separated (env too)
``TIPLU_WITNESS_TIMEOUT``  seconds to wait for one witness (connect and read; default 3)
``TIPLU_WITNESSING``       a ready :class:`audit.tlog.witnessing.Witnessing` (overrides ``TIPLU_WITNESSES``)
=========================  ===============================================================
"""
from __future__ import annotations

import mimetypes
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:  # Flask loads in create_app: the whole `tiplu` (web.cli) imports this package, even for `tiplu eval`
    from flask import Flask

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 256 * 1024,
    "TIPLU_LOG_ORIGIN": "tiplu.local/log",
    "TIPLU_RATE_LIMIT": 60,
    "TIPLU_AUTH_FAIL_LIMIT": 30,
    "TIPLU_READ_SLOTS": 2,
    "TIPLU_READ_CACHE": 1.0,
    "TIPLU_RATELIMIT_STORAGE": "memory://",
    "TIPLU_TRUSTED_PROXIES": 0,
    "JSON_SORT_KEYS": False,
}


# ES modules must be served as JavaScript (browsers refuse other types for <script type=module>).
mimetypes.add_type("text/javascript", ".mjs")


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The app: defaults, then ``instance/config.py`` (or ``test_config``), then each subsystem."""
    from flask import Flask

    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(DEFAULTS)
    app.config["TIPLU_DB"] = os.environ.get("TIPLU_DB") or str(Path(app.instance_path) / "tiplu.db")
    app.config["TIPLU_SECRETS"] = os.environ.get("TIPLU_SECRETS") or None
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    Path(app.config["TIPLU_DB"]).parent.mkdir(parents=True, exist_ok=True)
    _checkpoint_signer(app)
    _witnessing(app)

    from . import db, errors, params

    errors.init_app(app)
    params.init_app(app)
    db.init_app(app)
    from . import blueprints, limits

    blueprints.init_app(app)
    limits.init_app(app)
    from . import read_cache

    read_cache.init_app(app)
    _trusted_proxies(app)
    return app


def _trusted_proxies(app: Flask) -> None:
    """Behind ``TIPLU_TRUSTED_PROXIES`` reverse proxies, take the client address (and scheme and
    host) from their ``X-Forwarded-*`` headers (werkzeug's ProxyFix trusts exactly that many)."""
    n = int(app.config.get("TIPLU_TRUSTED_PROXIES") or os.environ.get("TIPLU_TRUSTED_PROXIES") or 0)
    if n > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n)  # type: ignore[method-assign]  # Flask's documented wrap


def _checkpoint_signer(app: Flask) -> None:
    """Sign transparency-log checkpoints with ``TIPLU_LOG_KEY_FILE`` when no signer is given."""
    key_file = app.config.get("TIPLU_LOG_KEY_FILE") or os.environ.get("TIPLU_LOG_KEY_FILE")
    if app.config.get("TIPLU_CHECKPOINT_SIGNER") is not None or not key_file:
        return
    from audit.keys import load_key_file
    from audit.tlog.checkpoint import CheckpointSigner

    app.config["TIPLU_CHECKPOINT_SIGNER"] = CheckpointSigner(key=load_key_file(key_file),
                                                             origin=app.config["TIPLU_LOG_ORIGIN"])


def _witnessing(app: Flask) -> None:
    """Witnesses from ``TIPLU_WITNESSES`` (config, else the environment) unless one is given."""
    if app.config.get("TIPLU_WITNESSING") is not None:
        return
    from audit.tlog.witnessing import Witnessing

    setting = app.config.get("TIPLU_WITNESSES") or os.environ.get("TIPLU_WITNESSES")
    timeout = app.config.get("TIPLU_WITNESS_TIMEOUT") or os.environ.get("TIPLU_WITNESS_TIMEOUT")
    app.config["TIPLU_WITNESSING"] = Witnessing.from_setting(setting, timeout=timeout)
