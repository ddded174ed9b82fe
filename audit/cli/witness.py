"""``tiplu witness``: run a transparency-log witness (C2SP ``tlog-witness``) and inspect its state.

* ``tiplu witness vkey --name N --key-file K`` -- the witness's vkey (type 0x04), the line
  logs and auditors configure (``TIPLU_WITNESSES``, ``--witness``).
* ``tiplu witness log-vkey --name ORIGIN --key-file K`` -- a *log's* vkey (type 0x01) for
  the witness's log list.
* ``tiplu witness serve --name N --key-file K --db F (--logs FILE | --log VKEY ...)`` --
  serve ``POST /add-checkpoint`` on Flask's development server (for production:
  gunicorn, ``web/witness.py``).  It starts a web app, so it is added to this group
  above the web layer, by :mod:`web.cli`; ``python3 -m audit.cli witness`` lacks it.
* ``tiplu witness reinit --name N --key-file K --db F`` -- after a lost database, rebuild
  the state from the key's marker (``<key file>.state``), explicitly: a witness whose
  database is missing or behind its marker refuses to start (:mod:`audit.tlog.witness_marker`).
* ``tiplu witness state --db F`` / ``tiplu witness evidence --db F`` -- what it cosigned
  last for each log, and the refused, validly signed requests it kept.
"""
from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

import click

from . import main

if TYPE_CHECKING:
    from audit.tlog.witness import Witness
from ._ledger_common import emit, json_option

name_option = click.option("--name", "name", envvar="TIPLU_WITNESS_NAME", required=True,
                           help="The witness's key name, e.g. witness.example/w1 (env TIPLU_WITNESS_NAME).")
key_option = click.option("--key-file", "key_file", envvar="TIPLU_WITNESS_KEY_FILE", required=True,
                          type=click.Path(exists=True, dir_okay=False),
                          help="Its tiplu.key/1 key file from 'tiplu keys new' (env TIPLU_WITNESS_KEY_FILE).")
marker_option = click.option("--marker", "marker", envvar="TIPLU_WITNESS_MARKER", default=None, metavar="PATH",
                             help="Its durable state marker, kept apart from the database "
                                  "(env TIPLU_WITNESS_MARKER; default: <key file>.state).")
db_option = click.option("--db", "db", envvar="TIPLU_WITNESS_DB", default="witness.db", show_default=True,
                         metavar="PATH", help="The witness's own SQLite state (env TIPLU_WITNESS_DB).")


@main.group("witness")
def witness_group() -> None:
    """Run a transparency-log witness that cosigns checkpoints only if they extend the last one."""


@witness_group.command("vkey")
@name_option
@key_option
def witness_vkey_command(name: str, key_file: str) -> None:
    """Print the witness's verifier key (cosignature/v1, type 0x04)."""
    from audit.tlog.cosignature import witness_vkey

    from ..keys import load_key_file

    click.echo(str(witness_vkey(name, load_key_file(key_file).public_hex)))


@witness_group.command("log-vkey")
@click.option("--name", "name", required=True, help="The log's key name (normally its origin).")
@click.option("--key-file", "key_file", required=True, type=click.Path(exists=True, dir_okay=False),
              help="The log's tiplu.key/1 key file (TIPLU_LOG_KEY_FILE of the site).")
def log_vkey_command(name: str, key_file: str) -> None:
    """Print a log's verifier key (Ed25519 note signature, type 0x01), for a witness's log list."""
    from audit.tlog.note import TYPE_ED25519, Vkey

    from ..keys import load_key_file

    click.echo(str(Vkey.for_key(name, TYPE_ED25519, bytes.fromhex(load_key_file(key_file).public_hex))))


def check_state_file(db: str, *, create: bool) -> None:
    """Refuse a path that is not a witness state file, reading it only (never migrating another
    program's database): a missing or empty file passes only with ``create`` (``serve``)."""
    import pathlib
    import re
    import sqlite3

    from audit.tlog.witness import SCHEMA
    from replay.errors import MalformedError

    if not os.path.exists(db) or os.path.getsize(db) == 0:
        if create:
            return
        raise MalformedError(f"no witness state at {db}")
    conn = sqlite3.connect(pathlib.Path(db).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError:
        raise MalformedError(f"{db} is not a witness state file (not an SQLite database)") from None
    finally:
        conn.close()
    expected = set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", " ".join(SCHEMA)))
    if not names and create:
        return
    if not expected <= names:
        raise MalformedError(f"{db} is not a witness state file: refusing to change it")


def _open(db: str) -> Witness:
    from audit.signing import SigningKey
    from audit.tlog.witness import Witness

    check_state_file(db, create=False)
    return Witness(db, SigningKey.generate(), "inspect", {})  # read-only use: no key is needed


@witness_group.command("reinit")
@name_option
@key_option
@db_option
@marker_option
@json_option
def reinit_command(name: str, key_file: str, db: str, marker: str | None, as_json: bool) -> None:
    """Rebuild a lost witness state from the key's marker, explicitly (see docs/transparency-log.md).

    A witness whose database is missing or behind its marker refuses to start.  This makes a
    new database holding, for every log, the size and root the key last cosigned (from the
    marker), so the witness goes on from there and never cosigns a tree inconsistent with
    them.  It refuses a database that holds a state already: move it aside first.
    """
    from audit.tlog.cosignature import witness_vkey
    from audit.tlog.witness import connect
    from audit.tlog.witness_marker import default_marker, reinitialise

    from ..keys import load_key_file

    check_state_file(db, create=True)
    marker = marker or default_marker(key_file)
    vkey = str(witness_vkey(name, load_key_file(key_file).public_hex))
    conn = connect(db)
    try:
        views = reinitialise(conn, marker, vkey)
    finally:
        conn.close()
    emit({"db": db, "marker": marker, "logs": [{"origin": o, "size": s, "root": r.hex()}
                                               for o, (s, r) in sorted(views.items())]},
         f"witness state re-initialised in {db} from {marker}: "
         + (", ".join(f"{o} at size {s}" for o, (s, _) in sorted(views.items())) or "no log cosigned yet"), as_json)


@witness_group.command("state")
@db_option
@json_option
def state_command(db: str, as_json: bool) -> None:
    """Print the last size and root cosigned for each log."""
    rows = _open(db).state()
    emit(rows, "\n".join(f"{r['origin']} size {r['size']} root {r['root']}" for r in rows) or "no log cosigned yet",
         as_json)


@witness_group.command("evidence")
@db_option
@json_option
def evidence_command(db: str, as_json: bool) -> None:
    """Print the validly signed checkpoints refused as inconsistent (evidence of a fork)."""
    rows = _open(db).evidence()
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False))
        return
    for r in rows:
        click.echo(f"#{r['id']} {r['origin']}: size {r['size']} root {r['root']} refused "
                   f"(witness had size {r['stored_size']} root {r['stored_root']}): {r['reason']}")
    if not rows:
        click.echo("no evidence kept")
