"""The suite runs on parallel workers (tools/test: pytest-xdist, ``--dist loadfile``).
A worker imports many test folders into one process, so nothing may depend on which
folder's helper module was imported first, or on a fixed path or port."""
from __future__ import annotations

import pathlib
import re

TESTS = pathlib.Path(__file__).resolve().parent
ROOT = TESTS.parent


def test_no_test_imports_a_conftest_by_name():
    # every folder has its own conftest.py; ``import conftest`` gets whichever came first
    bad = [str(p.relative_to(ROOT)) for p in TESTS.rglob("*.py")
           if re.search(r"^\s*(from conftest import|import conftest\b)", p.read_text(encoding="utf-8"), re.M)]
    assert not bad, bad


def test_helper_modules_have_one_name_across_test_folders():
    # helper modules are imported by bare name (rootdir on sys.path): two of one name collide
    helpers: dict[str, list[str]] = {}
    for p in TESTS.rglob("*.py"):
        if not p.name.startswith(("test_", "conftest", "__init__")):
            helpers.setdefault(p.name, []).append(str(p.relative_to(ROOT)))
    assert not {k: v for k, v in helpers.items() if len(v) > 1}


def test_servers_in_tests_bind_an_ephemeral_port_on_loopback():
    fixed = re.compile(r"""(make_server|HTTPServer)\(\s*\(?["']127\.0\.0\.1["'],\s*[1-9]""")
    bad = [str(p.relative_to(ROOT)) for p in TESTS.rglob("*.py") if fixed.search(p.read_text(encoding="utf-8"))]
    assert not bad, bad


def test_tools_test_runs_on_parallel_workers():
    text = (ROOT / "tools" / "test").read_text(encoding="utf-8")
    assert '-n "${TIPLU_TEST_WORKERS:-auto}"' in text and "--dist loadfile" in text
    assert "pytest-xdist" in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
