"""tools/witness_walkthrough.sh -- the README's witness section -- runs clean on a fresh
directory, and runs exactly the README's block (read from README.md; nothing of it copied):
a witness key, the logs file, one key file for operator and log, the site sending its
checkpoint to the witness, and an auditor requiring the cosignature (issue #26, Build 7)."""
from __future__ import annotations

import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from bench.servekit import free_port

ROOT = pathlib.Path(__file__).resolve().parents[2]


def readme_block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- witness:start -->\n(.*?)<!-- witness:end -->", text, re.S)
    assert m, "README.md has no witness block"
    return "\n".join(line[4:] if line.startswith("    ") else line for line in m.group(1).split("\n"))


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_script_runs_the_readme_block_verbatim():
    shown = subprocess.run(["bash", str(ROOT / "tools" / "witness_walkthrough.sh"), "--print"], capture_output=True,
                           text=True, check=True).stdout
    assert shown.strip() == readme_block().strip()


def test_the_block_makes_what_it_uses_and_uses_one_key_file_for_operator_and_log():
    block = readme_block()
    used = set(re.findall(r"\$\{?([A-Z][A-Z0-9_]*)", block)) - {"PWD"}
    assigned = set(re.findall(r"(?:^|[\s;(])(?:export )?([A-Z][A-Z0-9_]*)=", block, re.M))
    assert used <= assigned, f"used but never set: {sorted(used - assigned)}"
    assert "tiplu keys new --out witness.key" in block and "> logs.txt" in block
    # the operator's key file is the site's log key file: one file
    assert "operator new acme --key-file acme.key" in block and "TIPLU_LOG_KEY_FILE=acme.key" in block


@pytest.mark.slow  # three servers and a dozen tiplu processes
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_witness_walkthrough_passes(tmp_path):
    env = {"PATH": f"{pathlib.Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(tmp_path),
           "TIPLU": f"{sys.executable} -m web.cli", "WPORT": str(free_port()), "SPORT": str(free_port()),
           "TMPDIR": str(tmp_path)}
    done = subprocess.run(["bash", str(ROOT / "tools" / "witness_walkthrough.sh")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "witness walkthrough: all steps passed" in done.stdout
    assert "OK: checkpoint of tiplu.local/log/acme" in done.stdout
    assert "cosigned by witness.example/w1" in done.stdout
