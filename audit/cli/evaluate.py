"""``tiplu eval GAME``: JSON lines in, JSON lines out, one answer per line, in order.

Each game's operations are its ``GAME.eval_handlers`` (``replay/<game>/eval_requests.py``:
``evaluate(request) -> dict``), found through :mod:`replay.registry`; GAME is any game the
registry knows when the command runs.
A line that fails gets ``{"error": "..."}`` on its own output line; the rest go on.  The
exit status is 1 if any line failed, else 0.

The driver reads whatever input is available (``read1``: one read of at most 64 KiB, which
returns as soon as any bytes arrive), answers every whole line in it, and writes and
flushes those answers at once.  A program that writes one line and waits for its answer
gets it at once; a file of a million lines costs a few hundred writes, not a million.
"""
from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO, Callable

import click

from replay.errors import MalformedError, TipluError
from replay.jsontext import decode_json
from replay.registry import game_for, game_names

from . import main

CHUNK = 65536


def _compact_encoder() -> Callable[[Any], str]:
    """``json.dumps(obj, separators=(",", ":"))``, with the C encoder made once instead of
    once per call (what ``json.dumps`` does for any non-default argument).  No circular
    check: an answer is a fresh tree of plain values."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:   # not CPython: the documented path
        return json.JSONEncoder(separators=(",", ":")).encode
    fallback = json.JSONEncoder(separators=(",", ":"))
    encode = make(None, fallback.default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True)
    return lambda obj: "".join(encode(obj, 0))


_dumps = _compact_encoder()


def _answer(evaluate: Callable[[dict[str, Any]], dict[str, Any]], line: str) -> dict[str, Any]:
    try:
        request = decode_json(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object with an 'op'"}
    try:
        return evaluate(request)
    except (TipluError, ValueError, KeyError, TypeError, ArithmeticError) as exc:
        return {"error": str(exc) if not isinstance(exc, KeyError) else f"missing field {exc}"}
    except Exception as exc:  # noqa: BLE001 - a bug costs its own line, never the rest of the run
        return {"error": f"internal error: {type(exc).__name__}"}


def evaluate_line(game: str, line: str) -> dict[str, Any]:
    """Answer one input line (never raises for bad input)."""
    return _answer(game_for(game).eval_handlers, line)


def answer_lines(game: str, lines: list[bytes]) -> tuple[bytes, bool]:
    """The answers to whole input ``lines`` (blank ones skipped) as output bytes, and
    whether any failed."""
    evaluate = game_for(game).eval_handlers
    out: list[str] = []
    failed = False
    try:   # all at once when it is all UTF-8 (no UTF-8 sequence holds a newline byte)
        texts: list[str | bytes] = list(b"\n".join(lines).decode("utf-8").split("\n")) if lines else []
    except UnicodeDecodeError:
        texts = list(lines)
    for line in texts:
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                out.append(_dumps({"error": f"not UTF-8: byte {exc.start + 1} of the line"}))
                failed = True
                continue
        if not line.strip():
            continue
        answer = _answer(evaluate, line)
        failed = failed or "error" in answer
        out.append(_dumps(answer))
    return ("\n".join(out) + "\n").encode("utf-8") if out else b"", failed


class GameChoice(click.Choice[str]):
    """The games the registry knows when the command runs (not when this module was
    imported), a game registered at run time included."""

    def __init__(self) -> None:
        super().__init__((), case_sensitive=True)

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(sorted(game_names()))

    @choices.setter
    def choices(self, _value: object) -> None:   # click.Choice.__init__ sets it; the registry decides
        pass


@main.command("eval")
@click.argument("game", type=GameChoice())
@click.argument("input_path", metavar="INPUT", default="-")
def eval_command(game: str, input_path: str) -> None:
    """Evaluate JSON-lines requests for GAME (see the README, "tiplu eval"); INPUT is a
    file of requests, or - (the default) for standard input."""
    from ..inputfiles import MAX_RECORD_BYTES, require_regular

    input: BinaryIO
    if input_path == "-":
        input = sys.stdin.buffer
    else:
        input = require_regular(input_path).open("rb")  # a FIFO or a device is refused, never opened
    out = sys.stdout.buffer
    read: Callable[[int], bytes] = getattr(input, "read1", input.read)
    failed = False
    pending = b""
    while True:
        chunk = read(CHUNK)
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop() if chunk else b""
        if len(pending) > MAX_RECORD_BYTES:  # /dev/zero on stdin: no newline ever comes
            raise MalformedError(f"a request line longer than {MAX_RECORD_BYTES // (1024 * 1024)} MiB")
        data, bad = answer_lines(game, lines)
        failed |= bad
        if data:
            out.write(data)
            out.flush()
        if not chunk:
            break
    if failed:
        raise SystemExit(1)
