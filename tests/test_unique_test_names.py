"""Every test module has an import name of its own.  pytest (the default "prepend" import
mode) imports a test file outside a package under its bare basename, and one inside a
package (tests/tlog/, tests/witness/, tests/js/ have an ``__init__.py``) under its dotted
name from the package's top; two files with one import name stop the whole run with "import
file mismatch" once both are collected in one process -- while a run of either file alone
passes, which is how tests/test_table_money.py clashed with tests/audit/test_table_money.py
unseen until the whole suite ran."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def import_name(path: Path) -> str:
    """The name pytest imports a test file under: its stem, prefixed by each enclosing
    package (a folder with an ``__init__.py``)."""
    parts = [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts)


def clashes(paths: list[Path]) -> dict[str, list[str]]:
    """The import names shared by more than one test module, with their paths."""
    seen: dict[str, list[str]] = defaultdict(list)
    for p in paths:
        seen[import_name(p)].append(str(p.relative_to(TESTS)))
    return {name: sorted(where) for name, where in seen.items() if len(where) > 1}


def test_no_two_test_modules_share_an_import_name():
    assert clashes(sorted(TESTS.rglob("test_*.py"))) == {}


def test_a_clash_is_seen_and_a_package_keeps_its_own(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.TESTS", tmp_path)
    for rel in ("test_money.py", "audit/test_money.py", "tlog/__init__.py", "tlog/test_money.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    found = clashes(sorted(tmp_path.rglob("test_*.py")))
    assert found == {"test_money": ["audit/test_money.py", "test_money.py"]}
