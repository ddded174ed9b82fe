"""The hand page shows which witnesses cosigned the log checkpoint, each line verified in the browser."""
from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from audit.operator.ledger import Ledger
from audit.signing import SigningKey
from audit.tlog.checkpoint import CheckpointSigner
from audit.tlog.cosignature import witness_vkey
from audit.tlog.logs import operator_origin
from audit.tlog.note import TYPE_ED25519, Vkey
from audit.tlog.witness import Witness, WitnessedLog
from audit.tlog.witnessing import Witnessing, parse_witnesses
from bench.servekit import free_port
from web import create_app
from web.witness import create_app as create_witness_app

pytestmark = pytest.mark.browser
ORIGIN = "tiplu.test/log"
W1, W2 = SigningKey.from_hex("81" * 32), SigningKey.from_hex("82" * 32)
V1, V2 = witness_vkey("witness.test/h1", W1.public_hex), witness_vkey("witness.test/h2", W2.public_hex)


def serve(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def test_the_hand_page_lists_the_witnesses_that_cosigned(page, tmp_path):
    from tests.web.web_testkit import OPERATOR as SITE_OPERATOR, build_site

    site = build_site(str(tmp_path / "site.db"))
    ledger = Ledger(site.db_path)
    try:
        key = ledger.signing_key(SITE_OPERATOR)
    finally:
        ledger.close()
    origin = operator_origin(ORIGIN, SITE_OPERATOR)  # the operator's own log
    log_vkey = Vkey.for_key(origin, TYPE_ED25519, bytes.fromhex(key.public_hex))
    w = Witness(tmp_path / "w.db", W1, V1.name, {origin: WitnessedLog(origin, (log_vkey,))})
    wserver, wurl = serve(create_witness_app({"TIPLU_WITNESS": w}))
    dead = f"http://127.0.0.1:{free_port()}"  # the second witness is down
    app = create_app({"TESTING": True, "TIPLU_DB": site.db_path,
                      "TIPLU_CHECKPOINT_SIGNER": CheckpointSigner(key, ORIGIN),
                      "TIPLU_WITNESSING": Witnessing(parse_witnesses(f"{wurl} {V1};{dead} {V2}"), timeout=1.0)})
    server, base = serve(app)
    try:
        page.goto(f"{base}/hands/{site.hands['revealed0']}")
        page.wait_for_selector("#browser-check:not([data-state=''])", timeout=20000)
        page.wait_for_selector("li[data-check='live:witnesses']", timeout=20000)
        li = page.locator("li[data-check='live:witnesses']")
        text = li.inner_text()
        assert li.get_attribute("data-ok") == "true"
        assert "Witnesses this server names: 1 of 2 cosigned the checkpoint" in text
        assert "witness.test/h1: cosigned at" in text and "witness.test/h2: missing" in text
        assert page.locator("#browser-check").get_attribute("data-state") == "verified"
    finally:
        server.shutdown()
        wserver.shutdown()
