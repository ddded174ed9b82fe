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


# The two escape lists of pyproject.toml's [tool.mypy] ("not yet strict", "not yet clean") may
# hold no replay/ module: the Marriage ones that were exempt while they were reworked came off
# both in issue 31, and the lists can only shrink (a module taken off never comes back).
MARRIAGE_NOT_YET_STRICT: frozenset[str] = frozenset()
MARRIAGE_NOT_YET_CLEAN: frozenset[str] = frozenset()
STRICT_FLAGS = ("disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_calls",
                "disallow_untyped_decorators", "disallow_any_generics", "disallow_subclassing_any",
                "warn_return_any", "no_implicit_reexport")


def _mypy_overrides() -> list[dict[str, object]]:
    import tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]


def _modules(override: dict[str, object]) -> list[str]:
    module = override["module"]
    return [module] if isinstance(module, str) else list(module)


def _is_replay(name: str) -> bool:
    return name == "replay" or name.startswith("replay.")


def test_replay_is_strict_and_clean_but_for_the_listed_marriage_modules():
    overrides = _mypy_overrides()
    strict = next(o for o in overrides if "replay.*" in _modules(o))
    assert all(strict[flag] is True for flag in STRICT_FLAGS), strict
    not_strict, not_clean = set(), set()
    for o in overrides:
        replay = {m for m in _modules(o) if _is_replay(m)}
        if any(o.get(flag) is False for flag in STRICT_FLAGS):
            not_strict |= replay
        if o.get("ignore_errors") is True or o.get("follow_imports") in ("skip", "silent"):
            not_clean |= replay
    assert not_strict <= MARRIAGE_NOT_YET_STRICT, sorted(not_strict - MARRIAGE_NOT_YET_STRICT)
    assert not_clean <= MARRIAGE_NOT_YET_CLEAN, sorted(not_clean - MARRIAGE_NOT_YET_CLEAN)
    # a wildcard would let a whole package off at once
    assert not any(m.endswith("*") for m in not_strict | not_clean)


def test_replay_silences_the_checker_only_for_a_named_reason():
    # a `# type: ignore` outside the Marriage modules names its error code and says why on the
    # line (a third-party gap); today there is none
    import re
    reasoned = re.compile(r"# type: ignore\[[a-z-]+(?:, *[a-z-]+)*\] +# +\S")
    offenders = []
    for path in sorted((ROOT / "replay").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        if module in MARRIAGE_NOT_YET_CLEAN | MARRIAGE_NOT_YET_STRICT:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "type: ignore" in line and not reasoned.search(line):
                offenders.append(f"{module}:{number}")
    assert offenders == []


def test_no_replay_module_switches_the_checker_off_in_its_own_text():
    # per-file escapes beside the list: `# mypy: ignore-errors` or a bare `# type: ignore` as
    # the first statement (which mypy reads as "ignore this whole file")
    offenders = []
    for path in sorted((ROOT / "replay").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        if module in MARRIAGE_NOT_YET_CLEAN:
            continue
        lines = path.read_text().splitlines()
        if any(line.startswith("# mypy:") for line in lines) or any(
                line.strip() == "# type: ignore" for line in lines[:3]):
            offenders.append(module)
    assert offenders == []
