"""`tiplu seat`: a player's client checks the receipt before its seed leaves the machine."""
from __future__ import annotations

import json
import logging
import threading

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from audit.cli import main
from audit.operator.ledger import Ledger
from audit.signing import SigningKey
from audit.operator.tokens import issue_seat_token
from web import create_app

KEY = SigningKey.from_hex("33" * 32)
SEEDS = ["aa" * 16, "bb" * 16]


@pytest.fixture
def served(tmp_path):
    db = str(tmp_path / "seat.db")
    with Ledger(db, create=True) as ledger:
        ledger.new_operator("op", key=KEY)
        ledger.new_table("t", operator="op", preset="kitti", seats=2)
        ledger.new_hand("t", ["ram", "sita"], hand_id="h1")
        commitment = ledger.commit("h1")["statement"]["server_seed_commitment"]
        tokens = [issue_seat_token(ledger.db, "h1", s)[1] for s in range(2)]
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, create_app({"TESTING": True, "TIPLU_DB": db}), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", db, commitment, tokens
    server.shutdown()
    thread.join(5)


def seat(*args):
    return CliRunner().invoke(main, ["seat", *args])


def state(db):
    with Ledger(db) as ledger:
        return ledger.get_hand("h1").state.value


def test_commit_keep_the_receipt_check_it_then_reveal(served, tmp_path):  # rule R-21
    url, db, commitment, tokens = served
    files = [tmp_path / f"r{s}.json" for s in range(2)]
    for s in range(2):
        res = seat("commit", url, "h1", "--seat", str(s), "--seed", SEEDS[s], "--token", tokens[s],
                   "--public-key", KEY.public_hex, "--out", str(files[s]))
        assert res.exit_code == 0, res.output
        assert commitment in res.output and json.loads(files[s].read_text())["format"] == "tiplu.receipt/3"
    common = ["--public-key", KEY.public_hex, "--server-commitment", commitment]
    # refused before anything is sent: another seat's receipt, a commitment not the one shown, an edited receipt
    edited = tmp_path / "edited.json"
    rec = json.loads(files[0].read_text())
    rec["statements"][0]["statement"]["server_seed_commitment"] = "cd" * 32
    edited.write_text(json.dumps(rec))
    for receipt_file, extra in ((files[1], common), (files[0], ["--public-key", KEY.public_hex,
                                                               "--server-commitment", "cd" * 32]),
                                (edited, common), (files[0], ["--public-key", SigningKey.generate().public_hex])):
        res = seat("reveal", url, "h1", "--seat", "0", "--seed", SEEDS[0], "--token", tokens[0],
                   "--receipt", str(receipt_file), *extra)
        assert res.exit_code == 1 and res.stderr.startswith("tiplu: error: not revealing: "), res.output
        assert res.stderr.count("\n") == 1
    assert state(db) == "seeds-committed"
    for s in range(2):
        res = seat("reveal", url, "h1", "--seat", str(s), "--seed", SEEDS[s], "--token", tokens[s],
                   "--receipt", str(files[s]), *common)
        assert res.exit_code == 0, res.output
    assert state(db) == "seeds-revealed"


def test_a_commit_whose_receipt_does_not_check_keeps_nothing(served, tmp_path):
    url, db, _, tokens = served
    out = tmp_path / "r.json"
    res = seat("commit", url, "h1", "--seat", "0", "--seed", SEEDS[0], "--token", tokens[0],
               "--public-key", SigningKey.generate().public_hex, "--out", str(out))
    assert res.exit_code == 1 and "pinned key" in res.stderr and not out.exists()
