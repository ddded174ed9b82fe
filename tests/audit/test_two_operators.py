"""Two operators in one ledger: each has its own log, signed by its own key (issue #26, Build 6).

Before, the publisher reused the latest checkpoint of the ledger whoever signed it, so A's
record could carry a checkpoint signed by B (``bad_checkpoint`` under A's pinned key), and
``/api/v1/log/checkpoint`` named the site's log key beside a checkpoint another key signed.
Here the operators' hands interleave (A, then B, then A again, receipts asked for A's
statements after B signed), and both audit clean under their own pinned keys: the ledger
audit, the URL audit, and every checkpoint the site serves verifies under the one key it names.
"""
from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from audit.cli import main
from audit.keys import key_document
from audit.operator.ledger import Ledger
from audit.operator.publish import published_record
from audit.operator.receipts import receipt, verify_receipt
from audit.signing import SigningKey
from audit.operator.sim.tables import simulate_table
from audit.tlog.checkpoint import CheckpointSigner, verify_checkpoint
from audit.tlog.logs import operator_origin
from audit.tlog.store import TransparencyLog
from replay.errors import TipluError

BASE = "tiplu.test/log"
KEYS = {"alpha": SigningKey.from_hex("a1" * 32), "beta": SigningKey.from_hex("b2" * 32)}
T0 = datetime(2026, 11, 1, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("two") / "ledger.db")
    with Ledger(path, create=True) as ledger:
        for name, key in KEYS.items():
            ledger.new_operator(name, key=key, now=T0)
        for i, (op, table) in enumerate((("alpha", "ta"), ("beta", "tb"), ("alpha", "ta2"))):
            simulate_table(ledger, preset="kitti", players=3, hands=2, seed="two", table_id=table, operator=op,
                           start=T0 + timedelta(hours=i + 1), origin=BASE)
    return path


def pub(name: str) -> str:
    return KEYS[name].public_hex


def test_every_checkpoint_is_signed_by_its_own_operators_key(two):
    with Ledger(two) as ledger:
        log = TransparencyLog(ledger.db, migrate=False)
        texts = log.checkpoints()
        assert {t.split("\n", 1)[0] for t in texts} == {f"{BASE}/alpha", f"{BASE}/beta"}
        for text in texts:
            op = text.split("\n", 1)[0].rsplit("/", 1)[1]
            verify_checkpoint(text, pub(op))
            with pytest.raises(TipluError, match=r"^checkpoint has no signature by key 'tiplu\.test/log/(alpha|beta)' \([0-9a-f]{8}\)$"):
                verify_checkpoint(text, pub("beta" if op == "alpha" else "alpha"))
        # after B signed the latest checkpoint, A's record and A's receipt are still A's log
        latest = log.latest_checkpoint()
        assert latest.startswith(f"{BASE}/alpha\n")
        ledger_b = [h.id for h in ledger.list_hands(table_id="tb")]
        later = published_record(ledger, ledger_b[0], origin=BASE)  # B's record built after A's last checkpoint
        assert all(p.split("\n\n", 1)[1].startswith(f"{BASE}/beta\n") for p in later["fairness"]["log_proofs"])
        hand_a = next(h.id for h in ledger.list_hands(table_id="ta"))
        rec = published_record(ledger, hand_a, origin=BASE, now=T0 + timedelta(days=1))
        for p in rec["fairness"]["log_proofs"]:
            verify_checkpoint(p.split("\n\n", 1)[1], pub("alpha"), origin=operator_origin(BASE, "alpha"))
        seat = next(s.signed for s in ledger.statements(hand_a) if s.kind == "seat-receipt")
        r = receipt(ledger, seat, key=KEYS["alpha"], origin=BASE, now=T0 + timedelta(days=1))
        verify_receipt(r, pub("alpha"))
        with pytest.raises(TipluError, match="not operator 'alpha'"):  # B's key never signs A's log
            receipt(ledger, seat, key=KEYS["beta"], origin=BASE, now=T0 + timedelta(days=2))


@pytest.mark.parametrize("name, other", [("alpha", "beta"), ("beta", "alpha")])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_ledger_audits_clean_under_each_operators_pinned_key(two, name, other, workers):
    r = CliRunner().invoke(main, ["audit", two, "--public-key", pub(name), "--json", "--workers", workers])
    assert r.exit_code == 0, r.output[-2000:]
    data = json.loads(r.output)
    assert data["failed"] == 0 and data["total"] == (4 if name == "alpha" else 2)
    assert data["scope"] == {"operator": name, "other_operators": [other],
                             "hands_not_audited": 2 if name == "alpha" else 4}
    text = CliRunner().invoke(main, ["audit", two, "--public-key", pub(name)]).output
    assert f"scope: operator {name}'s hands only" in text and "pin their key to audit them" in text


