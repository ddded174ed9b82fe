"""docs/transparency-log.md tells the truth: its checkpoint example verifies, its CLI has help."""
from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from audit.cli import main
from audit.signing import SigningKey
from audit.tlog.checkpoint import verify_checkpoint
from audit.tlog.merkle import MemoryTree

DOC = (Path(__file__).parents[2] / "docs" / "transparency-log.md").read_text(encoding="utf-8")


def test_the_documented_checkpoint_verifies_under_the_documented_key():
    block = re.search(r"Here is a real example.*?```\n(.*?)```", DOC, re.S).group(1)
    key = SigningKey.from_hex("11" * 32)
    assert key.public_hex in DOC
    cp = verify_checkpoint(block, key.public_hex, origin="tiplu.example/log")
    tree = MemoryTree()
    for e in ["", "00", "10", "2021", "3031", "40414243"]:  # the CT test tree of size 6
        tree.append(bytes.fromhex(e))
    assert (cp.size, cp.root) == (6, tree.root())


def test_monitor_has_help_naming_every_documented_option():
    result = CliRunner().invoke(main, ["monitor", "--help"])
    assert result.exit_code == 0
    for option in ["--state", "--public-key", "--once", "--interval", "--compare", "--audit-hook"]:
        assert option in result.output and option in DOC
