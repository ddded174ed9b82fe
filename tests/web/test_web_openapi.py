"""/openapi.json describes exactly the registered /api routes (and is OpenAPI 3.1)."""
from __future__ import annotations

import re

from web.openapi import document


def registered(app) -> set[tuple[str, str]]:
    out = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            out.add((path, method.lower()))
    return out


def described(doc) -> set[tuple[str, str]]:
    return {(path, method) for path, ops in doc["paths"].items() for method in ops}


def test_every_api_route_is_described_and_every_description_is_a_route(app, client):
    doc = client.get("/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1")
    assert registered(app) == described(doc)


def test_without_the_log_the_document_leaves_its_paths_out():
    assert not any(p.startswith("/api/v1/log") for p in document(with_log=False)["paths"])


def test_every_reference_resolves(client):
    doc = client.get("/openapi.json").get_json()
    text = str(doc)
    for name in set(re.findall(r"#/components/schemas/([A-Za-z]+)", text)):
        assert name in doc["components"]["schemas"], name
    for path, ops in doc["paths"].items():
        for op in ops.values():
            for p in op.get("parameters", []):
                if p["in"] == "path":
                    assert "{" + p["name"] + "}" in path
            assert "responses" in op and op["summary"]
