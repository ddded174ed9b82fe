"""The ``tiplu`` command line: a thin click shell over :mod:`audit` and :mod:`replay`.

This is every command that starts no web app; :mod:`web.cli` composes the whole ``tiplu``
(this group plus ``serve``, ``demo`` and ``witness serve``) one layer up, since no module of
``audit`` may import ``web`` (``docs/architecture.md``).

Each module in this package adds its commands to :data:`main`.  They are loaded lazily
(click's "lazily loading subcommands" pattern): ``tiplu eval`` imports only the module
that defines ``eval`` (:data:`COMMANDS` says which), not the whole audit stack, so a short
command starts in a fraction of the time.  A command missing from :data:`COMMANDS` is
still found -- every module is then imported to look for it -- so adding a command group
never breaks the shell; ``tests/test_cli_help.py`` checks that the map is complete.

Errors are translated here, once, for every command: each is **one line** on stderr
(``tiplu: error: ...``), never a traceback.  A :class:`TipluError`, a file or database
error exits 1; a usage error (unknown option, missing argument, bad value) exits 2
(click's rule), its line naming the command and where its help is.  Anything else is a
bug: one line ``tiplu: internal error: ...`` and exit 1 (``TIPLU_DEBUG=1`` shows the
traceback).

``tiplu --db PATH COMMAND ...`` sets the ledger for every ledger command (as ``--db`` after
the command, or ``TIPLU_DB``; the command's own ``--db`` wins).
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from typing import Any, NoReturn, Sequence

import click

from replay.errors import TipluError


def _say(line: str) -> None:
    click.echo(" ".join(str(line).split()) if "\n" in str(line) else line, err=True)


def fail(exc: BaseException) -> NoReturn:
    """Print ``exc`` as one line on stderr and exit (status 2 for usage errors, else 1)."""
    if isinstance(exc, click.UsageError):
        where = exc.ctx.command_path if exc.ctx is not None else "tiplu"
        _say(f"{where}: error: {exc.format_message().rstrip('.')} (see '{where} --help')")
        sys.exit(exc.exit_code)
    if isinstance(exc, click.ClickException):
        _say(f"tiplu: error: {exc.format_message()}")
        sys.exit(exc.exit_code)
    if isinstance(exc, TipluError):
        _say(f"tiplu: error: {exc}")
    elif isinstance(exc, UnicodeDecodeError):
        _say(f"tiplu: error: the input is not UTF-8 text ({exc.reason} at byte {exc.start})")
    elif isinstance(exc, OSError):
        _say(f"tiplu: error: {exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": "))
    elif "sqlite3" in sys.modules and isinstance(exc, sys.modules["sqlite3"].Error):
        _say(f"tiplu: error: the database refused: {exc}")
    else:
        _say(f"tiplu: internal error: {type(exc).__name__}: {exc} (TIPLU_DEBUG=1 shows the traceback)")
    sys.exit(1)


# command name -> the module of this package that defines it (imported on first use).
COMMANDS: dict[str, str] = {
    "audit": "audit", "replay": "replay", "deal": "deal", "verify-commitment": "deal",
    "eval": "evaluate", "table": "hand", "hand": "hand", "keys": "keys", "operator": "keys", "seed": "keys",
    "monitor": "monitor", "receipt": "receipt", "seat": "seat", "simulate": "simulate",
    "stats": "stats", "token": "token", "collusion": "collusion",
    "witness": "witness", "init": "init", "move-secrets": "init",
}


def load_all() -> None:
    """Import every command module of this package (for ``--help`` and unlisted names)."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


class TipluGroup(click.Group):
    """The root group: loads its commands lazily; every error of every command becomes one
    line and a non-zero exit."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        load_all()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(f"{__name__}.{COMMANDS[cmd_name]}")
        if cmd_name not in self.commands:
            load_all()
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.Abort, click.ClickException, SystemExit, KeyboardInterrupt):
            raise
        except Exception as exc:  # noqa: BLE001 - translated to one line
            if os.environ.get("TIPLU_DEBUG"):
                raise
            fail(exc)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            rv = super().main(args, "tiplu", complete_var, standalone_mode=False, **extra)
        except click.Abort:
            _say("tiplu: aborted")
            sys.exit(1)
        except click.ClickException as exc:
            fail(exc)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=TipluGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", "root_db", metavar="PATH", default=None,
              help="The ledger for every ledger command (as their --db; env TIPLU_DB, default ./tiplu.db).")
@click.version_option(package_name="tiplu")
@click.pass_context
def main(ctx: click.Context, root_db: str | None) -> None:
    """Tiplu: provably-fair audit and replay for Marriage, Kitti and 13-card Rummy tables."""
    ctx.ensure_object(dict)["db"] = root_db
