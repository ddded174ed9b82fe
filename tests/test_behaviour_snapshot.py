"""No behaviour changes behind a refactor: `tiplu` prints, for every fixture record, a seeded
simulated archive of every preset and seeded `tiplu eval` requests, exactly what
fixtures/behaviour/ holds (tools/behaviour_snapshot.py writes it; rewrite it only for a change
of behaviour that is meant, and say so in the commit)."""
from __future__ import annotations

import difflib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import behaviour_snapshot  # noqa: E402
import pytest  # noqa: E402

from replay.rulesets import PRESETS  # noqa: E402


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return behaviour_snapshot.build()


def test_tiplu_prints_what_the_snapshot_holds(files):
    stored = {p.relative_to(behaviour_snapshot.OUT).as_posix() for p in behaviour_snapshot.OUT.rglob("*.txt")}
    assert stored == set(files), sorted(stored ^ set(files))[:8]
    for name, text in sorted(files.items()):
        old = (behaviour_snapshot.OUT / name).read_text()
        if old != text:
            diff = "".join(list(difflib.unified_diff(old.splitlines(True), text.splitlines(True), name, "now"))[:40])
            raise AssertionError(f"{name} changed:\n{diff}")


def test_the_snapshot_covers_every_fixture_and_preset(files):
    manifest = (ROOT / "fixtures" / "records" / "manifest.json").read_text()
    assert sum(n.endswith(".audit.txt") and n.startswith("records/") for n in files) == manifest.count('"file"')
    assert {n.split("/")[1].split(".")[0] for n in files if n.startswith("archives/")} == {
        p.replace("/", "-") for p in PRESETS}
