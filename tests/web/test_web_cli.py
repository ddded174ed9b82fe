"""``tiplu token`` and ``tiplu serve``; the rate limiter's window with an injected clock."""
from __future__ import annotations

import json

from click.testing import CliRunner

from web.cli import main
from audit.operator.ledger import Ledger
from audit.operator.tokens import authenticate


def test_token_new_for_an_operator_and_a_seat(fresh_db, site):
    runner = CliRunner()
    r = runner.invoke(main, ["token", "new", "--db", fresh_db, "--operator", "demo-operator"])
    assert r.exit_code == 0, r.output
    token = r.output.strip()
    r = runner.invoke(main, ["token", "new", "--db", fresh_db, "--hand", site.hands["committed"], "--seat", "1", "--json"])
    assert r.exit_code == 0, r.output
    seat = json.loads(r.output)
    with Ledger(fresh_db) as ledger:
        assert authenticate(ledger.db, token).operator == "demo-operator"
        who = authenticate(ledger.db, seat["token"])
    assert (who.role, who.hand_id, who.seat) == ("seat", site.hands["committed"], 1)
    r = runner.invoke(main, ["token", "revoke", "--db", fresh_db, seat["token_id"]])
    assert r.exit_code == 0


def test_token_new_refuses_unclear_requests(fresh_db, site):
    runner = CliRunner()
    for args in ([], ["--operator", "demo-operator", "--seat", "1"], ["--hand", site.hands["committed"]],
                 ["--operator", "x", "--hand", "y", "--seat", "0"]):
        assert runner.invoke(main, ["token", "new", "--db", fresh_db, *args]).exit_code == 2
    r = runner.invoke(main, ["token", "new", "--db", fresh_db, "--operator", "nobody"])
    assert r.exit_code == 1 and "no operator 'nobody'" in r.output
    r = runner.invoke(main, ["token", "new", "--db", fresh_db, "--hand", site.hands["committed"], "--seat", "7"])
    assert r.exit_code == 1 and "no seat 7" in r.output


def test_serve_has_help():
    r = CliRunner().invoke(main, ["serve", "--help"])
    text = " ".join(r.output.split())
    assert r.exit_code == 0 and "--port" in text and "development server" in text and "gunicorn" in text


def test_log_key_file_signs_checkpoints_and_home_shows_it(make_app, fresh_db, tmp_path):
    import json

    from audit.keys import key_document
    from audit.operator.ledger import Ledger

    other = str(tmp_path / "other.key")
    assert CliRunner().invoke(main, ["keys", "new", "--out", other]).exit_code == 0
    r = make_app(fresh_db, TIPLU_LOG_KEY_FILE=other).test_client().get("/api/v1/log/checkpoint")
    assert r.status_code == 503 and r.get_json()["error"]["code"] == "log_key_not_operator"  # never a key beside another's
    key_file = tmp_path / "log.key"  # the operator's own key file: one key for operator and log
    with Ledger(fresh_db) as ledger:
        key_file.write_text(json.dumps(key_document(ledger.signing_key("demo-operator"))))
    client = make_app(fresh_db, TIPLU_LOG_KEY_FILE=str(key_file)).test_client()
    cp = client.get("/api/v1/log/checkpoint").get_json()
    assert cp["checkpoint"].startswith("tiplu.local/log/demo-operator\n") and isinstance(cp["size"], int)
    assert cp["operator"] == "demo-operator"
    page = client.get("/").get_data(as_text=True)
    assert "data-checkpoint" in page and cp["root"] in page
