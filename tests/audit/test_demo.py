"""The README's main command, `tiplu demo`, on a small archive (without serving)."""
from __future__ import annotations

import json

from click.testing import CliRunner

from audit.cli import main


def test_demo_builds_audits_and_names_every_forgery(tmp_path):
    res = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "tiplu.db").exists()
    tampered = json.loads((tmp_path / "tampered.json").read_text())
    for preset in ("marriage/nepal", "marriage/classic", "kitti", "rummy13"):
        assert preset in res.output
    assert tampered
    assert f"tampered {len(tampered)} hands; the audit caught {len(tampered)} of them" in res.output
    # a second run reuses the archive
    again = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)])
    assert again.exit_code == 0 and "Building" not in again.output
