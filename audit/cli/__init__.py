"""The ``tiplu`` command line: a thin click shell over :mod:`audit` and :mod:`replay`.

Each module in this package adds its commands to :data:`main`; they are discovered at
import, so adding a command group never touches this file.  Every :class:`TipluError`
becomes one line on stderr and exit status 1; a usage error exits 2 (click's rule).
"""
from __future__ import annotations

import importlib
import pkgutil
import sys

import click

from replay.errors import TipluError


class TipluGroup(click.Group):
    """A click group that turns Tiplu's typed errors into one line and a non-zero exit."""

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


for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if not _info.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_info.name}")
