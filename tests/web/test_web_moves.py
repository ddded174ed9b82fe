"""The moves as played over the API: the operator's game server posts each move and gets the
signed move receipt; a seat fetches the receipts (``tiplu seat moves``) and keeps them, and
``tiplu receipt verify --moves`` proves a record with other moves forged (issue 27)."""
from __future__ import annotations

import json
import logging
import threading

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from audit.cli import main
from audit.operator.ledger import Ledger
from audit.auditor.verdict.move_receipts import verify_move_receipt
from audit.signing import SigningKey
from audit.operator.tokens import issue_operator_token
from replay.fairness import commit_player_seed
from replay.movechain import chain_heads
from web import create_app

KEY = SigningKey.from_hex("66" * 32)
SEEDS = [bytes([1]) * 16, bytes([2]) * 16]
MOVES = [{"type": "discard", "seat": 0, "card": "AS"}, {"type": "draw", "seat": 1, "source": "open"}]


@pytest.fixture
def dealt(tmp_path):
    db = str(tmp_path / "moves.db")
    with Ledger(db, create=True) as ledger:
        ledger.new_operator("op", key=KEY)
        ledger.new_table("t", operator="op", preset="kitti", seats=2)
        ledger.new_hand("t", ["ram", "sita"], hand_id="h1")
        commitment = ledger.commit("h1")["statement"]["server_seed_commitment"]
        for s in range(2):
            ledger.seed_commit("h1", s, commit_player_seed("h1", s, SEEDS[s]))
        for s in range(2):
            ledger.seed_reveal("h1", s, SEEDS[s])
        ledger.deal("h1")
        _, token = issue_operator_token(ledger.db, "op")
    app = create_app({"TESTING": True, "TIPLU_DB": db})
    return app, db, token, commitment


def test_the_operator_posts_moves_and_gets_move_receipts(dealt):
    app, db, token, commitment = dealt
    client = app.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    got = []
    for m in MOVES:
        r = client.post("/api/v1/operator/hands/h1/moves", json={"move": m}, headers=auth)
        assert r.status_code == 201, r.get_json()
        got.append(r.get_json()["receipt"])
    with Ledger(db) as ledger:
        played = ledger.played_moves("h1")
    assert [{k: v for k, v in m.items() if k != "time"} for m in played] == MOVES
    heads = chain_heads("h1", commitment, played)
    assert [verify_move_receipt(g, KEY.public_hex, hand_id="h1")["head"] for g in got] == heads
    # public: the receipts again, heads only (no move, no card in them)
    pub = client.get("/api/v1/hands/h1/move-receipts").get_json()
    assert pub == {"hand_id": "h1", "receipts": got} and "AS" not in json.dumps(pub)
    assert client.get("/api/v1/hands/h1/move-receipts?since=1").get_json()["receipts"] == got[1:]
    # refused: no token, a move that is no object, a seat the hand has not, a bad since
    assert client.post("/api/v1/operator/hands/h1/moves", json={"move": MOVES[0]}).status_code == 401
    for body in ({"move": [1]}, {"move": {"type": "x", "seat": 5}}, {}):
        r = client.post("/api/v1/operator/hands/h1/moves", json=body, headers=auth)
        assert r.status_code == 400 and set(r.get_json()["error"]) == {"status", "code", "message"}
    assert client.get("/api/v1/hands/h1/move-receipts?since=-1").status_code == 400


def test_a_seat_fetches_checks_and_keeps_its_move_receipts(dealt, tmp_path):
    app, db, token, _ = dealt
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    keep = tmp_path / "moves.jsonl"
    run = lambda key=KEY.public_hex: CliRunner().invoke(main, ["seat", "moves", url, "h1", "--public-key", key,  # noqa: E731
                                                               "--keep", str(keep)])
    try:
        with Ledger(db) as ledger:
            ledger.play_move("h1", MOVES[0])
        first = run()
        assert first.exit_code == 0 and "1 new move receipts checked; 1 kept" in first.output, first.output
        with Ledger(db) as ledger:
            ledger.play_move("h1", MOVES[1])
        second = run()
        assert second.exit_code == 0 and "1 new move receipts checked; 2 kept" in second.output, second.output
        kept = [json.loads(x) for x in keep.read_text().splitlines()]
        assert [k["statement"]["n_moves"] for k in kept] == [1, 2]
        # under another key than the operator's: refused, one line, nothing kept changes
        before = keep.read_text()
        bad = run(SigningKey.from_hex("77" * 32).public_hex)
        assert bad.exit_code == 1 and bad.output.count("\n") == 1 and "pinned key" in bad.output
        assert keep.read_text() == before
    finally:
        server.shutdown()
        thread.join(5)


def test_finish_with_the_moves_played_over_the_api(dealt):
    from audit.operator.publish import published_record
    from audit.operator.sim.play import bot_moves
    from audit.auditor.verdict.trust import TrustAnchor
    from audit.auditor.verdict.verify import audit_record

    app, db, token, commitment = dealt
    client = app.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    with Ledger(db) as ledger:
        moves = bot_moves(ledger, "h1")
    for m in moves:
        assert client.post("/api/v1/operator/hands/h1/moves", json={"move": m}, headers=auth).status_code == 201
    # another list than was played is refused, nothing stored; the moves played are taken
    if len(moves) > 1:
        r = client.post("/api/v1/operator/hands/h1/finish", json={"moves": moves[::-1]}, headers=auth)
        assert r.status_code in (400, 409), r.get_json()
    assert client.post("/api/v1/operator/hands/h1/finish", json={"played": False}, headers=auth).status_code == 400
    r = client.post("/api/v1/operator/hands/h1/finish", json={"played": True}, headers=auth)
    assert r.status_code == 200, r.get_json()
    st = r.get_json()["statement"]["statement"]
    with Ledger(db) as ledger:
        played = ledger.played_moves("h1")
        assert (st["moves_head"], st["n_moves"]) == (chain_heads("h1", commitment, played)[-1], len(played))
        ledger.reveal("h1")
        record = published_record(ledger, "h1")
    assert record["moves"] == played
    assert audit_record(record, trust=TrustAnchor(KEY.public_hex, "pinned")).ok
