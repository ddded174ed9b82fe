"""``tiplu eval GAME``: JSON lines in, JSON lines out, one answer per line, in order.

Each game's operations live in ``replay/<game>/ops.py`` as ``evaluate(request) -> dict``.
A line that fails gets ``{"error": "..."}`` on its own output line; the rest go on.  The
exit status is 1 if any line failed, else 0.
"""
from __future__ import annotations

import json
import sys
from importlib import import_module

import click

from replay.errors import TipluError

from . import main

GAME_OPS = {
    "kitti": "replay.kitti.ops",
    "rummy13": "replay.rummy.ops",
    "marriage": "replay.marriage.ops",
}


def evaluate_line(game: str, line: str) -> dict:
    """Answer one input line (never raises for bad input)."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object with an 'op'"}
    try:
        return import_module(GAME_OPS[game]).evaluate(request)
    except (TipluError, ValueError, KeyError, TypeError, ArithmeticError) as exc:
        return {"error": str(exc) if not isinstance(exc, KeyError) else f"missing field {exc}"}
    except Exception as exc:  # noqa: BLE001 - a bug costs its own line, never the rest of the run
        return {"error": f"internal error: {type(exc).__name__}"}


@main.command("eval")
@click.argument("game", type=click.Choice(sorted(GAME_OPS)))
@click.argument("input", type=click.File("r", encoding="utf-8"), default="-")
def eval_command(game: str, input) -> None:
    """Evaluate JSON-lines requests for GAME (see the README, "tiplu eval")."""
    failed = False
    for line in input:
        if not line.strip():
            continue
        answer = evaluate_line(game, line)
        failed |= "error" in answer
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    if failed:
        sys.exit(1)
