"""The whole ``tiplu`` command: :mod:`audit.cli`'s commands plus the ones that start a web app.

The layers import downward only (``docs/architecture.md``), so the commands that serve the
site -- ``tiplu serve``, ``tiplu demo`` (which ends by serving the demo archive) and
``tiplu witness serve`` -- cannot live in ``audit/cli``: they are composed here, one layer
up, and pyproject's ``tiplu`` entry point is this module's :data:`main`.  (An entry-point
plugin group, Flask's ``flask.commands`` way, would work too, but a command would then
exist only once the package is installed, and ``python3 -m`` from a checkout would lose
it; composing at the top layer needs no installation and keeps the lazy loading.)

:data:`main` is a :class:`audit.cli.TipluGroup` -- the same options, the same one-line
errors -- that holds the site's commands and asks :data:`audit.cli.main` for every other
one, loaded lazily as there: ``tiplu eval`` imports neither Flask nor the audit stack.
``python3 -m web.cli`` is ``tiplu`` from a checkout; ``python3 -m audit.cli`` still runs
every command that starts no web app.
"""
from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from audit.cli import TipluGroup
from audit.cli import load_all as load_audit_commands
from audit.cli import main as audit_main
from audit.cli._ledger_common import db_option
from audit.cli.witness import check_state_file, key_option, marker_option, name_option, witness_group
from audit.cli.witness import db_option as witness_db_option

if TYPE_CHECKING:
    from flask import Flask


