"""The README's main command, `tiplu demo`, on a small archive (without serving)."""
from __future__ import annotations

import json

from click.testing import CliRunner

from web.cli import main


def test_demo_builds_audits_and_names_every_forgery(tmp_path):
    res = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "tiplu.db").exists()
    tampered = json.loads((tmp_path / "tampered.json").read_text())
    for preset in ("marriage/nepal", "marriage/classic", "kitti", "rummy13"):
        assert preset in res.output
    assert tampered
    assert f"tampered {len(tampered)} hands; the audit caught {len(tampered)} of them" in res.output
    # its own success path says what a newcomer should conclude, and never "AUDIT FAILED" bare
    assert "As it should be: every failure above is a forgery the demo planted" in res.output
    assert "-- AUDIT FAILED" not in res.output
    # a second run reuses the archive
    again = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)])
    assert again.exit_code == 0 and "Building" not in again.output


def test_the_demo_site_serves_the_archive_and_a_signed_checkpoint(tmp_path):
    from web.cli import demo_app
    from audit.tlog.checkpoint import verify_checkpoint

    res = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    client = demo_app(tmp_path / "tiplu.db").test_client()
    assert client.get("/").status_code == 200
    cp = client.get("/api/v1/log/checkpoint").get_json()
    key = client.get("/api/v1/operators/demo-operator").get_json()["public_key"]
    verify_checkpoint(cp["checkpoint"], key)
    tampered = json.loads((tmp_path / "tampered.json").read_text())
    hand = sorted(tampered)[0]
    verdict = client.get(f"/api/v1/hands/{hand}/verdict").get_json()
    assert verdict["ok"] is False and verdict["reason"]


def test_the_demo_exits_1_when_a_planted_forgery_is_not_caught(tmp_path):
    res = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)])
    assert res.exit_code == 0
    tampered = json.loads((tmp_path / "tampered.json").read_text())
    tampered["no-such-hand"] = "edited_move"  # a forgery the audit cannot have caught
    (tmp_path / "tampered.json").write_text(json.dumps(tampered))
    again = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)])
    assert again.exit_code == 1 and "DEMO AUDIT WRONG: 1 planted forgeries not caught" in again.output
