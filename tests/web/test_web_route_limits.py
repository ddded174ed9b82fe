"""Each route declares its limit (web/limits.py); the limits follow the declaration, never the
endpoint's name (issue 31: a token route named otherwise than ``api.seat_*`` or
``operator_api.*`` got no limit at all).

* every route of the app is walked (``app.url_map``) and asked, with a token of the right form
  that no ledger issued and with none: one that answers 401 takes a token and must declare a
  token limit; one that writes (any method but GET and HEAD) must too, but for the anonymous
  verdict under a posted policy (:data:`ANONYMOUS_POSTS`), which computes and stores nothing;
* the attack performed: a token route named unusually, in a blueprint of its own, is refused
  429 past the failed-authentication limit like every other;
* the walk is shown to find that route when it declares nothing, and a token route added
  after the limits were set up is refused, never served unlimited.
"""
from __future__ import annotations

import flask
import pytest

from web import blueprints
from web.auth import require_operator
from web.limits import BUILTIN, FILE, KINDS, PUBLIC, SEAT_WRITE, TOKEN, TOKEN_KINDS, limit_of, token_route

BAD_TOKEN = {"Authorization": "Bearer tpl_0000000000000000_" + "A" * 43}
#: POST routes that need no token: they change nothing (a verdict computed under the caller's policy)
ANONYMOUS_POSTS = {"api.get_verdict"}
WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def _url(app: flask.Flask, rule) -> str:
    values = {arg: 0 if type(conv).__name__ == "SeatConverter" else "x" for arg, conv in rule._converters.items()}
    with app.test_request_context():
        return flask.url_for(rule.endpoint, **values)


def undeclared_token_routes(app: flask.Flask) -> list[str]:
    """Every route that takes a token (answers 401 to a bad one or to none) or writes, without
    a declared token limit."""
    client = app.test_client()
    found = []
    for rule in app.url_map.iter_rules():
        declared = limit_of(app, rule.endpoint)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            url = _url(app, rule)
            statuses = {client.open(url, method=method, headers=headers, json={} if method in WRITES else None).status_code
                        for headers in (BAD_TOKEN, {})}
            takes_token = 401 in statuses
            writes = method in WRITES and rule.endpoint not in ANONYMOUS_POSTS
            if (takes_token or writes) and declared not in TOKEN_KINDS:
                found.append(f"{method} {rule.rule} ({rule.endpoint}): declares {declared}")
    return found


def test_every_token_and_write_route_declares_its_limit(make_app, fresh_db):
    app = make_app(fresh_db, TIPLU_READ_SLOTS=0, TIPLU_AUTH_FAIL_LIMIT=10_000)
    assert undeclared_token_routes(app) == []
    kinds = {limit_of(app, rule.endpoint) for rule in app.url_map.iter_rules()}
    assert kinds == set(KINDS)   # the walk met every kind: a token route, a seat write, a file, a public read
    assert {limit_of(app, e) for e in ("api.seat_commit", "api.seat_reveal")} == {SEAT_WRITE}
    assert limit_of(app, "static") == BUILTIN["static"] == FILE and limit_of(app, "api.list_hands") == PUBLIC


def _odd_area(declared: bool) -> flask.Blueprint:
    bp = flask.Blueprint("odd", __name__, url_prefix="/api/v1/odd")

    def give_out(hand_id: str):   # a token route named like nothing the old prefixes knew
        require_operator()
        return {"hand_id": hand_id}

    bp.post("/<hand_id>/give")(token_route(give_out) if declared else give_out)
    return bp


@pytest.fixture
def with_odd_area(monkeypatch):
    def install(declared: bool) -> None:
        register = blueprints.init_app

        def init_app(app, *args, **kwargs):
            register(app, *args, **kwargs)
            app.register_blueprint(_odd_area(declared))
        monkeypatch.setattr(blueprints, "init_app", init_app)
    return install


def test_a_token_route_named_unusually_is_limited_all_the_same(make_app, fresh_db, with_odd_area):
    with_odd_area(declared=True)
    client = make_app(fresh_db, TIPLU_AUTH_FAIL_LIMIT=3).test_client()
    answers = [client.post("/api/v1/odd/h1/give", headers=BAD_TOKEN) for _ in range(5)]
    assert [a.status_code for a in answers] == [401, 401, 401, 429, 429]
    assert answers[-1].get_json()["error"]["code"] == "rate_limited" and "Retry-After" in answers[-1].headers
    # the count is the address's, over every token route: the operator API is refused too now
    assert client.post("/api/v1/operator/hands/h1/commit", headers=BAD_TOKEN).status_code == 429


def test_the_walk_finds_a_token_route_that_declares_nothing(make_app, fresh_db, with_odd_area):
    with_odd_area(declared=False)
    app = make_app(fresh_db, TIPLU_READ_SLOTS=0, TIPLU_AUTH_FAIL_LIMIT=10_000)
    assert undeclared_token_routes(app) == ["POST /api/v1/odd/<hand_id>/give (odd.give_out): declares public"]


def test_a_token_route_added_after_the_limits_is_refused_not_served_unlimited(make_app, fresh_db):
    app = make_app(fresh_db)
    app.register_blueprint(_odd_area(declared=True))
    app.testing = False      # the error handler's answer, as a server gives it
    r = app.test_client().post("/api/v1/odd/h1/give", headers=BAD_TOKEN)
    assert r.status_code == 500


def test_a_declaration_of_no_known_kind_stops_the_app(make_app, fresh_db, monkeypatch):
    from web import static_files

    monkeypatch.setattr(static_files.favicon, "tiplu_limit", "lenient")
    with pytest.raises(ValueError, match=r"route 'files.favicon' declares the unknown limit 'lenient'"):
        make_app(fresh_db)


def test_the_kinds_are_what_the_module_says():
    assert TOKEN_KINDS == (TOKEN, SEAT_WRITE) and set(KINDS) == {PUBLIC, FILE, TOKEN, SEAT_WRITE}
