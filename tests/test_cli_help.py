"""Every `tiplu` command documents itself: `--help` works and says what the command does."""
from __future__ import annotations

import click
from click.testing import CliRunner

from audit.cli import COMMANDS, load_all, main


def walk(group: click.Group, path=()):
    load_all()
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


def test_the_lazy_command_map_names_every_command_and_its_module():
    # tiplu imports only the invoked command's module (audit/cli/__init__.py, COMMANDS).
    load_all()
    defined = {name: cmd.callback.__module__.rsplit(".", 1)[-1] for name, cmd in main.commands.items()}
    assert COMMANDS == defined


def test_a_short_command_does_not_import_the_audit_stack():
    import subprocess
    import sys

    code = ("import sys; from audit.cli import main\n"
            "try: main(['eval', 'kitti', '-'])\n"
            "except SystemExit: pass\n"
            "print(sorted(m for m in ('audit.verify', 'audit.ledger', 'jsonschema', 'requests') if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], input="", capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1] == "[]"
