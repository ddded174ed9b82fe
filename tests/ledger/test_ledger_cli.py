"""The ledger CLI end to end (click's CliRunner): one hand, --json, one-line errors."""
from __future__ import annotations

import json
import os
import stat

import pytest
from click.testing import CliRunner

from audit.cli import main
from audit.cli.hand import HAND_STATES
from audit.operator.ledger import HandState, Ledger
from audit.operator.receipts import verify_receipt
from audit.signing import verify_statement
from replay.fairness import commit_player_seed, commit_server_seed

SEEDS = ["11" * 16, "22" * 16, "33" * 20, "44" * 64]


@pytest.fixture
def run(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "cli.db")

    def run(*args, ok=True, input=None):
        result = runner.invoke(main, [*args], env={"TIPLU_DB": db, "TIPLU_KEY_FILE": None}, input=input)
        if ok:
            assert result.exit_code == 0, result.output + result.stderr
        return result

    run.db = db
    return run


def js(result):
    return json.loads(result.stdout)


def one_line_error(result, *words, status=1):
    """One line on stderr; status 2 for a usage error (a bad value, a missing or contradictory option)."""
    assert result.exit_code == status, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tiplu: error: " if status == 1 else "tiplu "), result.stderr
    for w in words:
        assert w in lines[0]


