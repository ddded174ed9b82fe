"""Every `tiplu` command documents itself: `--help` works and says what the command does."""
from __future__ import annotations

import click
from click.testing import CliRunner

from audit.cli import main


def walk(group: click.Group, path=()):
    for name, cmd in sorted(group.commands.items()):
        yield path + (name,), cmd
        if isinstance(cmd, click.Group):
            yield from walk(cmd, path + (name,))


def test_every_command_has_help():
    commands = list(walk(main))
    assert len(commands) > 20
    for path, cmd in commands:
        assert (cmd.help or "").strip(), f"tiplu {' '.join(path)} has no help text"
        res = CliRunner().invoke(main, [*path, "--help"])
        assert res.exit_code == 0, (path, res.output)
        assert "Usage:" in res.output


def test_readme_names_only_commands_that_exist():
    import pathlib
    import re

    readme = (pathlib.Path(__file__).resolve().parents[1] / "README.md").read_text()
    names = {p[0] for p, _ in walk(main)}
    used = set(re.findall(r"^\s*tiplu ([a-z-]+)", readme, re.M))
    assert used and used <= names, used - names
