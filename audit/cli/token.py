"""``tiplu token``: issue and revoke the web API's bearer tokens (see ``docs/web.md``)."""
from __future__ import annotations

import click

from . import main
from ._ledger_common import db_option, emit, open_ledger, real_clock


@main.group()
def token() -> None:
    """API tokens: operator tokens and per-seat player tokens (stored hashed)."""


@token.command("new")
@db_option
@click.option("--operator", help="Issue an operator token for this operator.")
@click.option("--hand", "hand_id", help="Issue a seat token for this hand (with --seat).")
@click.option("--seat", type=int, help="The seat of --hand the token acts for (0 = first seat).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def token_new(db: str, operator: str | None, hand_id: str | None, seat: int | None, as_json: bool) -> None:
    """Issue a token and print it once: it is stored only as its SHA-256 hash.

    Either --operator NAME, or --hand H --seat N.
    """
    from ..operator.tokens import issue_operator_token, issue_seat_token

    if operator is not None and hand_id is None and seat is None:
        with open_ledger(db) as ledger:
            who, secret = issue_operator_token(ledger.db, operator, now=real_clock())
    elif operator is None and hand_id is not None and seat is not None:
        with open_ledger(db) as ledger:
            who, secret = issue_seat_token(ledger.db, hand_id, seat, now=real_clock())
    else:
        raise click.UsageError("give either --operator NAME, or --hand H with --seat N")
    emit({**who.to_json(), "token": secret}, secret, as_json)


@token.command("revoke")
@db_option
@click.argument("token_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def token_revoke(db: str, token_id: str, as_json: bool) -> None:
    """Revoke a token by its id (the 16 hex digits after ``tpl_``)."""
    from ..operator.tokens import revoke

    with open_ledger(db) as ledger:
        revoke(ledger.db, token_id, now=real_clock())
    emit({"revoked": token_id}, f"revoked {token_id}", as_json)
