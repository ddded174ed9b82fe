"""docs/architecture.md names only files, modules and functions that exist, and its layer
rules are the ones tests/test_layers.py checks."""
from __future__ import annotations

import importlib
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
CODE = re.findall(r"`([^`\n]+)`", DOC)


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


def test_every_path_named_exists():
    paths = {c.split(":")[0] for c in CODE if re.fullmatch(r"[\w./<>-]+/[\w./<>-]*", c.split(":")[0])}
    paths = {p for p in paths if "<" not in p}
    assert len(paths) > 10
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert missing == []


def test_every_dotted_name_resolves():
    names = {c.split("(")[0] for c in CODE if re.fullmatch(r"(replay|audit|web)(\.\w+)+(\(.*\))?", c)}
    assert len(names) > 10
    assert sorted(n for n in names if not _resolves(n)) == []


def test_the_layer_rules_are_the_tested_ones():
    import test_layers

    for name, rank in test_layers.LAYERS.items():
        assert f"`{name}` {rank}" in DOC
    for module in test_layers.IMPURE:
        assert f"`{module}`" in DOC
