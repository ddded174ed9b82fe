"""The linter and the type checker gate the test command: ``tools/test`` runs ``tools/lint``
(``ruff check .`` then ``mypy``, configured in pyproject.toml) before pytest, and a finding
fails the run with one line naming the tool.  Checked by running ``tools/lint`` on a small
probe project that carries this checkout's own pyproject.toml, once with a planted lint
finding, once with a planted type error, and once clean."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="tools/lint is a bash script")


def _probe(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for package in ("replay", "audit", "web"):
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / "__init__.py").write_text('"""A probe package."""\n')
    (tmp_path / "replay" / "probe.py").write_text(body)
    return subprocess.run(["bash", str(ROOT / "tools" / "lint"), str(tmp_path)], capture_output=True, text=True,
                          timeout=600)


def _last(res: subprocess.CompletedProcess[str]) -> str:
    return res.stderr.strip().splitlines()[-1]


def test_a_lint_finding_fails_the_gate_in_one_line(tmp_path):
    res = _probe(tmp_path, "import os\n")  # F401: an unused import
    assert res.returncode == 1
    assert "F401" in res.stdout
    assert _last(res) == "tools/lint: FAILED: ruff found the problems above (run `ruff check .` to see them again)"


def test_a_type_error_fails_the_gate_in_one_line(tmp_path):
    res = _probe(tmp_path, 'def half(n: int) -> int:\n    return n // 2\n\n\nHALF = half("4")\n')
    assert res.returncode == 1
    assert "tools/lint: ruff: clean" in res.stderr
    assert 'replay/probe.py:5: error: Argument 1 to "half" has incompatible type "str"' in res.stdout
    assert _last(res) == "tools/lint: FAILED: mypy found the type errors above (run `mypy` to see them again)"


def test_strict_on_replay_refuses_an_unannotated_function(tmp_path):
    res = _probe(tmp_path, "def half(n):\n    return n // 2\n")
    assert res.returncode == 1
    assert "replay/probe.py:1: error: Function is missing a type annotation" in res.stdout


def test_a_clean_project_passes_and_says_so(tmp_path):
    res = _probe(tmp_path, 'def half(n: int) -> int:\n    """Half of n, rounded down."""\n    return n // 2\n')
    assert res.returncode == 0, res.stdout + res.stderr
    assert "tools/lint: ruff: clean" in res.stderr.splitlines()
    assert _last(res) == "tools/lint: mypy: clean"


def test_the_test_command_runs_the_gate_before_pytest():
    script = (ROOT / "tools" / "test").read_text()
    assert "\ntools/lint\n" in script and "set -euo pipefail" in script  # a failing gate ends the run
    assert script.index("\ntools/lint\n") < script.index("python3 -m pytest")
    assert (ROOT / ".ci" / "run").read_text().rstrip().endswith("exec ./tools/test")
