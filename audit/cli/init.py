"""``tiplu init`` (make a new ledger) and ``tiplu move-secrets`` (an older ledger's secrets out).

A ledger is two files: the public ledger (``tiplu.db``: statements, the transparency log,
published records -- no secret) and its secret store beside it (``tiplu.secrets.db``, mode
0600: unrevealed server seeds and stored operator keys).  Only ``tiplu init``, ``tiplu
operator new``, ``tiplu simulate --db`` and ``tiplu demo`` create a ledger; every other
command refuses a missing, empty or foreign file (``docs/ledger.md``, "Files").
"""
from __future__ import annotations


from . import main
from ._ledger_common import db_option, emit, json_option, open_ledger


@main.command("init")
@db_option
@json_option
def init_command(db: str, as_json: bool) -> None:
    """Create a new, empty ledger at --db (an existing ledger is left as it is)."""
    import os

    existed = os.path.exists(db) and os.path.getsize(db) > 0
    with open_ledger(db, create=True) as ledger:
        secrets_path = ledger.secrets_path
    emit({"db": db, "secrets": secrets_path, "created": not existed},
         f"{'ledger already exists' if existed else 'created ledger'} {db}\n"
         f"secret store {secrets_path} (mode 0600, made when the first secret is written)", as_json)


@main.command("move-secrets")
@db_option
@json_option
def move_secrets_command(db: str, as_json: bool) -> None:
    """Move an older ledger's server seeds and stored keys out of its public file.

    They go into the secret store beside it (mode 0600) first; then the public file drops
    them and is rewritten (VACUUM), so it can be backed up or served without secrets.
    Running it again does nothing.
    """
    with open_ledger(db) as ledger:
        had = ledger.legacy_secrets
        counts = ledger.move_secrets()
        secrets_path = ledger.secrets_path
    emit({"db": db, "secrets": secrets_path, **counts},
         (f"moved {counts['server_seeds']} server seeds and {counts['private_keys']} private keys "
          f"to {secrets_path}; {db} holds no secret now") if had else f"{db} holds no secret: nothing to move",
         as_json)