@pytest.fixture(scope="module")
def site(two, tmp_path_factory):
    """The site over the two-operator ledger; its log key file is alpha's key file."""
    from web import create_app

    key_file = tmp_path_factory.mktemp("keys") / "alpha.key"
    key_file.write_text(json.dumps(key_document(KEYS["alpha"])))
    app = create_app({"TESTING": True, "TIPLU_DB": two, "TIPLU_LOG_KEY_FILE": str(key_file),
                      "TIPLU_LOG_ORIGIN": BASE})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_the_served_checkpoint_never_names_one_key_beside_anothers_signature(site, two):
    app, _ = site
    client = app.test_client()
    served = {"": client.get("/api/v1/log/checkpoint").get_json()}
    for op in KEYS:
        served[op] = client.get(f"/api/v1/log/checkpoint?operator={op}").get_json()
    with Ledger(two) as ledger:
        for op in KEYS:
            for h in ledger.list_hands(table_id="tb" if op == "beta" else "ta"):
                served[h.id] = client.get(f"/api/v1/hands/{h.id}/log-proofs").get_json()
                assert served[h.id]["operator"] == op
    for where, body in served.items():
        verify_checkpoint(body["checkpoint"], body["public_key"],
                          origin=operator_origin(BASE, body["operator"]))  # the key it names signed it
        assert body["public_key"] == pub(body["operator"]), where
    assert served[""]["operator"] == "alpha"  # the site's log key is alpha's key file
    assert client.get("/api/v1/log/checkpoint?operator=nobody").status_code == 404
    assert client.get("/api/v1/log/checkpoint?operator=a%20b").status_code == 400


@pytest.mark.parametrize("name", ["alpha", "beta"])
def test_the_url_audits_clean_under_each_operators_pinned_key(site, name):
    _, url = site
    r = CliRunner().invoke(main, ["audit", url, "--public-key", pub(name), "--json"])
    assert r.exit_code == 0, r.output[-3000:]
    data = json.loads(r.output)
    assert data["failed"] == 0 and data["total"] == (4 if name == "alpha" else 2)
    assert data["log"]["checked"] is True and data["log"]["anchor"] == "pinned"  # its own log, under its key
    assert data["scope"]["operator"] == name and data["scope"]["hands_not_audited"] == (2 if name == "alpha" else 4)


def test_a_log_key_that_is_no_operators_key_is_refused(two, tmp_path):
    from web import create_app

    key_file = tmp_path / "stray.key"
    key_file.write_text(json.dumps(key_document(SigningKey.from_hex("c3" * 32))))
    client = create_app({"TESTING": True, "TIPLU_DB": two, "TIPLU_LOG_KEY_FILE": str(key_file)}).test_client()
    r = client.get("/api/v1/log/checkpoint")
    assert r.status_code == 503 and r.get_json()["error"]["code"] == "log_key_not_operator"
    assert "point it at the operator's key file" in r.get_json()["error"]["message"]


def test_a_signer_for_a_bare_log_keeps_the_base_origin(tmp_path):
    """A log with no operator (statements appended by hand) is signed as configured."""
    from web import create_app

    with Ledger(str(tmp_path / "bare.db"), create=True):
        pass
    app = create_app({"TESTING": True, "TIPLU_DB": str(tmp_path / "bare.db"),
                      "TIPLU_CHECKPOINT_SIGNER": CheckpointSigner(KEYS["alpha"], BASE)})
    body = app.test_client().get("/api/v1/log/checkpoint").get_json()
    assert body["checkpoint"].startswith(f"{BASE}\n0\n") and body["public_key"] == pub("alpha")
    assert body["operator"] is None


@pytest.mark.parametrize("name", ["alpha", "beta"])
def test_the_monitor_watches_the_pinned_operators_own_log(site, tmp_path, name):
    _, url = site
    r = CliRunner().invoke(main, ["monitor", url, "--state", str(tmp_path / "m.json"), "--public-key", pub(name),
                                  "--once", "--audit-hook", "none"])
    assert r.exit_code == 0, r.output
    assert f"{BASE}/{name} size" in r.output


@pytest.mark.parametrize("name", ["alpha", "beta"])
def test_a_state_file_follows_the_pinned_operators_own_log(two, tmp_path, name):
    state = str(tmp_path / "state.json")
    for _ in range(2):  # the first run writes the state, the second checks the log against it
        r = CliRunner().invoke(main, ["audit", two, "--public-key", pub(name), "--state", state, "--json"])
        assert r.exit_code == 0, r.output[-2000:]
    assert json.load(open(state))["checkpoint"].startswith(f"{BASE}/{name}\n")
