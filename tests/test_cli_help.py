"""Every `tiplu` command documents itself: `--help` works and says what the command does.

`tiplu` is composed in web/cli.py (audit's commands plus the ones that start a web app)."""
from __future__ import annotations

import click
from click.testing import CliRunner

import audit.cli
from audit.cli import COMMANDS
from web.cli import load_all, main


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
    audit.cli.load_all()
    defined = {name: cmd.callback.__module__.rsplit(".", 1)[-1] for name, cmd in audit.cli.main.commands.items()}
    assert COMMANDS == defined


def test_tiplu_is_audits_commands_plus_the_site_commands():
    # web/cli.py adds exactly the commands that start a web app; audit's group lacks them
    load_all()
    audit.cli.load_all()
    assert set(main.commands) - set(audit.cli.main.commands) == {"serve", "demo"}
    assert set(main.commands["witness"].commands) - set(audit.cli.main.commands["witness"].commands) == {"serve"}
    assert {main.commands[n].callback.__module__ for n in ("serve", "demo")} == {"web.cli"}


def test_a_short_command_does_not_import_the_audit_stack():
    import subprocess
    import sys

    for where in ("audit.cli", "web.cli"):  # the whole tiplu (web.cli) does not load Flask for it either
        code = (f"import sys; from {where} import main\n"
                "try: main(['eval', 'kitti', '-'])\n"
                "except SystemExit: pass\n"
                "print(sorted(m for m in ('audit.auditor.verdict.verify', 'audit.operator.ledger', 'jsonschema', 'requests', 'flask')"
                " if m in sys.modules))")
        res = subprocess.run([sys.executable, "-c", code], input="", capture_output=True, text=True, timeout=60)
        assert res.returncode == 0, res.stderr
        assert res.stdout.strip().splitlines()[-1] == "[]", where


def test_every_command_is_documented():
    """Issue 31: each command and subcommand appears as ``tiplu NAME ...`` in README.md or docs/."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parent.parent
    text = "\n".join(p.read_text(encoding="utf-8") for p in [root / "README.md", *sorted((root / "docs").glob("*.md"))])
    missing = [" ".join(path) for path, _ in walk(main)
               if not re.search(r"tiplu " + r"\s+".join(map(re.escape, path)) + r"(?![\w-])", text)]
    assert missing == []
