"""Opening a ledger never creates or changes a file the user did not ask to create.

Every command that takes ``--db`` is run (its required arguments filled with dummies)
against a missing file, an empty file, a file that is not SQLite and another program's
SQLite database: each answer is one line on stderr and a non-zero exit, and the file is
byte for byte what it was (a missing one still missing).  Only ``tiplu init`` and
``tiplu operator new`` create a ledger, and only where there was none.
"""
from __future__ import annotations

import sqlite3

import click
import pytest
from click.testing import CliRunner

from web.cli import load_all, main
from audit.errors import NotALedgerError
from audit.operator.ledger import Ledger

#: the commands that make their file when --db names none (docs/ledger.md, "Files"); the
#: witness's --db is its own state file (not a ledger), refused alike when it is not one
CREATORS = {("init",), ("operator", "new"), ("witness", "serve")}


def _commands(group: click.Group, path: tuple[str, ...] = ()):
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, path + (name,))
        elif any(p.name == "db" for p in cmd.params):
            yield path + (name,), cmd


def _args(path: tuple[str, ...], cmd: click.Command, tmp_path) -> list[str]:
    """The command with each required argument and option filled with a dummy value."""
    args = list(path)
    dummy = tmp_path.parent / f"{tmp_path.name}-input.json"
    dummy.write_text("{}")
    for p in cmd.params:
        if not p.required:
            continue
        value = ("0" if isinstance(p.type, (click.types.IntParamType, click.IntRange)) else
                 str(dummy) if isinstance(p.type, (click.File, click.Path)) else "x")
        args += [value] if isinstance(p, click.Argument) else [p.opts[0], value]
    return args


load_all()  # the commands load lazily: all of them, to find every --db
DB_COMMANDS = [c for c in _commands(main) if c[0] != ("simulate",)]  # simulate --db is its output


def test_every_ledger_command_is_covered():
    names = {" ".join(p) for p, _ in DB_COMMANDS}
    assert {"hand show", "hand commit", "table new", "operator show", "token new", "init", "move-secrets",
            "serve"} <= names


def _foreign(path):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO notes (text) VALUES ('mine')")
    conn.commit()
    conn.close()


KINDS = {
    "missing": None,
    "empty": lambda p: p.write_bytes(b""),
    "junk": lambda p: p.write_bytes(b"this is not a database\n" * 40),
    "foreign": _foreign,
}


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("path,cmd", DB_COMMANDS, ids=[" ".join(p) for p, _ in DB_COMMANDS])
def test_a_path_that_is_not_a_ledger_is_one_line_and_left_alone(tmp_path, kind, path, cmd):
    db = tmp_path / "other.db"
    if KINDS[kind] is not None:
        KINDS[kind](db)
    before = db.read_bytes() if db.exists() else None
    result = CliRunner().invoke(main, [*_args(path, cmd, tmp_path), "--db", str(db)], env={"TIPLU_DB": None})
    if path in CREATORS and kind in ("missing", "empty"):
        assert result.exit_code in (0, 1), result.output  # init/operator new create here (dummy args may fail later)
        return
    assert result.exit_code in (1, 2), (result.output, result.stderr)  # 2: a usage check came first
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tiplu") and " error: " in lines[0], result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert (db.read_bytes() if db.exists() else None) == before, "the file was changed"
    assert not (tmp_path / "other.secrets.db").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if before is None else ["other.db"])


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_audit_of_a_path_that_is_not_a_ledger_is_one_line(tmp_path, kind):
    db = tmp_path / "other.db"
    if KINDS[kind] is not None:
        KINDS[kind](db)
    before = db.read_bytes() if db.exists() else None
    result = CliRunner().invoke(main, ["audit", str(db)])
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("tiplu: error: "), result.stderr
    assert "records audited" not in result.output
    assert (db.read_bytes() if db.exists() else None) == before


def test_the_python_api_refuses_the_same_files(tmp_path):
    for kind, make in KINDS.items():
        db = tmp_path / f"{kind}.db"
        if make is not None:
            make(db)
        before = db.read_bytes() if db.exists() else None
        with pytest.raises(NotALedgerError, match=r"( is empty, not a ledger \(create one with 'tiplu init --db | is an SQLite database but not a Tiplu ledger: refusing to change it$| is not a Tiplu ledger \(file is not a database\)$|^no ledger at )"):
            Ledger(db)
        if kind == "foreign":
            with pytest.raises(NotALedgerError, match=r"foreign\.db is an SQLite database but not a Tiplu ledger: refusing to change it$"):
                Ledger(db, create=True)  # never migrates another program's database
        assert (db.read_bytes() if db.exists() else None) == before
    # a connection handed in is checked the same way
    _foreign(tmp_path / "conn.db")
    with pytest.raises(NotALedgerError, match=r"conn\.db is an SQLite database but not a Tiplu ledger: refusing to change it$"):
        Ledger(sqlite3.connect(tmp_path / "conn.db"))


def test_init_creates_and_then_every_command_opens(tmp_path):
    db = str(tmp_path / "new.db")
    runner = CliRunner()
    made = runner.invoke(main, ["init", "--db", db, "--json"])
    assert made.exit_code == 0, made.output
    again = runner.invoke(main, ["init", "--db", db])
    assert again.exit_code == 0 and "already exists" in again.output
    listed = runner.invoke(main, ["--db", db, "hand", "list", "--json"])  # the group's --db
    assert listed.exit_code == 0 and listed.output == ""


def test_the_group_db_option_and_the_commands_own(tmp_path):
    runner = CliRunner()
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    assert runner.invoke(main, ["--db", a, "operator", "new", "acme"]).exit_code == 0
    assert runner.invoke(main, ["operator", "new", "bhim", "--db", b]).exit_code == 0
    assert runner.invoke(main, ["--db", a, "operator", "show", "acme"], env={"TIPLU_DB": b}).exit_code == 0
    # the command's own --db wins over the group's
    res = runner.invoke(main, ["--db", a, "operator", "show", "bhim", "--db", b])
    assert res.exit_code == 0, res.stderr


@pytest.mark.parametrize("args", [["hand", "show"], ["hand", "show", "x", "--bogus"], ["nosuch"],
                                  ["table", "new", "t1", "--seats", "many"], ["audit", "--workers", "0"]])
def test_usage_errors_are_one_line_with_exit_2(args):
    result = CliRunner().invoke(main, args, env={"TIPLU_DB": None})
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and " error: " in lines[0] and "--help" in lines[0], result.stderr


#: the commands without --json, as the README lists them ("What holds for every command")
NO_JSON = {"eval", "hand log", "hand record", "hand bot-moves", "monitor", "seat commit", "seat reveal", "serve", "witness log-vkey",
           "witness serve", "witness vkey"}


def _all_commands(group: click.Group, path: tuple[str, ...] = ()):
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from _all_commands(cmd, path + (name,))
        else:
            yield " ".join(path + (name,)), cmd


def test_json_is_on_every_command_the_readme_says():
    import pathlib

    without = {name for name, cmd in _all_commands(main) if not any(p.name in ("as_json", "json") for p in cmd.params)}
    assert without == NO_JSON
    readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for name in NO_JSON:
        assert f"`{name.split()[-1]}" in readme or f"`{name}`" in readme, name