def test_one_hand_end_to_end_with_json(run, tmp_path):  # rules
    pub = js(run("operator", "new", "acme", "--json"))["public_key"]
    table = js(run("table", "new", "t1", "--operator", "acme", "--preset", "rummy13", "--seats", "4",
                   "--point-value", "0.25", "--commission-pct", "5", "--json"))
    assert (table["point_value"], table["commission_pct"], table["seats"]) == ("0.25", "5", 4)
    created = js(run("hand", "new", "--table", "t1", "--hand-id", "h1", "--dealer", "2",
                     "--player", "asha", "--player", "bikash", "--player", "chandra", "--player", "dipa", "--json"))
    assert verify_statement(created, pub)["seats"][2] == {"seat": 2, "player": "chandra"}
    committed = js(run("hand", "commit", "h1", "--json"))
    commitment = verify_statement(committed, pub)["server_seed_commitment"]
    # seat 0 brings its commitment, the others their seed (committed locally)
    local = run("seed", "commit", "--hand-id", "h1", "--seat", "0", "--seed", SEEDS[0]).stdout.strip()
    assert local == commit_player_seed("h1", 0, bytes.fromhex(SEEDS[0]))
    receipts = [run("hand", "seed-commit", "h1", "--seat", "0", "--commitment", local, "--json").stdout]
    assert verify_receipt(json.loads(receipts[0]), pub).of_kind("seat-receipt")
    for seat in (1, 2, 3):
        receipts.append(run("hand", "seed-commit", "h1", "--seat", str(seat), "--seed", SEEDS[seat], "--json").stdout)
        r = json.loads(receipts[-1])["statements"][-1]
        assert r["statement"]["commitment"] == commit_player_seed("h1", seat, bytes.fromhex(SEEDS[seat]))
    assert js(run("hand", "show", "h1", "--json"))["state"] == "seeds-committed"
    files = []
    for seat, text in enumerate(receipts):
        files.append(tmp_path / f"receipt-{seat}.json")
        files[-1].write_text(text)
    # the client checks the receipt before the seed goes out: another seat's receipt, another
    # key or another server commitment than the one shown is refused, and nothing is written
    for bad, status in ((["--receipt", str(files[1]), "--public-key", pub], 1),
                        (["--receipt", str(files[0]), "--public-key", "ab" * 32], 1),
                        (["--receipt", str(files[0]), "--public-key", pub, "--server-commitment", "cd" * 32], 1),
                        (["--receipt", str(files[0])], 2)):  # a usage error: --receipt needs --public-key
        one_line_error(run("hand", "seed-reveal", "h1", "--seat", "0", "--seed", SEEDS[0], *bad, ok=False),
                       status=status)
    assert js(run("hand", "show", "h1", "--json"))["state"] == "seeds-committed"
    for seat in (0, 1, 2, 3):
        run("hand", "seed-reveal", "h1", "--seat", str(seat), "--seed", SEEDS[seat], "--receipt", str(files[seat]),
            "--public-key", pub, "--server-commitment", commitment)
    deal = js(run("hand", "deal", "h1", "--json"))
    assert deal["statement"]["player_seeds"] == SEEDS
    cards = js(run("hand", "cards", "h1", "--json"))
    assert [len(h) for h in cards["hands"]] == [13, 13, 13, 13] and cards["indicator"]
    # issue 29 item 2: a record the audit would call malformed is refused, in one line, nothing stored
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"hand_id": "h1", "moves": []}))
    one_line_error(run("hand", "finish", "h1", "--record", str(record), ok=False), "format", "nothing stored")
    assert js(run("hand", "show", "h1", "--json"))["state"] == "dealt"
    assert [e["kind"] for e in map(json.loads, run("hand", "log", "--hand", "h1").stdout.splitlines())][-1] == "deal"
    # item 2b: the moves alone make the record (outcome and settlement from the replay)
    moves = tmp_path / "moves.json"
    # an empty array plays nothing (a hand with no moves: four of a kind at the deal, rule K-20,
    # where bot-moves prints []); no array at all is "no move given"
    empty = run("hand", "move", "h1", "--move", "[]", "--json")
    assert (empty.stdout, empty.stderr) == ("", "")
    assert run("hand", "move-receipts", "h1", "--json").stdout.strip() in ("", "[]")
    one_line_error(run("hand", "move", "h1", "--move", " ", ok=False), "no move given")
    moves.write_text(run("hand", "bot-moves", "h1").stdout)
    run("hand", "finish", "h1", "--moves", str(moves))
    shown = js(run("hand", "show", "h1", "--json"))
    assert shown["state"] == "finished" and shown["server_seed"] is None
    assert "secret until the reveal" in run("hand", "show", "h1").stdout
    revealed = js(run("hand", "reveal", "h1", "--json"))
    seed = verify_statement(revealed, pub)["server_seed"]
    assert commit_server_seed(bytes.fromhex(seed)) == commitment
    assert js(run("hand", "verify", "h1", "--public-key", pub, "--json")) == {
        "hand_id": "h1", "ok": True, "state": "revealed", "statements": 13}
    log = [json.loads(line) for line in run("hand", "log", "--hand", "h1").stdout.splitlines()]
    assert [e["kind"] for e in log][-3:] == ["deal", "record", "reveal"]
    # item 2b: `hand record` prints the published record, and it audits clean under the pinned key
    published = tmp_path / "published.json"
    published.write_text(run("hand", "record", "h1").stdout)
    assert json.loads(published.read_text())["fairness"]["server_seed"] == seed
    # the record alone: nothing fails, nothing proves its timing (exit 3, #26); against the ledger: a pass
    audited = run("audit", str(published), "--public-key", pub, "--json", "--no-progress", ok=False)
    assert audited.exit_code == 3 and js(audited)["result"] == "unproven" and js(audited)["failed"] == 0
    audited = run("audit", run.db, "--public-key", pub, "--json", "--no-progress")
    assert js(audited)["ok"] is True and js(audited)["total"] == 1 and js(audited)["timing"]["whole-log"] == 1
    assert all(verify_statement(e, pub) for e in log)
    assert [e["seq"] for e in log[-2:]] == [e["seq"] for e in map(json.loads, run(
        "hand", "log", "--since", str(log[-3]["seq"])).stdout.splitlines())]
    listed = [json.loads(line) for line in run("hand", "list", "--state", "revealed", "--json").stdout.splitlines()]
    assert [h["hand_id"] for h in listed] == ["h1"]


