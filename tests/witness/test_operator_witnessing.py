"""The operator's server submits each new checkpoint to its witnesses (TIPLU_WITNESSES),
serves their cosignatures in /api/v1/log/checkpoint, and keeps serving when one is down."""
from __future__ import annotations

import threading
import time

import flask
import pytest
from werkzeug.serving import make_server

from audit.signing import SigningKey
from audit.tlog.cosignature import check_quorum, witness_vkey
from audit.tlog.checkpoint import CheckpointSigner, verify_checkpoint
from audit.tlog.witness import Witness, WitnessedLog
from audit.tlog.witnessing import Witnessing, parse_witnesses
from bench.servekit import free_port
from replay.errors import MalformedError
from web import log_api
from web.witness import create_app as create_witness_app

from tests.tlog.conftest import Clock, append, make_log, statement
from .witnesskit import LOG_KEY, Served, log_vkey

ORIGIN = "tiplu.test/log"
W1, W2 = SigningKey.from_hex("51" * 32), SigningKey.from_hex("52" * 32)


def start_witness(tmp_path, key, name):
    w = Witness(tmp_path / f"{name.replace('/', '_')}.db", key, name, {ORIGIN: WitnessedLog(ORIGIN, (log_vkey(ORIGIN),))})
    return w, Served(create_witness_app({"TIPLU_WITNESS": w}))


def site(db, witnessing):
    app = flask.Flask("site-test")
    app.config.update(TESTING=True, TIPLU_DB=str(db), TIPLU_CHECKPOINT_SIGNER=CheckpointSigner(LOG_KEY, ORIGIN, Clock()),
                      TIPLU_WITNESSING=witnessing)
    log_api.init_app(app)
    return app.test_client()


@pytest.fixture
def two_witnesses(tmp_path):
    w1, s1 = start_witness(tmp_path, W1, "witness.test/w1")
    w2, s2 = start_witness(tmp_path, W2, "witness.test/w2")
    yield (w1, s1), (w2, s2)
    s1.stop()
    s2.stop()


def vkeys():
    return [witness_vkey("witness.test/w1", W1.public_hex), witness_vkey("witness.test/w2", W2.public_hex)]


def test_the_served_checkpoint_carries_both_cosignatures_and_follows_growth(tmp_path, two_witnesses):
    (w1, s1), (w2, s2) = two_witnesses
    db = make_log(tmp_path / "site.db", [statement(i) for i in range(5)])
    setting = f"{s1.url} {vkeys()[0]};{s2.url} {vkeys()[1]}"
    client = site(db, Witnessing(parse_witnesses(setting)))
    body = client.get("/api/v1/log/checkpoint").get_json()
    assert body["witnesses_missing"] == [] and [w["cosigned"] for w in body["witnesses"]] == [True, True]
    verify_checkpoint(body["checkpoint"], LOG_KEY.public_hex)  # the log's own line still verifies
    assert all(r.ok for r in check_quorum(body["checkpoint"], vkeys(), 2))
    append(db, [statement(i) for i in range(5, 12)])  # the log grows: old 5 + a consistency proof
    body = client.get("/api/v1/log/checkpoint").get_json()
    assert body["size"] == 12 and body["witnesses_missing"] == [], body["witnesses"]
    check_quorum(body["checkpoint"], vkeys(), 2)
    assert w1.state()[0]["size"] == 12 and w2.state()[0]["size"] == 12
    again = client.get("/api/v1/log/checkpoint").get_json()  # served again without asking
    assert again["checkpoint"] == body["checkpoint"]


def test_a_witness_that_is_down_is_missing_and_the_checkpoint_is_served(tmp_path, two_witnesses):
    (w1, s1), _ = two_witnesses
    db = make_log(tmp_path / "site.db", [statement(i) for i in range(3)])
    dead = f"http://127.0.0.1:{free_port()}"
    witnessing = Witnessing(parse_witnesses(f"{s1.url} {vkeys()[0]}\n{dead} {vkeys()[1]}"), timeout=1.0)
    client = site(db, witnessing)
    started = time.monotonic()
    body = client.get("/api/v1/log/checkpoint").get_json()
    assert time.monotonic() - started < 5  # bounded
    assert body["witnesses_missing"] == ["witness.test/w2"]
    [down] = [w for w in body["witnesses"] if not w["cosigned"]]
    assert down["reason"].startswith("unreachable")
    check_quorum(body["checkpoint"], vkeys(), 1)
    with pytest.raises(Exception, match="1 of the required 2"):
        check_quorum(body["checkpoint"], vkeys(), 2)


