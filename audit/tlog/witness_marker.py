"""A witness's durable marker: what its key has cosigned, kept apart from its database.

A witness that lost its SQLite state would start again at size 0 and cosign any tree of a
log it cosigned before -- a rival history, with a valid cosignature.  So a served witness
(``tiplu witness serve``, ``web/witness.py``) keeps a second, small record beside its **key
file** (default ``<key file>.state``): the witness's vkey, the id of the state it cosigns
from, and, for every log, the last size and root it cosigned.  It is rewritten (a temporary
file, ``fsync``, ``rename``, under a lock: :func:`sync_marker`) from the committed views
after each new view is stored and before the cosignature is returned, so it is never behind
what the witness gave out; a witness killed between the two has a database ahead of its
marker, which starts fine.

At start (:func:`check_start`):

* no marker and a database that never cosigned: a new witness -- a state id is made, kept in
  the database and in a new marker;
* no marker and a database that cosigned (a witness from before markers): the marker is
  written from the database;
* a marker whose state id the database does not hold (the database is missing, new or
  another one), or a database behind the marker for some log (an old backup): **refused**,
  with one line saying why.  The witness does not start until a person runs
  ``tiplu witness reinit`` (:func:`reinitialise`), which builds a new state from the marker:
  every log at the size and root the key last cosigned, so the witness goes on from there
  and still never cosigns a tree inconsistent with them.

To start a witness from nothing, use a new key (a new identity); see
``docs/transparency-log.md``, "Recovering a witness".
"""
from __future__ import annotations

import hmac
import json
import os
import secrets
import sqlite3
from pathlib import Path
from typing import Any, Mapping

from replay.errors import MalformedError, TipluError

FORMAT = "tiplu.witness-state/1"
_META = ("CREATE TABLE IF NOT EXISTS witness_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",)


class WitnessStateError(TipluError):
    """The witness's state does not match what its key has cosigned: it must not start."""


def default_marker(key_file: str | os.PathLike[str]) -> str:
    return str(key_file) + ".state"


def read_marker(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The marker, or ``None`` when there is none; a typed error when it does not parse."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("state_id"), str) \
                or not isinstance(data.get("logs"), dict):
            raise ValueError
    except (ValueError, AttributeError):
        raise MalformedError(f"{path} is not a witness state marker ({FORMAT})") from None
    return data


def write_marker(path: str | os.PathLike[str], vkey: str, state_id: str, logs: Mapping[str, tuple[int, bytes]]) -> None:
    """Replace the marker atomically and durably (temporary file, fsync, rename, fsync of the directory)."""
    data = {"format": FORMAT, "vkey": vkey, "state_id": state_id,
            "logs": {o: {"size": s, "root": r.hex()} for o, (s, r) in sorted(logs.items())}}
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    dfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def sync_marker(conn: sqlite3.Connection, marker: str | os.PathLike[str], vkey: str, state_id: str) -> None:
    """Rewrite the marker from the database's committed views, under an exclusive lock
    (``<marker>.lock``): each writer reads the views after taking the lock, so a later write
    never holds less than an earlier one, and the marker only grows."""
    import fcntl

    fd = os.open(str(marker) + ".lock", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        write_marker(marker, vkey, state_id, _views(conn))
    finally:
        os.close(fd)  # releases the lock


def _views(conn: sqlite3.Connection) -> dict[str, tuple[int, bytes]]:
    return {o: (s, bytes(r)) for o, s, r in conn.execute("SELECT origin, size, root FROM witness_logs")}


def _state_id(conn: sqlite3.Connection) -> str | None:
    for sql in _META:
        conn.execute(sql)
    row = conn.execute("SELECT value FROM witness_meta WHERE key = 'state_id'").fetchone()
    return None if row is None else row[0]


def check_start(conn: sqlite3.Connection, marker: str | os.PathLike[str], vkey: str) -> str:
    """Check the state against the marker before serving (see the module doc); return the
    state id, or raise :class:`WitnessStateError` with one line saying why and what to do."""
    data = read_marker(marker)
    conn.execute("BEGIN IMMEDIATE")
    try:
        state_id = _state_id(conn)
        views = _views(conn)
        if data is None:
            if state_id is None:
                state_id = secrets.token_hex(16)
                conn.execute("INSERT INTO witness_meta (key, value) VALUES ('state_id', ?)", (state_id,))
            write_marker(marker, vkey, state_id, views)
            conn.execute("COMMIT")
            return state_id
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    fix = "if its state is truly lost, run 'tiplu witness reinit' (docs/transparency-log.md, \"Recovering a witness\")"
    if data.get("vkey") not in (None, vkey):
        raise WitnessStateError(f"witness state marker {marker} belongs to {data.get('vkey')}, not {vkey}: "
                                f"give each witness key its own marker")
    if state_id is None or state_id != data["state_id"]:  # the marker's is always text (read_marker)
        what = "has no witness state" if state_id is None else "holds another witness state"
        raise WitnessStateError(f"refusing to start: this key has cosigned before (marker {marker}) but the database "
                                f"{what}, so it could cosign a rival tree; {fix}")
    for origin, view in data["logs"].items():
        size, root = views.get(origin, (0, b""))
        if size < view["size"] or (size == view["size"] and not hmac.compare_digest(root.hex(), str(view["root"]))):
            raise WitnessStateError(f"refusing to start: the database is behind what this key cosigned for "
                                    f"{origin!r} (size {size}, marker {view['size']}): an old copy?; {fix}")
    return state_id


def reinitialise(conn: sqlite3.Connection, marker: str | os.PathLike[str], vkey: str) -> dict[str, tuple[int, bytes]]:
    """A new state from the marker (``tiplu witness reinit``): every log at the size and root
    the key last cosigned.  Refuses a database that already cosigned something (it is not lost)."""
    data = read_marker(marker)
    if data is None:
        raise MalformedError(f"no witness state marker at {marker}: nothing to re-initialise from")
    if data.get("vkey") not in (None, vkey):
        raise MalformedError(f"witness state marker {marker} belongs to {data.get('vkey')}, not {vkey}")
    conn.execute("BEGIN IMMEDIATE")
    try:
        if _state_id(conn) is not None or conn.execute("SELECT count(*) FROM witness_logs").fetchone()[0]:
            raise MalformedError("this database holds a witness state already: re-initialise only a lost one "
                                 "(move it aside first)")
        state_id = secrets.token_hex(16)
        views = {o: (int(v["size"]), bytes.fromhex(v["root"])) for o, v in data["logs"].items()}
        for origin, (size, root) in views.items():
            conn.execute("INSERT INTO witness_logs (origin, size, root, checkpoint, updated_at) VALUES (?, ?, ?, '', 0)",
                         (origin, size, root))
        conn.execute("INSERT INTO witness_meta (key, value) VALUES ('state_id', ?)", (state_id,))
        write_marker(marker, vkey, state_id, views)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return views
