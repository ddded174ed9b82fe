"""Every error a client gets is in the one JSON shape, whoever answers (issue 29, item 10):

* gunicorn's own answers (a request line or headers past its limits) come as JSON 414/431,
  not gunicorn's HTML (``web/gunicorn_errors.py``, loaded by ``gunicorn.conf.py``);
* ``/openapi.json`` lists, for every route, the errors its kind of route can answer --
  derived here from the app's URL map and its rate limiter, not from the document;
* a secret store readable by others is the server's misconfiguration: 503, naming no path.
"""
from __future__ import annotations

import importlib.util
import os
import re
import socket

import pytest

from web.errors import error_body
from web.limits import PUBLIC, TOKEN_KINDS, limit_of


def _path(rule: str) -> str:
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule)


def test_openapi_lists_the_errors_each_route_can_answer_derived_from_the_routes(app, client):
    doc = client.get("/openapi.json").get_json()
    missing = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = _path(rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            documented = set(doc["paths"][path][method.lower()]["responses"])
            need = set()
            if rule.arguments or method == "POST":
                need.add("400")  # a path id or a body can be malformed
            if method == "POST":
                need.add("413")  # any body can be too large
            if limit_of(app, rule.endpoint) in TOKEN_KINDS:
                need |= {"401", "429"}  # a token route, limited per address on failed authentication
            elif method == "GET" and limit_of(app, rule.endpoint) == PUBLIC:
                need.add("503")  # an anonymous read past the read slots: 503 busy
            missing += [f"{method} {path}: {code}" for code in sorted(need - documented)]
    assert not missing, missing


def test_a_token_route_really_answers_429_in_the_shape(make_app, fresh_db, site):
    app = make_app(fresh_db, TIPLU_AUTH_FAIL_LIMIT=2)
    client = app.test_client()
    hid = site.hands["committed"]
    answers = [client.post(f"/api/v1/operator/hands/{hid}/publish", headers={"Authorization": "Bearer tpl_nope"})
               for _ in range(3)]
    assert [a.status_code for a in answers] == [401, 401, 429]
    assert answers[-1].get_json() == error_body(429, "rate_limited", answers[-1].get_json()["error"]["message"])


def test_a_publish_with_a_malformed_id_is_the_documented_400(client, site):
    resp = client.post("/api/v1/operator/hands/bad%20id!/publish", headers={"Authorization": f"Bearer {site.operator_token}"})
    assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "malformed"


def test_a_secret_store_readable_by_others_is_a_5xx_that_names_no_path(make_app, fresh_db, site, caplog):
    from audit.operator.ledger.secret_store import secrets_path_for

    store = str(secrets_path_for(fresh_db))
    os.chmod(store, 0o644)
    client = make_app(fresh_db).test_client()
    headers = {"Authorization": f"Bearer {site.operator_token}"}
    resp = client.post("/api/v1/operator/hands", headers=headers, json={"table_id": "t1", "players": ["asha", "bikash", "chandra"]})
    body = resp.get_json()
    assert resp.status_code == 503 and body["error"]["code"] == "misconfigured", body
    text = resp.get_data(as_text=True)
    assert store not in text and os.path.basename(store) not in text and "/" not in body["error"]["message"]
    assert "chmod" not in text
    # the operator's log says what to fix
    assert any(store in r.getMessage() for r in caplog.records)


needs_gunicorn = pytest.mark.skipif(importlib.util.find_spec("gunicorn") is None, reason="needs gunicorn")


def _raw(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


@needs_gunicorn
def test_gunicorn_s_own_414_and_431_are_in_the_one_json_shape(site):
    import json

    from bench.servekit import Server

    server = Server(site.db_path, workers=1, threads=1).start()
    try:
        status, headers, body = _raw(server.port, b"GET /api/v1/hands?x=" + b"a" * 6000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status == 414 and headers["content-type"] == "application/json", (status, headers, body[:200])
        assert json.loads(body) == error_body(414, "uri_too_long", json.loads(body)["error"]["message"])
        status, headers, body = _raw(server.port, b"GET /api/v1/hands HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n")
        assert status == 431 and headers["content-type"] == "application/json", (status, headers, body[:200])
        assert json.loads(body)["error"]["code"] == "request_header_fields_too_large"
        many = b"".join(b"X-H%d: 1\r\n" % i for i in range(150))
        status, headers, body = _raw(server.port, b"GET /api/v1/hands HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
        assert status == 431 and json.loads(body)["error"]["status"] == 431
        assert b"aaaa" not in body  # the request line is never echoed
        # an ordinary request still gets the app's own answers
        status, headers, body = _raw(server.port, b"GET /api/v1/hands/nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status == 404 and json.loads(body)["error"]["code"] == "not_found"
    finally:
        server.stop()