def test_a_missing_witness_is_asked_again_after_retry_after(tmp_path):
    db = make_log(tmp_path / "site.db", [statement(i) for i in range(3)])
    port = free_port()
    w = Witness(tmp_path / "w.db", W1, "witness.test/w1", {ORIGIN: WitnessedLog(ORIGIN, (log_vkey(ORIGIN),))})
    now = [0.0]
    witnessing = Witnessing(parse_witnesses(f"http://127.0.0.1:{port} {vkeys()[0]}"), timeout=1.0,
                            retry_after=30, clock=lambda: now[0])
    client = site(db, witnessing)
    assert client.get("/api/v1/log/checkpoint").get_json()["witnesses_missing"] == ["witness.test/w1"]
    server = make_server("127.0.0.1", port, create_witness_app({"TIPLU_WITNESS": w}), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        now[0] = 10.0  # too soon: not asked
        assert client.get("/api/v1/log/checkpoint").get_json()["witnesses_missing"] == ["witness.test/w1"]
        now[0] = 31.0
        assert client.get("/api/v1/log/checkpoint").get_json()["witnesses_missing"] == []
    finally:
        server.shutdown()


def test_a_witness_ahead_of_the_operators_records_answers_409_and_the_retry_succeeds(tmp_path, two_witnesses):
    (w1, s1), _ = two_witnesses
    db = make_log(tmp_path / "site.db", [statement(i) for i in range(4)])
    client = site(db, Witnessing(parse_witnesses(f"{s1.url} {vkeys()[0]}")))
    assert client.get("/api/v1/log/checkpoint").get_json()["witnesses_missing"] == []
    append(db, [statement(i) for i in range(4, 9)])
    # a second operator database that never saw the first cosignature (say, restored from a backup)
    fresh = make_log(tmp_path / "fresh.db", [statement(i) for i in range(9)])
    body = site(fresh, Witnessing(parse_witnesses(f"{s1.url} {vkeys()[0]}"))).get("/api/v1/log/checkpoint").get_json()
    assert body["witnesses_missing"] == []  # old 0 -> 409 "4" -> old 4 with a proof -> 200
    assert w1.state()[0]["size"] == 9


def test_a_line_that_does_not_verify_is_not_kept(tmp_path, two_witnesses):
    (w1, s1), _ = two_witnesses
    db = make_log(tmp_path / "site.db", [statement(i) for i in range(2)])
    impostor = witness_vkey("witness.test/w1", SigningKey.from_hex("53" * 32).public_hex)  # not w1's key
    body = site(db, Witnessing(parse_witnesses(f"{s1.url} {impostor}"))).get("/api/v1/log/checkpoint").get_json()
    assert body["witnesses_missing"] == ["witness.test/w1"]
    assert "no line of the configured witness key" in body["witnesses"][0]["reason"]
    assert "witness.test/w1" not in body["checkpoint"]


@pytest.mark.parametrize("bad", ["http://x", "ftp://x w+00000000+BA==", "http://x example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"])
def test_bad_witness_settings_are_refused(bad):
    with pytest.raises(MalformedError, match=r"^TIPLU_WITNESSES entry 1( is '<http\(s\) URL> <witness vkey>'$|: verifier key 'example\.com/foo' has signature type 0x01, expected 0x04 \(Ed25519 cosignature/v1\)$)"):
        parse_witnesses(bad)


def test_the_site_reads_tiplu_witnesses_from_its_settings(tmp_path, two_witnesses):
    (w1, s1), _ = two_witnesses
    from web import create_app
    app = create_app({"TIPLU_DB": str(tmp_path / "x.db"), "TIPLU_WITNESSES": f"{s1.url} {vkeys()[0]}",
                      "TIPLU_WITNESS_TIMEOUT": 2})
    witnessing = app.config["TIPLU_WITNESSING"]
    assert [e.name for e in witnessing.endpoints] == ["witness.test/w1"] and witnessing.timeout == 2.0
    assert create_app({"TIPLU_DB": str(tmp_path / "y.db")}).config["TIPLU_WITNESSING"] is None
