"""``tiplu simulate``: bots play real games through the ledger; records out."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from replay.rulesets import PRESETS

from . import main
from ._ledger_common import cosigner_from_env


@main.command("simulate")
@click.option("--preset", type=click.Choice(PRESETS), required=True, help="The preset every table plays.")
@click.option("--players", type=click.IntRange(2, 8), default=4, show_default=True, help="Seats per table.")
@click.option("--hands", type=click.IntRange(1, 1_000_000), default=10, show_default=True, help="Hands per table.")
@click.option("--tables", type=click.IntRange(1, 10_000), default=1, show_default=True, help="How many tables.")
@click.option("--seed", default="tiplu", show_default=True, help="Simulator seed: the same seed gives the same archive.")
@click.option("--tamper", "tamper_rate", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              help="Share of hands a dishonest operator publishes with one fault.")
@click.option("--tamper-log", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the dishonest operator's private list of tampered hands here (JSON).")
@click.option("--db", "db_path", envvar="TIPLU_DB", type=click.Path(dir_okay=False), default=":memory:",
              show_default=True, help="Ledger database (env TIPLU_DB); :memory: keeps nothing.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Also write the published records as JSON lines.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--bias-seat", type=click.IntRange(0, 7), default=None,
              help="A dishonest operator that chooses the seeds so this seat is dealt aces (audits clean; "
                   "`tiplu stats` sees it, docs/stats.md).")
@click.option("--peek-seat", type=click.IntRange(0, 7), default=None,
              help="A superuser in this seat sees the hidden cards (audits clean; `tiplu collusion` looks "
                   "for it, docs/collusion.md). Kitti and 13-card Rummy.")
@click.option("--peek-rate", type=click.FloatRange(0, 1), default=1.0, show_default=True,
              help="Share of the superuser's decisions made with the hidden cards in view.")
@click.option("--collude-seats", default=None, metavar="A,B",
              help="A colluding pair in these two seats sees each other's hands (audits clean; `tiplu collusion` "
                   "looks for it, docs/collusion.md). Kitti and 13-card Rummy.")
@click.option("--collude-rate", type=click.FloatRange(0, 1), default=1.0, show_default=True,
              help="Share of the pair's decisions made with the partner's hand in view.")
@click.option("--bias-tries", type=click.IntRange(1, 1000), default=8, show_default=True,
              help="Seed sets the biased operator tries per hand.")
def simulate_command(preset: str, players: int, hands: int, tables: int, seed: str, tamper_rate: float,
                     tamper_log: Path | None, db_path: str, out: Path | None, as_json: bool,
                     bias_seat: int | None, bias_tries: int, peek_seat: int | None, peek_rate: float,
                     collude_seats: str | None, collude_rate: float) -> None:
    """Run simulated tables through the real ledger: commitments, two-phase seeds, bot play, reveals."""
    from ..operator.ledger import Ledger
    from ..operator.sim.archive import simulate_archive, write_tamper_log
    from ..operator.sim.bias import Bias

    if bias_seat is not None and bias_seat >= players:
        raise click.BadParameter(f"seat {bias_seat} is not at a table of {players}", param_hint="--bias-seat")
    bias = Bias(seat=bias_seat, tries=bias_tries) if bias_seat is not None else None
    if peek_seat is not None and peek_seat >= players:
        raise click.BadParameter(f"seat {peek_seat} is not at a table of {players}", param_hint="--peek-seat")
    peek = {peek_seat: round(peek_rate * 1000)} if peek_seat is not None else None
    if peek:
        from replay.rulesets import resolve
        from ..operator.sim.bots import bot_for
        try:
            bot_for(resolve(preset).game, "peeking")
        except LookupError as exc:
            raise click.BadParameter(str(exc), param_hint="--peek-seat") from None
    collude = _collude(collude_seats, collude_rate, players, preset)
    if collude and peek and set(collude) & set(peek):
        raise click.BadParameter("a seat cannot both peek and collude", param_hint="--collude-seats")

    sink = out.open("w", encoding="utf-8") if out else None
    try:
        def write(record: dict[str, Any], kind: str | None) -> None:
            if sink:
                sink.write(json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n")

        # TIPLU_WITNESSES: the records' checkpoints get cosigned
        with Ledger(db_path, create=True, cosign_checkpoint=cosigner_from_env()) as ledger:
            run = simulate_archive(ledger, [(preset, players, hands)] * tables, seed=seed,
                                   tamper_rate=tamper_rate, on_record=write, bias=bias, peek=peek, collude=collude,
                                   table_prefix="" if tables == 1 else "")
    finally:
        if sink:
            sink.close()
    if tamper_log:
        write_tamper_log(run, tamper_log)
    summary = run.summary()
    if as_json:
        click.echo(json.dumps(summary, indent=2, sort_keys=True))
        return
    for p, s in summary["presets"].items():
        click.echo(f"{p}: {s['tables']} tables, {s['hands']} hands, {s['finished']} with a winner "
                   f"({s['finish_rate']:.0%}), median {s['median_moves']} moves per hand")
    click.echo(f"{summary['hands']} hands simulated" + (f", {summary['tampered']} tampered" if tamper_rate else ""))


def _collude(seats: str | None, rate: float, players: int, preset: str) -> dict[int, tuple[int, int]] | None:
    """``--collude-seats A,B``: each seat mapped to its partner and the per mille it plays with
    the partner's hand in view (:func:`audit.operator.sim.play.play_hand`)."""
    if seats is None:
        return None
    parts = seats.split(",")
    try:
        a, b = (int(x) for x in parts)
    except ValueError:
        raise click.BadParameter(f"expected two seats like 0,1, got {seats!r}", param_hint="--collude-seats") from None
    for s in (a, b):
        if not 0 <= s < players:
            raise click.BadParameter(f"seat {s} is not at a table of {players}", param_hint="--collude-seats")
    if a == b:
        raise click.BadParameter("a pair needs two different seats", param_hint="--collude-seats")
    from replay.rulesets import resolve
    from ..operator.sim.bots import bot_for
    try:
        bot_for(resolve(preset).game, "colluding")
    except LookupError as exc:
        raise click.BadParameter(str(exc), param_hint="--collude-seats") from None
    k = round(rate * 1000)
    return {a: (b, k), b: (a, k)}
