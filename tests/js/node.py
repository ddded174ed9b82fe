"""Run the browser verifier's ES modules under Node (Debian's ``nodejs``) from a test.

The browser verifier (``web/static/verifier/``) is plain ES modules on WebCrypto; Node 18+
has both, so the game replays can be checked against the Python engines hand by hand
without a browser.  :func:`node_or_skip` is the one way a test finds Node: missing, it is a
skip that names the part (a failure under ``CI=true``, tests/conftest.py).
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Iterable

import pytest

ROOT = Path(__file__).resolve().parents[2]
VERIFIER = ROOT / "web" / "static" / "verifier"


def node_or_skip() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("needs node (Debian's nodejs) to run the browser verifier's modules")
    return node


def run_lines(script: Path | str, requests: Iterable[Any], *, timeout: float = 600) -> list[Any]:
    """Run ``node SCRIPT`` with one JSON request per line on stdin; its JSON answers, one a
    line.  A non-zero exit or a line that is not JSON fails the test with Node's stderr."""
    node = node_or_skip()
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests)
    done = subprocess.run([node, str(script)], input=text, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)
    if done.returncode != 0:
        pytest.fail(f"node {script} exited {done.returncode}: {done.stderr[-4000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