class SiteGroup(TipluGroup):
    """The root group of ``tiplu``: its own commands first, then :data:`audit.cli.main`'s."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        load_all()
        return sorted(self.commands)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self.commands.get(cmd_name) or audit_main.get_command(ctx, cmd_name)


main = SiteGroup(name=audit_main.name, params=audit_main.params, callback=audit_main.callback,
                 help=audit_main.help, context_settings=audit_main.context_settings)


def load_all() -> None:
    """Put every command of ``tiplu`` in ``main.commands`` (for ``--help`` and for walking them)."""
    load_audit_commands()
    for name, cmd in audit_main.commands.items():
        main.commands.setdefault(name, cmd)


@main.command("serve")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
@click.option("--debug", is_flag=True, help="Flask debug mode (reloader, tracebacks): never in production.")
def serve(db: str, host: str, port: int, debug: bool) -> None:
    """Serve the pages and the APIs on Flask's development server.

    For production run gunicorn: gunicorn -w 2 'web:create_app()' (docs/web.md).
    """
    from audit.operator.ledger import Ledger

    from . import create_app

    Ledger(db).close()  # a missing, empty or foreign file: one line now, not a 503 on every request
    os.environ["TIPLU_DB"] = os.path.abspath(db)
    app = create_app()
    click.echo(f"Tiplu on http://{host}:{port}/  (ledger {os.environ['TIPLU_DB']})", err=True)
    app.run(host=host, port=port, debug=debug)


def demo_app(db: Path, witnesses: str | None = None) -> Flask:
    """The website over the demo archive, its log checkpoints signed by the demo operator
    (and sent to ``witnesses``, a ``TIPLU_WITNESSES`` setting: the demo's witness)."""
    from audit.cli.demo import DEMO_ORIGIN
    from audit.operator.ledger import Ledger
    from audit.operator.sim.archive import OPERATOR
    from audit.tlog.checkpoint import CheckpointSigner

    from . import create_app

    with Ledger(str(db)) as ledger:
        signer = CheckpointSigner(ledger.signing_key(OPERATOR), DEMO_ORIGIN)
        # the operator's own log (DEMO_ORIGIN/demo-operator): the latest checkpoint when it covers the log
        cp = ledger.covering_checkpoint(ledger.transparency_log().size(), operator=OPERATOR, origin=DEMO_ORIGIN)
    click.echo(f"Signed a log checkpoint: {cp.size} statements, root {cp.root_hex[:16]}...")
    return create_app({"TIPLU_DB": str(db.resolve()), "TIPLU_CHECKPOINT_SIGNER": signer, "TIPLU_LOG_ORIGIN": DEMO_ORIGIN,
                       "TIPLU_WITNESSES": witnesses or ""})


def demo_site(db: Path, witnesses: str | None = None) -> Flask:
    """The demo's website, ready: its deal statistics computed before it serves, so the first
    /stats visit shows them instead of "being computed"."""
    from .stats_page import warm

    app = demo_app(db, witnesses)
    click.echo("Computing the deal statistics for /stats ...", err=True)
    warm(app)
    return app


def _check_port_free(host: str, port: int) -> None:
    """Refuse, in one line, a port something already listens on (or a host this machine
    cannot bind)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise click.ClickException(f"cannot serve on {host}: {exc.strerror or exc}") from None
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will: only a listener blocks it
        try:
            s.bind(addr)
        except OSError as exc:
            raise click.ClickException(f"cannot serve on {host}:{port}: {exc.strerror or exc} "
                                       "(another server uses it? pass --port)") from None


@main.command("demo")
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path), default=Path("var/demo"),
              show_default=True, help="Where the demo archive lives (built on first run).")
@click.option("--rebuild", is_flag=True, help="Build the archive again even if it exists.")
@click.option("--small", is_flag=True, help="A small archive (one table per preset) for a quick look or a test.")
@click.option("--serve/--no-serve", default=True, show_default=True, help="Serve the website afterwards.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--json", "as_json", is_flag=True,
              help="Print the audit report and how it compares with the planted forgeries as one JSON object "
                   "(the serving message then goes to stderr).")
def demo_command(directory: Path, rebuild: bool, small: bool, serve: bool, host: str, port: int,
                 as_json: bool) -> None:
    """Build a demo archive (all four presets, a few hundred hands, a few tampered by a
    dishonest operator), audit it, print a summary, and serve the site on 127.0.0.1.

    The audit is meant to fail on the forged hands: that is the demo working.  Exits 0 when
    the audit rejects exactly the hands the demo forged (every forgery caught, no honest
    hand rejected), 1 otherwise.
    """
    from audit.cli.demo import build_and_audit, demo_log, needs_build

    from .demo_witness import NAME, DemoWitness

    if serve:  # before the witness, the build and the audit: a busy port fails at once, not after a minute
        _check_port_free(host, port)
    building = needs_build(directory, rebuild=rebuild)
    witness = None
    if building or serve:  # its own process, key, database and port; the archive's records are sent to it
        origin, public_hex = demo_log()
        make = DemoWitness.fresh if building else DemoWitness  # a rebuilt archive is a new history: a new witness
        witness = make(directory / "witness", origin=origin, log_public_hex=public_hex).start()
        click.echo(f"Started the demo witness {NAME} at {witness.url} (its own key, database and port; "
                   f"run by the demo, so it shows witnessing, not independence)", err=True)
    try:
        db = build_and_audit(directory, rebuild=rebuild, small=small,
                             witnesses=witness.setting if witness is not None else None, as_json=as_json)
        if not serve or witness is None:  # serving started the witness above
            return
        app = demo_site(db, witness.setting)
        click.echo(f"\nServing the demo at http://{host}:{port}/  (Ctrl-C to stop)", err=as_json)
        app.run(host=host, port=port, debug=False, use_reloader=False)
    finally:
        if witness is not None:
            witness.stop()
            click.echo("Stopped the demo witness.", err=True)


@click.command("serve")
@name_option
@key_option
@witness_db_option
@marker_option
@click.option("--logs", "logs_file", envvar="TIPLU_WITNESS_LOGS", type=click.Path(exists=True, dir_okay=False),
              help="File of '<origin> <log vkey>' lines: the logs to witness (env TIPLU_WITNESS_LOGS).")
@click.option("--log", "log_keys", multiple=True, metavar="[ORIGIN=]VKEY",
              help="A log to witness (repeatable); the origin defaults to the vkey's name.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8100, show_default=True, type=int, help="Port to listen on.")
def witness_serve_command(name: str, key_file: str, db: str, marker: str | None, logs_file: str | None,
                          log_keys: tuple[str, ...], host: str, port: int) -> None:
    """Serve the witness (POST /add-checkpoint) on Flask's development server.

    For production: gunicorn -w 2 'web.witness:create_app()' with the TIPLU_WITNESS_* settings.
    It refuses to start when its database is missing or behind what its key cosigned (the
    marker); see 'tiplu witness reinit'.
    """
    from audit.keys import load_key_file
    from audit.tlog.witness import Witness, load_logs_file, log_vkeys
    from replay.errors import MalformedError

    from .witness import create_app

    logs = dict(load_logs_file(logs_file)) if logs_file else {}
    for origin, log in log_vkeys(log_keys).items():
        if origin in logs:
            raise MalformedError(f"log {origin!r} is given twice")
        logs[origin] = log
    if not logs:
        raise MalformedError("a witness needs at least one log (--logs FILE or --log VKEY)")
    check_state_file(db, create=True)
    from audit.tlog.witness_marker import default_marker

    witness = Witness(os.path.abspath(db), load_key_file(key_file), name, logs,
                      marker=os.path.abspath(marker or default_marker(key_file)))
    app = create_app({"TIPLU_WITNESS": witness})
    click.echo(f"witness {witness.vkey} on http://{host}:{port}/ for {len(logs)} log(s) (state {db})", err=True)
    app.run(host=host, port=port, threaded=True)


#: ``tiplu witness``: audit's witness group with ``serve`` added (a copy: audit's stays as it is).
site_witness_group = copy.copy(witness_group)
site_witness_group.commands = {**witness_group.commands, "serve": witness_serve_command}
main.add_command(site_witness_group)


if __name__ == "__main__":
    main()
