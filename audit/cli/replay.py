"""``tiplu replay``: a hand move by move, as people read it."""
from __future__ import annotations

import json
import re
import sys
from typing import Any

import click

from replay.describe import describe_move
from replay.errors import MalformedError, RulesetError
from replay.game import Game, Outcome
from replay.records import load_json, parse_record
from replay.registry import game_for
from replay.replayer import replay_record

from ..schema import validate_record
from . import main


@main.command("replay")
@click.argument("record")
@click.option("--json", "as_json", is_flag=True, help="Print every step as JSON lines.")
def replay_command(record: str, as_json: bool) -> None:
    """Print a hand move by move: each seat's hand and the piles at every step (RECORD: a
    .json file, or - for standard input)."""
    from replay.game import engine_for

    from ..inputfiles import read_bounded, read_file_bounded
    from ..render import render_state

    name = "<stdin>" if record == "-" else record
    raw = (read_bounded(sys.stdin.buffer, name) if record == "-"
           else read_file_bounded(record))  # a FIFO or a device is refused, nothing read unbounded
    try:
        data = load_json(raw.decode("utf-8"))
    except MalformedError as exc:
        raise MalformedError(f"{name}: {exc} (replay takes one record: a .json file; "
                             "'tiplu audit' reads JSON lines)") from None
    validate_record(data)
    rec = parse_record(data)
    engine = engine_for(rec.ruleset)

    def visit(index: int, move: Any, state: Any) -> None:
        view = render_state(engine, state)
        if as_json:
            click.echo(json.dumps({"index": index, "move": move.to_json() if move else None, "state": view}))
            return
        click.echo("== deal ==" if index < 0 else f"== move {index}: {describe_move(engine, move, players)}  [{move}] ==")
        for line in view.get("lines", []):
            click.echo("   " + people_line(line, players))

    players = list(rec.table.players)
    result = replay_record(rec, strict=True, visit=visit)
    for f in result.faults:
        click.echo(f"FAULT {f}", err=True)
    outcome, settled, worked = result.outcome, result.settlement, result.worked  # all three, or none
    if outcome is not None and settled is not None and worked is not None:
        if as_json:
            click.echo(json.dumps({"index": None, "worked": worked}))
        else:
            click.echo("== outcome ==")
            for line in outcome_lines(outcome, players):
                click.echo("   " + line)
            for line in worked_lines(worked, players):
                click.echo("   " + line)
            click.echo("   nets (HT): " + " ".join(str(x) for x in settled.nets)
                       + f"   commission: {settled.commission}")
    if result.faults:
        sys.exit(1)


_SEAT_LINE = re.compile(r"^seat (\d+):")
_CARD_TOKEN = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK|MC)\b")


def _symbols(text: str) -> str:
    """Every card code in ``text`` as people read it (``TD`` -> ``10♦``, ``JK`` -> ``joker``)."""
    from replay.cards import card_symbol, parse_card

    return _CARD_TOKEN.sub(lambda m: card_symbol(parse_card(m.group(0))), text)


def people_line(line: str, players: list[str]) -> str:
    """A line of the game's text view as ``tiplu replay`` prints it: seats by name, cards in
    symbols (as the moves are described: issue 29 item 17)."""
    m = _SEAT_LINE.match(line)
    if m and int(m.group(1)) < len(players):
        line = f"{players[int(m.group(1))]} (seat {m.group(1)}):" + line[m.end():]
    return _symbols(line)


def outcome_lines(outcome: Outcome, players: list[str]) -> list[str]:
    """The outcome's points by name; the tiplu, and each seat's maal, when the game has them."""
    def name(seat: int) -> str:
        return players[seat] if 0 <= seat < len(players) else f"seat {seat}"
    out = []
    tiplu = (outcome.detail or {}).get("tiplu")
    if isinstance(tiplu, str):
        out.append(f"tiplu: {_symbols(tiplu)}")
    out.append("points: " + ", ".join(f"{name(i)} {p}" for i, p in enumerate(outcome.points)))
    for i, b in enumerate(outcome.breakdown or ()):
        maal = b.get("maal") if isinstance(b, dict) or hasattr(b, "get") else None
        if isinstance(maal, (list, tuple)):
            items = ", ".join(f"{m.get('item')} {_symbols(' '.join(m.get('cards', [])))} = {m.get('points')}"
                              for m in maal) or "none"
            out.append(f"  maal of {name(i)}: {items}")
    return out


def _pays_or_gets(net: int) -> str:
    """A seat's pairwise total in words: ``pays 5`` (net -5), ``gets 28`` (net +28)."""
    return f"gets {net}" if net > 0 else f"pays {-net}"


def _game_of(name: object) -> Game | None:
    try:
        return game_for(name) if isinstance(name, str) else None
    except RulesetError:
        return None


def worked_lines(worked: dict[str, Any], players: list[str]) -> list[str]:
    """The settlement worked (:mod:`replay.worked`) as text lines for ``tiplu replay``."""
    pts, out = worked["points"], []
    def name(seat: int) -> str:
        return players[seat] if 0 <= seat < len(players) else f"seat {seat}"
    game = _game_of(worked.get("game"))
    out.append(game.worked_heading(pts, name) if game is not None and game.worked_heading is not None
               else f"settlement ({pts['method']})")
    for r in pts["rows"]:
        pair = ""
        if "pairwise" in r:
            pair = ("   pairwise: " + ", ".join(f"gets w {-x['points']} from {name(x['to'])}" if x.get("w") and x["points"] < 0
                                            else f"{'w ' if x.get('w') else ''}{x['points']} → {name(x['to'])}"
                                            for x in r["pairwise"]) + f" = {_pays_or_gets(r['pairwise_net'])}")
        out.append(f"  {name(r['seat'])}: {r['sum']}{pair}")
    out.append(f"money (D-2): {worked['money']['point_value']} HT a point, {worked['money']['commission_pct']}% "
               "commission on each gain")
    out += [f"  {r['player']}: {r['sum']}" for r in worked["money"]["rows"]]
    return out
