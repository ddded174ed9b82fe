"""The README's main command, `tiplu demo`, on a small archive (without serving)."""
from __future__ import annotations

import json
import re

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
    # issue 29 item 14: "balances from the N hands that pass" is followed by the balances
    lines = [line for line in again.stdout.splitlines() if line.startswith("table ")]
    assert lines and all(re.search(r"that pass: \S+ [+-]?\d+\.\d\d.*; house commission \d+\.\d\d", line)
                         for line in lines), lines
    # and `tiplu demo --json` is the report and its comparison with the planted forgeries
    as_json = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--json", "--dir", str(tmp_path)])
    assert as_json.exit_code == 0, as_json.stderr
    data = json.loads(as_json.stdout)
    assert data["as_planted"] is True and data["missed"] == [] and data["wrongly_rejected"] == []
    assert sorted(data["caught"]) == sorted(tampered) and data["report"]["total"] > 0
    table = next(iter(data["report"]["tables"].values()))
    assert any(f"{p} " in lines[0] for p in table["balances"])


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


def test_the_demo_runs_its_own_witness_and_its_records_are_witnessed(tmp_path):
    """`tiplu demo` starts a witness process (own key, database, port), sends it every record's
    checkpoint while it builds, and stops it: every record carries a cosignature that verifies."""
    from audit.keys import load_key_file
    from audit.operator.ledger import Ledger
    from audit.operator.publish import iter_published
    from audit.tlog.cosignature import check_quorum, witness_vkey
    from audit.tlog.witness_marker import read_marker
    from web.demo_witness import NAME

    res = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert f"Started the demo witness {NAME}" in res.output and "Stopped the demo witness." in res.output
    wdir = tmp_path / "witness"
    vkey = witness_vkey(NAME, load_key_file(str(wdir / "witness.key")).public_hex)
    with Ledger(str(tmp_path / "tiplu.db")) as ledger:
        records = [json.loads(text) for _, text in iter_published(ledger)]
    assert records
    stamps = set()
    for rec in records:
        text = rec["fairness"]["log_proofs"][0].split("\n\n", 1)[1]
        [result] = check_quorum(text, [vkey], 1)  # raises if the witness's line is missing or wrong
        stamps.add(result.timestamp)
    marker = read_marker(str(wdir / "witness.key") + ".state")
    assert list(marker["logs"]) == ["tiplu.demo/log/demo-operator"]
    assert marker["logs"]["tiplu.demo/log/demo-operator"]["size"] > 0
    # a second run without serving has nothing to cosign: no witness is started
    again = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)])
    assert again.exit_code == 0 and "Started the demo witness" not in again.output


def test_the_demo_pages_show_which_witnesses_cosigned_and_when(tmp_path):
    from datetime import datetime, timezone

    from audit.keys import load_key_file
    from audit.tlog.cosignature import verify_cosignatures, witness_vkey
    from web.cli import demo_app
    from web.demo_witness import NAME

    assert CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(tmp_path)]).exit_code == 0
    vkey = witness_vkey(NAME, load_key_file(str(tmp_path / "witness" / "witness.key")).public_hex)
    # the pages read the lines the records carry and the site stored: no witness is asked (it is stopped)
    client = demo_app(tmp_path / "tiplu.db", f"http://127.0.0.1:9 {vkey}").test_client()
    home = client.get("/").get_data(as_text=True)
    assert f'data-witness="{NAME}"' in home and "cosigned this checkpoint at" in home
    tampered = json.loads((tmp_path / "tampered.json").read_text())
    honest = next(h["hand_id"] for h in client.get("/api/v1/hands?limit=200").get_json()["hands"]
                  if h["hand_id"] not in tampered and h["state"] == "revealed")
    record = client.get(f"/api/v1/hands/{honest}/record").get_json()
    [r] = verify_cosignatures(record["fairness"]["log_proofs"][0].split("\n\n", 1)[1], [vkey])
    when = datetime.fromtimestamp(r.timestamp, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    page = client.get(f"/hands/{honest}").get_data(as_text=True)
    assert f'data-witness="{NAME}" data-cosigned-at="{r.timestamp}"' in page
    assert f"cosigned the record’s log checkpoint at <time datetime=\"{when}\">{when}</time>" in page
    assert "The operator chose them" in page
    # a witness the server names that did not cosign is said to be missing, never ticked
    other = witness_vkey("witness.example/absent", load_key_file(str(tmp_path / "witness" / "witness.key")).public_hex)
    page = demo_app(tmp_path / "tiplu.db", f"http://127.0.0.1:9 {other}").test_client().get(f"/hands/{honest}")
    text = page.get_data(as_text=True)
    assert "No cosignature on the record’s log checkpoint from witness.example/absent" in text
    assert 'data-witness="' not in text


def test_a_witness_setting_that_names_no_witness_builds_the_demo_without_one(tmp_path):
    """``build_demo(witnesses=";")`` (a ``TIPLU_WITNESSES`` setting of no entry) builds the
    archive unwitnessed; it crashed with an AttributeError on ``None.cosigner`` (found by
    mypy: ``Witnessing.from_setting`` gives ``None`` for a setting that names no witness)."""
    from audit.cli.demo import build_demo
    from audit.operator.ledger import Ledger

    db = tmp_path / "tiplu.db"
    build_demo(db, plan=[("rummy13", 4, 1)], tamper_rate=0, progress=False, witnesses=" ; ")
    with Ledger(str(db)) as ledger:
        assert [h.id for h in ledger.list_hands()] and ledger.cosign_checkpoint is None