def test_errors_are_one_line_with_a_non_zero_exit(run, tmp_path):
    run("operator", "new", "acme")
    run("table", "new", "t1", "--operator", "acme", "--preset", "kitti", "--seats", "4")
    run("hand", "new", "--table", "t1", "--hand-id", "h1", "--player", "a", "--player", "b")
    one_line_error(run("hand", "reveal", "h1", ok=False), "created", "reveal")
    one_line_error(run("hand", "commit", "nope", ok=False), "no hand 'nope'")
    run("hand", "commit", "h1")
    one_line_error(run("hand", "seed-reveal", "h1", "--seat", "0", "--seed", SEEDS[0], ok=False), "every seat")
    one_line_error(run("hand", "seed-commit", "h1", "--seat", "5", "--seed", SEEDS[0], ok=False), "no seat 5")
    one_line_error(run("hand", "seed-commit", "h1", "--seat", "0", ok=False), "exactly one of", status=2)
    one_line_error(run("hand", "seed-commit", "h1", "--seat", "0", "--seed", "xyz", ok=False), "hex", status=2)
    run("hand", "seed-commit", "h1", "--seat", "0", "--seed", SEEDS[0])
    run("hand", "seed-commit", "h1", "--seat", "1", "--seed", SEEDS[1])
    one_line_error(run("hand", "seed-commit", "h1", "--seat", "1", "--seed", SEEDS[1], ok=False), "seeds-committed")
    one_line_error(run("hand", "seed-reveal", "h1", "--seat", "1", "--seed", SEEDS[0], ok=False), "does not match")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    one_line_error(run("hand", "finish", "h1", "--record", str(bad), ok=False), "not JSON")
    cancelled = js(run("hand", "cancel", "h1", "--json"))
    assert cancelled["statement"]["missing_seats"] == [0, 1]
    one_line_error(run("hand", "deal", "h1", ok=False), "cancelled")


def test_keys_kept_outside_the_ledger(run, tmp_path):
    keyfile = tmp_path / "acme.key"
    made = js(run("keys", "new", "--out", str(keyfile), "--json"))
    assert stat.S_IMODE(os.stat(keyfile).st_mode) == 0o600
    assert js(run("keys", "show", str(keyfile), "--json"))["public_key"] == made["public_key"]
    one_line_error(run("keys", "new", "--out", str(keyfile), ok=False))  # never overwritten
    op = js(run("operator", "new", "acme", "--key-file", str(keyfile), "--json"))
    assert op["public_key"] == made["public_key"] and op["key_stored"] is False
    run("table", "new", "t1", "--operator", "acme", "--preset", "kitti")
    one_line_error(run("hand", "new", "--table", "t1", "--player", "a", "--player", "b", ok=False), "outside")
    signed = js(run("hand", "new", "--table", "t1", "--player", "a", "--player", "b", "--hand-id", "h1",
                    "--key-file", str(keyfile), "--json"))
    verify_statement(signed, made["public_key"])
    assert made["public_key"] == js(run("operator", "show", "acme", "--json"))["public_key"]
    assert json.loads(keyfile.read_text())["private_key"] not in open(run.db, "rb").read().decode("latin-1")


def test_seed_new_prints_fresh_hex_seeds(run):
    a, b = run("seed", "new").stdout.strip(), run("seed", "new", "--bytes", "16").stdout.strip()
    assert len(a) == 64 and len(b) == 32 and a[:32] != b
    int(a, 16), int(b, 16)


def test_the_cli_state_choices_are_the_ledger_states():
    assert HAND_STATES == tuple(s.value for s in HandState)


@pytest.mark.parametrize("path", [["keys"], ["keys", "new"], ["keys", "show"], ["operator", "new"],
                                  ["operator", "show"], ["seed", "new"], ["seed", "commit"], ["table", "new"], ["table", "show"]]
                         + [["hand", c] for c in ("new", "commit", "seed-commit", "seed-reveal", "deal", "cards",
                                                  "finish", "reveal", "cancel", "show", "list", "log", "verify")])
def test_every_command_has_help(path):
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0 and len(result.output.split("\n\n")[1].strip()) > 10


def test_the_cli_ledger_is_the_library_ledger(run):
    run("operator", "new", "acme")
    with Ledger(run.db) as ledger:
        assert ledger.operator("acme").key_stored


def test_operator_new_says_where_its_key_is_as_show_does(run, tmp_path):
    """Issue 29 item 3: `operator new acme` said "kept outside (pass --key-file to sign)" and
    key_stored false while the key was stored and `operator show` said key_stored true."""
    made = run("operator", "new", "acme")
    assert "stored in" in made.stdout and "kept outside" not in made.stdout, made.stdout
    new = js(run("operator", "new", "bea", "--json"))
    assert new["key_stored"] is True
    assert js(run("operator", "show", "bea", "--json"))["key_stored"] is True
    keyfile = tmp_path / "cy.key"
    run("keys", "new", "--out", str(keyfile))
    outside = run("operator", "new", "cy", "--key-file", str(keyfile))
    assert "kept outside" in outside.stdout
    assert js(run("operator", "show", "cy", "--json"))["key_stored"] is False
