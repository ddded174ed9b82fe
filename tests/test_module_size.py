"""No module of the pure library, of audit/ or of web/ (its Python and the browser's ES modules)
is over 400 lines: a module holds one thing, named for it (docs/architecture.md, "audit/'s
rooms"; the house style's "modules small").  Files a tool generates are not modules anyone
writes (the verifier's presets.mjs and gamedata.mjs, tools/build_offline_verifier.py)."""
from __future__ import annotations

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
LIMIT = 400


def long_modules(paths, limit: int = LIMIT) -> list[str]:
    """``path: lines`` of each file of ``paths`` longer than ``limit`` lines."""
    out = []
    for path in paths:
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > limit:
            out.append(f"{path.relative_to(ROOT)}: {n}")
    return sorted(out)


def test_no_module_of_replay_or_audit_is_over_400_lines():
    paths = [p for top in ("replay", "audit") for p in (ROOT / top).rglob("*.py")]
    assert len(paths) > 100
    assert long_modules(paths) == []


#: written by tools/build_offline_verifier.py, from data
GENERATED = ("web/static/verifier/presets.mjs", "web/static/verifier/gamedata.mjs")


def test_no_module_of_the_site_is_over_400_lines():
    paths = [*(ROOT / "web").rglob("*.py"), *(ROOT / "web" / "static").rglob("*.mjs")]
    paths = [p for p in paths if p.relative_to(ROOT).as_posix() not in GENERATED]
    assert len(paths) > 60
    assert long_modules(paths) == []


def test_the_measure_sees_a_long_module():
    long, short = ROOT / "tests" / "test_layers.py", ROOT / "tests" / "test_module_size.py"
    assert long_modules([long], limit=10) == [f"tests/test_layers.py: {len(long.read_text().splitlines())}"]
    assert long_modules([short]) == []
