"""docs/transparency-log.md tells the truth: its checkpoint example verifies, its CLI has help."""
from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from web.cli import main
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


def test_the_documented_cosignature_verifies_byte_for_byte():
    from audit.tlog.cosignature import check_quorum, cosigned_message, parse_witness_vkey, witness_vkey
    from audit.tlog.note import TYPE_ED25519, Vkey, parse_note

    section = DOC[DOC.index("### The exact bytes of a cosignature"):]
    blocks = re.findall(r"```\n(.*?)```", section, re.S)
    cosigned, message = blocks[0], blocks[1]
    witness = SigningKey.from_hex("33" * 32)
    vkey = witness_vkey("witness.example/w1", witness.public_hex)
    assert witness.public_hex in section and str(vkey) in section
    assert parse_witness_vkey(str(vkey)) == vkey
    [result] = check_quorum(cosigned, [vkey], 1)
    assert result.timestamp == 1796126400
    assert cosigned_message(parse_note(cosigned).body, 1796126400).decode() == message
    log_vkey = Vkey.for_key("tiplu.example/log", TYPE_ED25519, bytes.fromhex(SigningKey.from_hex("11" * 32).public_hex))
    assert str(log_vkey) in section
    verify_checkpoint(cosigned, SigningKey.from_hex("11" * 32).public_hex, origin="tiplu.example/log")


def test_witness_commands_have_help_naming_every_documented_option():
    for cmd, options in [(["witness", "serve"], ["--name", "--key-file", "--db", "--logs", "--log"]),
                         (["monitor"], ["--witness", "--quorum"])]:
        result = CliRunner().invoke(main, [*cmd, "--help"])
        assert result.exit_code == 0
        for option in options:
            assert option in result.output and option in DOC
