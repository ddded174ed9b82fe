"""The ``tiplu`` command line: a thin click shell over :mod:`audit` and :mod:`replay`.

Each module in this package adds its commands to :data:`main`.  They are loaded lazily
(click's "lazily loading subcommands" pattern): ``tiplu eval`` imports only the module
that defines ``eval`` (:data:`COMMANDS` says which), not the whole audit stack, so a short
command starts in a fraction of the time.  A command missing from :data:`COMMANDS` is
still found -- every module is then imported to look for it -- so adding a command group
never breaks the shell; ``tests/test_cli_help.py`` checks that the map is complete.
Every :class:`TipluError` becomes one line on stderr and exit status 1; a usage error
exits 2 (click's rule).
"""
from __future__ import annotations

import importlib
import pkgutil
import sys

import click

from replay.errors import TipluError


# command name -> the module of this package that defines it (imported on first use).
COMMANDS: dict[str, str] = {
    "audit": "audit", "replay": "audit", "deal": "deal", "verify-commitment": "deal", "demo": "demo",
    "eval": "evaluate", "table": "hand", "hand": "hand", "keys": "keys", "operator": "keys", "seed": "keys",
    "monitor": "monitor", "receipt": "receipt", "seat": "seat", "serve": "serve", "simulate": "simulate",
    "stats": "stats", "token": "token",
    "witness": "witness",
}


def load_all() -> None:
    """Import every command module of this package (for ``--help`` and unlisted names)."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


class TipluGroup(click.Group):
    """A click group that loads its commands lazily and turns Tiplu's typed errors into
    one line and a non-zero exit."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        load_all()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(f"{__name__}.{COMMANDS[cmd_name]}")
        if cmd_name not in self.commands:
            load_all()
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except TipluError as exc:
            click.echo(f"tiplu: error: {exc}", err=True)
            sys.exit(1)
        except OSError as exc:
            click.echo(f"tiplu: error: {exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": "), err=True)
            sys.exit(1)


@click.group(cls=TipluGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tiplu")
def main() -> None:
    """Tiplu: provably-fair audit and replay for Marriage, Kitti and 13-card Rummy tables."""
