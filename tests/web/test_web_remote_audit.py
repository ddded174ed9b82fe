"""`tiplu audit URL` against a live server on 127.0.0.1: the operator's records over the JSON API."""
from __future__ import annotations

import json
import threading

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from web.cli import main
from web import create_app


@pytest.fixture(scope="module")
def served_demo(tmp_path_factory):
    d = tmp_path_factory.mktemp("demo")
    res = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(d)])
    assert res.exit_code == 0, res.output
    app = create_app({"TESTING": True, "TIPLU_DB": str(d / "tiplu.db")})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", json.loads((d / "tampered.json").read_text())
    server.shutdown()


def test_audit_over_the_api_catches_every_forgery(served_demo):
    url, tampered = served_demo
    res = CliRunner().invoke(main, ["audit", url, "--json", "--no-progress"])
    report = json.loads(res.output)
    assert report["total"] == 20
    assert {f["hand_id"] for f in report["failures"]} == set(tampered)
    assert res.exit_code == 1


@pytest.mark.parametrize("as_json", [False, True])
def test_an_unreachable_operator_is_no_audit_not_a_malformed_record(as_json):
    """Issue 29 item 16: nothing listening used to print a `malformed` failure with a Python
    exception's text and count it as a record.  Now: one line saying the operator could not be
    reached, exit 1, nothing on stdout (no report, no record counted)."""
    res = CliRunner().invoke(main, ["audit", "http://127.0.0.1:9/", "--no-progress", *(["--json"] if as_json else [])])
    assert res.exit_code == 1
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "could not be reached" in lines[0] and "nothing was audited" in lines[0]
    assert "malformed" not in lines[0] and "Error" not in lines[0] and "HTTPConnection" not in lines[0]


def test_a_site_that_is_no_operator_is_no_audit(served_demo):
    url, _ = served_demo
    res = CliRunner().invoke(main, ["audit", url + "/nothing-here", "--no-progress"])
    assert res.exit_code == 1 and res.stdout == ""
    assert "answered HTTP 404" in res.stderr and "nothing was audited" in res.stderr
