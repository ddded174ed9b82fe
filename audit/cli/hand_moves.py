"""``tiplu hand move`` and ``tiplu hand move-receipts``: the moves of a dealt hand as they are
played, each answered by a signed move receipt (``docs/fairness.md``, "Moves as played").

* ``tiplu hand move HAND --move JSON`` (``-`` = stdin: one move, a JSON array or JSON lines)
  appends the move(s) to the hand's move chain and prints each move receipt (``--json``: the
  signed receipt, one per line) -- what the game server hands to every seat.
* ``tiplu hand move-receipts HAND [--since N]`` prints the receipts of moves ``N+1 …`` again
  (byte for byte the ones given), one JSON line each: what ``tiplu seat moves`` fetches.

``tiplu hand finish --played`` then finishes the hand with exactly these moves (``--moves`` and
``--record`` must list exactly them too).
"""
from __future__ import annotations

import json
import sys

import click

from replay.errors import MalformedError

from ._ledger_common import db_option, emit, json_option, key_option, open_ledger


def _moves(text: str) -> list:
    text = text.strip()
    try:
        if text.startswith("["):  # a JSON array of moves (as tiplu hand bot-moves prints them)
            moves = json.loads(text)
            if not isinstance(moves, list):
                raise MalformedError("moves are a JSON array, JSON lines or one JSON object")
            return moves
        if text.startswith("{"):
            try:
                return [json.loads(text)]
            except json.JSONDecodeError:
                pass  # JSON lines, below
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        raise MalformedError(f"a move is a JSON object: {exc.msg} at line {exc.lineno}") from None


def _receipt_text(signed: dict) -> str:
    st = signed["statement"]
    return f"hand {st['hand_id']} move {st['n_moves']}: head {st['head']} (signed by {signed['key']} at {st['time']})"


@click.command("move")
@click.argument("hand_id")
@click.option("--move", "move_text", metavar="JSON", required=True,
              help="The move as the record will list it (the engine's move JSON; 'time' is added when absent). "
                   "'-' reads stdin: one move, a JSON array or JSON lines of moves, in order (an empty array plays nothing).")
@db_option
@key_option
@json_option
def hand_move(hand_id, move_text, db, key_file, as_json) -> None:
    """Play moves of a dealt hand: each is appended to the hand's move chain and answered by
    a signed move receipt (not a log leaf) for every seat to keep."""
    text = sys.stdin.read() if move_text == "-" else move_text
    moves = _moves(text)
    if not moves:
        if text.strip().startswith("["):
            return  # an empty array: a hand with no moves to play (four of a kind at the deal, K-20)
        raise MalformedError("no move given")
    with open_ledger(db, key_file) as ledger:
        for move in moves:
            signed = ledger.play_move(hand_id, move)
            emit(signed, _receipt_text(signed), as_json)


@click.command("move-receipts")
@click.argument("hand_id")
@click.option("--since", type=click.IntRange(min=0), default=0, show_default=True,
              help="Only the receipts of moves after this many.")
@db_option
@json_option
def hand_move_receipts(hand_id, since, db, as_json) -> None:
    """The move receipts of a hand (moves SINCE+1 ...), signed again from the stored heads:
    the very receipts that were given.  Heads only: no move is in them."""
    with open_ledger(db) as ledger:
        for signed in ledger.move_receipts(hand_id, since=since):
            emit(signed, _receipt_text(signed), as_json)


def register(group: click.Group) -> None:
    """Add the commands to ``tiplu hand`` (:mod:`.hand` calls it: no import back)."""
    group.add_command(hand_move)
    group.add_command(hand_move_receipts)
