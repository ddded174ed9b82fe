"""Every top-level command's one-line error, pinned in words: bad input gives exactly this
line on stderr, nothing on stdout, no traceback, and exit 2 for a usage error or bad value,
1 otherwise (README "Command line", /work/shared: "CLI: one line on stderr")."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from web.cli import main

DB = "led.db"

#: (arguments, exit status, the one line on stderr); one or more per top-level command
CASES = [
    (["audit", "missing.jsonl"], 1, "tiplu: error: no such file: missing.jsonl"),
    (["audit", "hands.jsonl", "--workers", "0"], 2,
     "tiplu audit: error: Invalid value for '--workers': 0 is not in the range 1<=x<=64 (see 'tiplu audit --help')"),
    (["collusion", "missing.jsonl"], 1, "tiplu: error: no such file: missing.jsonl"),
    (["deal", "--preset", "nope"], 2,
     "tiplu deal: error: Invalid value for '--preset': 'nope' is not one of 'marriage/nepal', 'marriage/classic', "
     "'kitti', 'rummy13' (see 'tiplu deal --help')"),
    (["demo", "--dir", "f.txt", "--no-serve"], 2,
     "tiplu demo: error: Invalid value for '--dir': Directory 'f.txt' is a file (see 'tiplu demo --help')"),
    (["eval", "nogame"], 2,
     "tiplu eval: error: Invalid value for '{kitti|marriage|rummy13}': 'nogame' is not one of 'kitti', 'marriage', "
     "'rummy13' (see 'tiplu eval --help')"),
    (["hand", "show", "nope", "--db", DB], 1, "tiplu: error: no hand 'nope'"),
    (["hand", "list", "--db", "missing.db"], 1,
     "tiplu: error: no ledger at missing.db (create one with 'tiplu init --db missing.db')"),
    (["init", "--db", "."], 1, "tiplu: error: . is not a file"),
    (["keys", "show", "f.txt"], 1, "tiplu: error: f.txt is not a tiplu.key/1 JSON key file"),
    (["move-secrets", "--db", "missing.db"], 1,
     "tiplu: error: no ledger at missing.db (create one with 'tiplu init --db missing.db')"),
    (["monitor", "http://127.0.0.1:9/", "--state", "st.json", "--public-key", "zz", "--once"], 2,
     "tiplu monitor: error: Invalid value for '--public-key': a public key is 64 hex digits (32 bytes) "
     "(see 'tiplu monitor --help')"),
    (["operator", "show", "nobody", "--db", DB], 1, "tiplu: error: no operator 'nobody'"),
    (["receipt", "verify", "f.txt", "missing.json"], 2,
     "tiplu: error: cannot read the record missing.json: No such file or directory"),
    (["receipt", "verify", "f.txt", "f.txt"], 2,
     "tiplu: error: the record f.txt is not JSON: line 1 column 1: not JSON: Expecting value"),
    (["replay", "missing.json"], 1, "tiplu: error: no such file: missing.json"),
    (["seat", "commit", "http://127.0.0.1:9/", "h1", "--seat", "0", "--seed", "zz", "--token", "t",
      "--public-key", "ab" * 32, "--out", "r.json"], 2,
     "tiplu seat commit: error: Invalid value for '--seed': player seed must be lower-case hex with an even number "
     "of digits (see 'tiplu seat commit --help')"),
    (["seat", "moves", "http://127.0.0.1:9/", "h1", "--public-key", "ab", "--keep", "k.jsonl"], 2,
     "tiplu seat moves: error: Invalid value for '--public-key': a public key is 64 hex digits (32 bytes) "
     "(see 'tiplu seat moves --help')"),
    (["seed", "new", "--bytes", "0"], 2,
     "tiplu seed new: error: Invalid value for '--bytes': 0 is not in the range 16<=x<=64 (see 'tiplu seed new --help')"),
    (["serve", "--port", "notaport"], 2,
     "tiplu serve: error: Invalid value for '--port': 'notaport' is not a valid integer (see 'tiplu serve --help')"),
    (["simulate", "--preset", "nope"], 2,
     "tiplu simulate: error: Invalid value for '--preset': 'nope' is not one of 'marriage/nepal', 'marriage/classic', "
     "'kitti', 'rummy13' (see 'tiplu simulate --help')"),
    (["stats", "missing.jsonl"], 1, "tiplu: error: no such file: missing.jsonl"),
    (["table", "new", "t1", "--operator", "acme", "--preset", "kitti", "--point-value", "-1", "--db", DB], 2,
     "tiplu table new: error: Invalid value for '--point-value': point_value must not be negative (or carry a sign) "
     "(see 'tiplu table new --help')"),
    (["token", "revoke", "zz", "--db", DB], 1, "tiplu: error: no token 'zz'"),
    (["verify-commitment", "--commitment", "zz", "--server-seed", "00"], 2,
     "tiplu verify-commitment: error: Invalid value for '--commitment': commitment must be lower-case hex with an even "
     "number of digits (see 'tiplu verify-commitment --help')"),
    (["witness", "state", "--db", "missing.db"], 1, "tiplu: error: no witness state at missing.db"),
]


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A directory with a ledger (operator acme) and a text file that is nothing else."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TIPLU_DB", raising=False)
    runner = CliRunner()
    assert runner.invoke(main, ["init", "--db", DB]).exit_code == 0
    assert runner.invoke(main, ["operator", "new", "acme", "--db", DB]).exit_code == 0
    (tmp_path / "f.txt").write_text("hi\n")
    (tmp_path / "hands.jsonl").write_text("")
    return tmp_path


@pytest.mark.parametrize("args, status, line", CASES, ids=lambda c: " ".join(c) if isinstance(c, list) else None)
def test_bad_input_is_one_exact_line_on_stderr(here, args, status, line):
    res = CliRunner().invoke(main, args)
    assert (res.exit_code, res.stderr.splitlines(), res.stdout) == (status, [line], ""), res.output


def test_every_top_level_command_has_a_pinned_error():
    commands = set(main.commands)
    assert commands <= {args[0] for args, _, _ in CASES}, sorted(commands - {args[0] for args, _, _ in CASES})
