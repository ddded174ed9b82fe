"""Options and helpers shared by the ledger commands (``keys``, ``operator``, ``table``, ``hand``)."""
from __future__ import annotations

import contextlib
import json
import os
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Iterator

import click

if TYPE_CHECKING:  # the ledger (and sqlite-utils) load only when a ledger command runs
    from ..operator.ledger import Ledger

DEFAULT_DB = "tiplu.db"


def default_db() -> str:
    """The ledger when a command has no ``--db``: ``tiplu --db PATH``, else ``TIPLU_DB``, else ./tiplu.db."""
    ctx = click.get_current_context(silent=True)
    root = ctx.find_root().obj if ctx is not None else None
    return (root or {}).get("db") or os.environ.get("TIPLU_DB") or DEFAULT_DB


db_option = click.option("--db", "db", default=default_db, show_default="tiplu --db, TIPLU_DB or ./tiplu.db",
                         metavar="PATH", help="The ledger's SQLite file.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
key_option = click.option("--key-file", envvar="TIPLU_KEY_FILE", type=click.Path(exists=True, dir_okay=False),
                          help="The operator's key file, when its key is kept outside the ledger (env TIPLU_KEY_FILE).")


def real_clock() -> datetime:
    return datetime.now(timezone.utc)


@contextlib.contextmanager
def open_ledger(db: str, key_file: str | None = None, *, create: bool = False) -> "Iterator[Ledger]":
    """The ledger at ``db``, with an outside key when given.

    Only ``create=True`` (``tiplu init``, ``operator new``) makes a missing ledger; every
    other command refuses a missing, empty or foreign file in one line and changes nothing.
    The secret store is ``TIPLU_SECRETS`` when set, else the one beside the ledger."""
    from ..operator.ledger import Ledger
    from ..keys import load_key_file

    keys = [load_key_file(key_file)] if key_file else []
    ledger = Ledger(db, clock=real_clock, keys=keys, create=create,
                    secrets_path=os.environ.get("TIPLU_SECRETS") or None, cosign_checkpoint=cosigner_from_env())
    if ledger.legacy_secrets:
        click.echo(f"tiplu: warning: {db} still holds secrets in its public file; "
                   f"run 'tiplu move-secrets --db {db}'", err=True)
    try:
        yield ledger
    finally:
        ledger.close()


def cosigner_from_env() -> Any:
    """The witness hook for a ledger the CLI opens (``Ledger(..., cosign_checkpoint=...)``):
    with ``TIPLU_WITNESSES`` (the site's setting) in the environment, records published from
    the CLI get their checkpoint cosigned too; ``None`` without it."""
    witnesses = os.environ.get("TIPLU_WITNESSES")
    if witnesses:
        from ..tlog.witnessing import Witnessing

        witnessing = Witnessing.from_setting(witnesses, timeout=os.environ.get("TIPLU_WITNESS_TIMEOUT"))
        if witnessing is not None:
            return witnessing.cosigner()
    return None


def emit(data: Any, text: str, as_json: bool) -> None:
    """Print ``data`` as one line of JSON, or ``text``."""
    click.echo(json.dumps(data, ensure_ascii=False, separators=(",", ":")) if as_json else text)
