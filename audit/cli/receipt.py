"""``tiplu receipt verify RECEIPT RECORD``: does a published record contradict a player's receipt?

Exit status 0: consistent (and what an offline check cannot show is said); 1: contradicted,
each contradiction one line (``--json``: the evidence, both sides); 2: bad input (a file
that does not parse, a receipt that does not hold under the key, a record of another hand).
See :mod:`audit.receipt_check`.
"""
from __future__ import annotations

import json
import sys

import click

from replay.errors import TipluError
from replay.records import load_json

from . import main


@main.group("receipt")
def receipt_group() -> None:
    """A player's seat receipts (tiplu.receipt/3) and move receipts."""


def _load(path: str, what: str):
    try:
        with open(path, encoding="utf-8") as fh:
            return load_json(fh.read())
    except OSError as exc:
        raise TipluError(f"cannot read the {what} {path}: {exc.strerror or exc}") from None
    except (TipluError, UnicodeDecodeError) as exc:
        raise TipluError(f"the {what} {path} is not JSON: {exc}") from None


@receipt_group.command("verify")
@click.argument("receipt_path", metavar="RECEIPT")
@click.argument("record_path", metavar="RECORD")
@click.option("--public-key", metavar="HEX", help="The operator key you pinned (default: the key the receipt "
                                                  "names, which is NOT a trust anchor).")
@click.option("--moves", "moves_path", metavar="FILE", help="Your move receipts (tiplu.move-receipt/1), a JSON "
                                                           "array or JSON lines: the record's moves must give "
                                                           "each one's head.")
@click.option("--json", "as_json", is_flag=True, help="Print the report (with the evidence) as JSON.")
def receipt_verify(receipt_path: str, record_path: str, public_key: str | None, moves_path: str | None,
                   as_json: bool) -> None:
    """Check a published RECORD against your RECEIPT: same logged statements, same server
    commitment, ruleset hash, terms and names, one root per checkpoint size, and (--moves)
    the moves as played.  Exit 0 consistent, 1 contradicted, 2 bad input."""
    from ..move_receipts import load_move_receipts
    from ..receipt_check import compare

    try:
        moves = None
        if moves_path is not None:
            try:
                with open(moves_path, encoding="utf-8") as fh:
                    moves = load_move_receipts(fh.read())
            except OSError as exc:
                raise TipluError(f"cannot read the move receipts {moves_path}: {exc.strerror or exc}") from None
            except (TipluError, UnicodeDecodeError) as exc:
                raise TipluError(f"the move receipts {moves_path} are not JSON: {exc}") from None
        report = compare(_load(receipt_path, "receipt"), _load(record_path, "record"), public_key=public_key,
                         move_receipts=moves)
    except TipluError as exc:
        click.echo(f"tiplu: error: {exc}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, sort_keys=True))
    else:
        trust = report.trust
        click.echo(f"key {trust['public_key']} ({trust['basis']}"
                   + (f": {trust['note']}" if "note" in trust else "") + ")")
        for c in report.contradictions:
            click.echo(f"CONTRADICTED: {c.message}")
        for line in report.checked:
            click.echo(f"ok: {line}")
        for line in report.not_checked:
            click.echo(f"not checked offline: {line}")
        click.echo(f"hand {report.hand_id} seat {report.seat}: "
                   + ("the record agrees with your receipt" if report.consistent
                      else f"the record CONTRADICTS your receipt ({len(report.contradictions)} ways)"))
    sys.exit(0 if report.consistent else 1)
