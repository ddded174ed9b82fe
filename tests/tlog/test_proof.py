"""C2SP tlog-proof: the spec's own example parses and round-trips; our proofs check with the key alone."""
from __future__ import annotations

import base64
from datetime import datetime, timezone

import pytest

from audit.errors import ProofError, SignatureError
from audit.signing import SigningKey
from audit.tlog.checkpoint import sign_checkpoint
from audit.tlog.merkle import MemoryTree, leaf_hash
from audit.tlog.proof import HEADER, TlogProof, format_tlog_proof, parse_tlog_proof, verify_tlog_proof
from replay.errors import MalformedError

# The example of c2sp.org/tlog-proof@v1 (tlog-proof.md in C2SP/C2SP), verbatim: its
# signature lines are elided with "[...]" there, so only the proof layer is checked here.
SPEC_EXAMPLE = """c2sp.org/tlog-proof@v1
extra YWdlLXYxLjIuMS1kYXJ3aW4tYXJtNjQudGFyLmd6kYXJ3aW4tYXJ
index 73894
gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=
B95lDa8R83lS8n0eG+o0buTxRKQTYFi//1U8anccXmA=
EKNzoDWG8LGC0Yp9o+sv3qllpMP9uHQ9B20KNL+Q1zs=
RoopEkOdqkYqMB4MJXrbt/hMjOxsVn0IrWjpz1ZMMes=
AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5vk=

example.com/fancylog
109482
sFodV/vSp5O8n9a8QpW6PRY97tfOSW5bsc2Xl/EQi08=

— example.com/fancylog hI2DJw[...]1roloI=
— witness1.example mJirIklj[...]qY9v2B/5bg==
— witness2.example TnKKVHLX[...]xwYwrSjgow==
— witness3.example S4X82uH5[...]3oEcROGLFQ==
"""

KEY = SigningKey.from_hex("11" * 32)
NOW = datetime(2026, 11, 30, 14, 35, tzinfo=timezone.utc)
ORIGIN = "tiplu.example/log"
ENTRIES = [f"entry {i}".encode() for i in range(7)]


def test_the_spec_example_parses_and_formats_back_byte_for_byte():
    proof = parse_tlog_proof(SPEC_EXAMPLE)
    assert proof.index == 73894
    assert len(proof.path) == 5
    assert proof.path[0] == base64.b64decode("gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=")
    assert proof.path[-1] == base64.b64decode("AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5vk=")
    assert proof.extra == base64.b64decode("YWdlLXYxLjIuMS1kYXJ3aW4tYXJtNjQudGFyLmd6kYXJ3aW4tYXJ")
    assert proof.checkpoint_text.startswith("example.com/fancylog\n109482\n")
    assert proof.checkpoint_text.endswith("3oEcROGLFQ==\n")
    assert str(proof) == SPEC_EXAMPLE
    assert format_tlog_proof(proof.index, proof.path, proof.checkpoint_text, extra=proof.extra) == SPEC_EXAMPLE


def _tree_and_checkpoint():
    tree = MemoryTree()
    for e in ENTRIES:
        tree.append(e)
    cp = sign_checkpoint(KEY, origin=ORIGIN, size=tree.size, root=tree.root())
    return tree, cp


def test_a_known_answer_proof_of_ours():
    tree, cp = _tree_and_checkpoint()
    text = format_tlog_proof(5, tree.inclusion_proof(5), cp.text)
    lines = text.split("\n")
    assert lines[0] == HEADER and lines[1] == "index 5"
    # leaf 5 of 7: sibling leaf 4, then leaf 6 (the right part), then the left subtree of 4
    assert [base64.b64decode(x) for x in lines[2:5]] == [leaf_hash(ENTRIES[4]), leaf_hash(ENTRIES[6]),
                                                         tree.root(4)]
    assert lines[5] == "" and "\n".join(lines[6:]) == cp.text
    assert parse_tlog_proof(text) == TlogProof(5, tuple(tree.inclusion_proof(5)), cp.text)
    assert verify_tlog_proof(text, ENTRIES[5], KEY.public_hex, origin=ORIGIN).size == 7


def test_every_leaf_verifies_and_no_other_entry_does():
    tree, cp = _tree_and_checkpoint()
    for i, e in enumerate(ENTRIES):
        text = format_tlog_proof(i, tree.inclusion_proof(i), cp.text)
        verify_tlog_proof(text, e, KEY.public_hex)
        with pytest.raises(ProofError, match=r"^inclusion proof of leaf \d does not lead to the root of size 7$"):
            verify_tlog_proof(text, ENTRIES[(i + 1) % 7], KEY.public_hex)
    text = format_tlog_proof(0, tree.inclusion_proof(0), cp.text)
    with pytest.raises(SignatureError, match=r"^checkpoint has no signature by key 'tiplu\.example/log' \([0-9a-f]{8}\)$"):
        verify_tlog_proof(text, ENTRIES[0], SigningKey.from_hex("22" * 32).public_hex)
    with pytest.raises(SignatureError, match=r"^checkpoint is for log 'tiplu\.example/log', not 'another/log'$"):
        verify_tlog_proof(text, ENTRIES[0], KEY.public_hex, origin="another/log")


def test_a_proof_of_a_one_leaf_tree_has_no_path_lines():
    tree = MemoryTree()
    tree.append(b"only")
    cp = sign_checkpoint(KEY, origin=ORIGIN, size=1, root=tree.root())
    text = format_tlog_proof(0, [], cp.text)
    assert text.startswith(f"{HEADER}\nindex 0\n\n{ORIGIN}\n1\n")
    verify_tlog_proof(text, b"only", KEY.public_hex)


@pytest.mark.parametrize("bad", [
    "",
    "c2sp.org/tlog-proof@v2\nindex 0\n\nx\n",
    "c2sp.org/tlog-proof@v1\nindex 01\n\nx\n",
    "c2sp.org/tlog-proof@v1\nindex -1\n\nx\n",
    "c2sp.org/tlog-proof@v1\nindex 3\n",
    "c2sp.org/tlog-proof@v1\n\nx\n",
    "c2sp.org/tlog-proof@v1\nindex 3\nnot base64!\n\nx\n",
    "c2sp.org/tlog-proof@v1\nindex 3\nAAAA\n\nx\n",  # 3 bytes, not 32
    "c2sp.org/tlog-proof@v1\r\nindex 3\r\n\r\nx\r\n",
    "c2sp.org/tlog-proof@v1\nindex 3\n\nno newline at the end",
    None,
])
def test_malformed_proofs_are_refused(bad):
    with pytest.raises(MalformedError, match=r"^(a tlog proof |inclusion hash on line \d+ is not standard base64|line \d+: |the checkpoint ends with a newline)"):
        parse_tlog_proof(bad)
