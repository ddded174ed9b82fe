"""Helpers shared by the transparency-log tests: signed statements, logs and a tiny Flask app."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import flask
import sqlite_utils

from audit.operator.ledger import Ledger
from audit.signing import SigningKey
from audit.tlog.checkpoint import CheckpointSigner
from audit.tlog.store import TransparencyLog
from web import log_api

OPERATOR = SigningKey.from_hex("11" * 32)
ORIGIN = "tiplu.test/log"


class Clock:
    """A clock that ticks one minute per call, from a fixed instant."""

    def __init__(self) -> None:
        self.t = datetime(2026, 11, 30, 14, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        self.t += timedelta(minutes=1)
        return self.t


def statement(i: int, *, kind: str = "deal", hand_id: str | None = None, note: str = "") -> dict:
    body = {"kind": kind, "hand_id": hand_id or f"h{i}", "n": i}
    if note:
        body["note"] = note
    return OPERATOR.sign(body)


def make_log(path: Path, statements: list[dict]) -> Path:
    """A ledger file whose transparency log holds ``statements`` in order (the log API reads
    a ledger: the site opens ``TIPLU_DB`` as one)."""
    Ledger(path, create=True).close()
    append(path, statements)
    return path


def append(path: Path, statements: list[dict]) -> None:
    db = sqlite_utils.Database(path)
    log = TransparencyLog(db, migrate=False)
    with db.atomic():
        for s in statements:
            log.append_statement(s)
    db.close()


def make_app(db_path: Path, *, key: SigningKey = OPERATOR, origin: str = ORIGIN) -> flask.Flask:
    app = flask.Flask("tlog-test")
    app.config.update(TESTING=True, TIPLU_DB=str(db_path),
                      TIPLU_CHECKPOINT_SIGNER=CheckpointSigner(key, origin, Clock()))
    log_api.init_app(app)
    return app
