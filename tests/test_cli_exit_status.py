"""The README's rule for every command: a bad value is a usage error, exit status 2, in
one line naming the option (issue 29 item 9: `tiplu table new --preset kiti` and
`tiplu verify-commitment --server-seed nothex` exited 1)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from web.cli import main

HEX64 = "0" * 64
SEED = "ab" * 16

BAD_VALUES = [
    (["table", "new", "t1", "--operator", "acme", "--preset", "kiti"], "--preset"),
    (["table", "new", "t1", "--operator", "acme", "--preset", "kitti", "--point-value", "x"], "--point-value"),
    (["table", "new", "t1", "--operator", "acme", "--preset", "kitti", "--commission-pct", "5%"], "--commission-pct"),
    (["verify-commitment", "--server-seed", "nothex", "--commitment", HEX64], "--server-seed"),
    (["verify-commitment", "--server-seed", HEX64, "--commitment", "nothex"], "--commitment"),
    (["verify-commitment", "--player-seed", "zz", "--hand-id", "h", "--seat", "0", "--commitment", HEX64],
     "--player-seed"),
    (["deal", "--preset", "kitti", "--hand-id", "h", "--server-seed", "zz", "--player-seed", SEED], "--server-seed"),
    (["deal", "--preset", "kitti", "--hand-id", "h", "--server-seed", HEX64, "--player-seed", "0"], "--player-seed"),
    (["seed", "commit", "--hand-id", "h", "--seat", "0", "--seed", "zz"], "--seed"),
    (["seed", "commit", "--hand-id", "h", "--seat", "-1", "--seed", SEED], "--seat"),
    (["hand", "seed-commit", "h", "--seat", "0", "--commitment", "nothex"], "--commitment"),
    (["hand", "seed-reveal", "h", "--seat", "0", "--seed", "nothex"], "--seed"),
    (["hand", "verify", "h", "--public-key", "nothex"], "--public-key"),
    (["audit", "x.jsonl", "--public-key", "nothex"], "--public-key"),
]


@pytest.mark.parametrize("args,option", BAD_VALUES, ids=[" ".join(a[:2]) + " " + o for a, o in BAD_VALUES])
def test_a_bad_value_exits_2_in_one_line(tmp_path, monkeypatch, args, option):
    monkeypatch.chdir(tmp_path)  # no ledger is opened or created: the value is refused first
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, (res.exit_code, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and "Traceback" not in res.stderr, res.stderr
    assert "zz" not in lines[0] and "nothex" not in lines[0]  # a seed's text is never echoed
    assert list(tmp_path.iterdir()) == []
