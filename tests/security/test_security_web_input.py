"""Bad input over HTTP: every rejection is a 4xx in the one JSON error shape, never a 5xx.

* schemathesis generates requests for every operation of ``/openapi.json`` (driven through
  the Flask app over WSGI), with no token, an operator token or a seat token, and with path
  parameters that name real hands in every lifecycle state as well as random text;
* hand-written attacks: oversized bodies (413), deeply nested JSON (100,000 levels), bodies
  that are not UTF-8 or not JSON, lone surrogates, NUL, right-to-left overrides and
  homoglyph ids, negative and huge amounts, wrong JSON types.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from security_kit import check_api_response, copy_db, find_leaks


@pytest.fixture(scope="module")
def fuzz_app(site, tmp_path_factory):
    from web import create_app

    from audit.operator.ledger import Ledger
    from audit.tlog.checkpoint import CheckpointSigner
    from web_testkit import OPERATOR

    db = copy_db(site.db_path, str(tmp_path_factory.mktemp("fuzz") / "fuzz.db"))
    with Ledger(db) as ledger:  # the site's log key is its operator's own key (one log per operator)
        signer = CheckpointSigner(ledger.signing_key(OPERATOR), "tiplu.test/log")
    # TIPLU_STATS_WAIT: the statistics and the collusion review are computed in the background
    # and answer 503 "computing" until done (documented); this fuzzing is about input, so it waits
    return create_app({"TESTING": True, "TIPLU_DB": db, "TIPLU_RATE_LIMIT": 10 ** 9, "TIPLU_AUTH_FAIL_LIMIT": 10 ** 9,
                       "TIPLU_CHECKPOINT_SIGNER": signer, "TIPLU_STATS_WAIT": 300})


def still_unrevealed(db_path: str, seeds: dict[str, str]) -> set[str]:
    """The seeds (hex) of hands that are still neither revealed nor cancelled (cancel publishes the seed)."""
    from audit.operator.ledger import Ledger

    with Ledger(db_path) as ledger:
        return {seed for hid, seed in seeds.items()
                if ledger.get_hand(hid).state.value not in ("revealed", "cancelled")}


def _auth_headers(site, choice: int) -> dict[str, str]:
    seat_token = next(iter(site.seat_tokens.values()))
    token = [None, site.operator_token, seat_token, "tpl_0000000000000000_" + "A" * 43, "garbage"][choice]
    return {} if token is None else {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_schemathesis_every_operation(site, fuzz_app, mode):
    """Valid requests (``positive``) and requests that break the schema on purpose
    (``negative``: a list or an object where an id belongs, out-of-range integers, wrong
    types in every body field) -- the negative run is the one that finds a parser handing
    outside values to ``int()`` or to SQL unchecked."""
    schemathesis = pytest.importorskip("schemathesis")
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode

    schema = schemathesis.openapi.from_wsgi("/openapi.json", fuzz_app)
    operations = [r.ok() for r in schema.get_all_operations()]
    assert len(operations) >= 20
    hand_ids = sorted(set(site.hands.values()))
    generation = GenerationMode(mode)
    ran = 0

    for op in operations:
        @settings(max_examples=12 if mode == "positive" else 40, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=op.as_strategy(generation), auth=st.integers(0, 4), real=st.sampled_from([None, *hand_ids]))
        def run(case, auth, real):
            if real is not None and case.path_parameters and "hand_id" in case.path_parameters:
                case.path_parameters["hand_id"] = real
            if mode == "negative":  # the right token, so that broken bodies reach the parsers
                auth = 1 if "/operator/" in case.path else 2 if "/seats/" in case.path else auth
            headers = {**(case.headers or {}), **_auth_headers(site, auth)}
            resp = case.call(headers=headers)
            where = f"{case.method} {case.formatted_path} {case.query}"
            content_type = resp.headers.get("content-type", resp.headers.get("Content-Type", [""]))
            content_type = content_type[0] if isinstance(content_type, list) else content_type
            check_api_response(resp.status_code, resp.content, content_type, where=where)
            leaks = find_leaks(resp.content.decode("utf-8", "replace"), site.secret_seeds.values())
            still_secret = still_unrevealed(fuzz_app.config["TIPLU_DB"], site.secret_seeds)
            assert not set(leaks) & still_secret, f"{where}: leaks an unrevealed server seed"

        try:
            run()
            ran += 1
        except Unsatisfiable:  # negative mode: an operation with nothing to break (no parameter, no body)
            assert mode == "negative", op
    assert ran >= (20 if mode == "positive" else 12), ran


WRITE_ROUTES = ["/api/v1/operator/tables", "/api/v1/operator/hands", "/api/v1/operator/hands/{h}/finish",
                "/api/v1/operator/hands/{h}/cancel", "/api/v1/hands/{h}/seats/0/commit",
                "/api/v1/hands/{h}/seats/0/reveal"]


def _routes(site):
    h = site.hands["committed"]
    return [r.format(h=h) for r in WRITE_ROUTES]


def _post(client, site, path, **kw):
    token = site.seat_tokens[(site.hands["committed"], 0)] if "/seats/" in path else site.operator_token
    headers = {"Authorization": f"Bearer {token}", **kw.pop("headers", {})}
    return client.post(path, headers=headers, **kw)


def test_oversized_bodies_get_413(site, make_app):
    app = make_app()
    client = app.test_client()
    big = b'{"x": "' + b"a" * (app.config["MAX_CONTENT_LENGTH"] + 10) + b'"}'
    for path in _routes(site):
        resp = _post(client, site, path, data=big, content_type="application/json")
        check_api_response(resp.status_code, resp.data, resp.content_type, where=path)
        assert resp.status_code == 413


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deeply_nested_json_bodies_are_refused_cleanly(site, make_app, depth):
    client = make_app().test_client()
    for opener, closer in (("[", "]"), ('{"a":', "}")):
        body = opener * depth + "1" + closer * depth
        for path in _routes(site):
            resp = _post(client, site, path, data=body, content_type="application/json")
            check_api_response(resp.status_code, resp.data, resp.content_type, where=f"{path} depth {depth}")
            assert 400 <= resp.status_code < 500
    # a deep value inside an otherwise valid finish body
    nested = "[" * 5_000 + "]" * 5_000
    body = '{"record": {"hand_id": "%s", "moves": %s}}' % (site.hands["dealt"], nested)
    resp = _post(client, site, f"/api/v1/operator/hands/{site.hands['dealt']}/finish", data=body,
                 content_type="application/json")
    check_api_response(resp.status_code, resp.data, resp.content_type, where="finish with a deep record")


ODD_BODIES = [b"\xff\xfe\x00", b"not json", b"[1, 2]", b'"text"', b"null", b"NaN", b'{"a": NaN}',
              b'{"a": Infinity}', b'{"a": 1e999999}', b'{"commitment": "\\ud800"}', b'{"seed": "\\udfff\\ud800"}',
              '{"table_id": "t\u202e1", "preset": "kitti"}'.encode(), b'{"table_id": "t\\u0000x", "preset": "kitti"}',
              '{"table_id": "tА", "preset": "kіtti"}'.encode(), b'{"a":' * 10 + b"1", b"{" + b'"k":1,' * 20000 + b'"k":2}']


@pytest.mark.parametrize("body", ODD_BODIES, ids=range(len(ODD_BODIES)))
def test_odd_bodies_are_refused_in_the_error_shape(site, make_app, body):
    client = make_app().test_client()
    for path in _routes(site):
        resp = _post(client, site, path, data=body, content_type="application/json")
        check_api_response(resp.status_code, resp.data, resp.content_type, where=f"{path} {body[:40]!r}")


TRICKY_IDS = ["t1-h0000\x00", "t1-h0000\u202e", "t1-h000\u0430", "%ED%A0%80", "%FF%FE", "..", "%00", "t1-h0000%0a", "a" * 5000,
              "t1-h0000'; DROP TABLE hands; --", "ｔ1-h0000", "t1-h0000\u200b"]


@pytest.mark.parametrize("hand_id", TRICKY_IDS, ids=range(len(TRICKY_IDS)))
def test_tricky_ids_in_paths(site, make_app, hand_id):
    client = make_app().test_client()
    for path in (f"/api/v1/hands/{hand_id}", f"/api/v1/hands/{hand_id}/record", f"/api/v1/hands/{hand_id}/verdict",
                 f"/api/v1/hands/{hand_id}/statements", f"/api/v1/tables/{hand_id}", f"/api/v1/operators/{hand_id}"):
        resp = client.get(path)
        check_api_response(resp.status_code, resp.data, resp.content_type, where=repr(path))
    resp = _post(client, site, f"/api/v1/operator/hands/{hand_id}/commit")
    check_api_response(resp.status_code, resp.data, resp.content_type, where=repr(hand_id))


@pytest.mark.parametrize("amount", ["-1", "-0.01", "1e3", "1" * 40, "0.001", "NaN", "Infinity", "१", "+5", " 5",
                                    -1, 10 ** 30, 1.5, True, None, [], {}])
def test_negative_huge_and_odd_amounts_are_refused(site, make_app, amount):
    client = make_app().test_client()
    for field in ("point_value", "commission_pct"):
        body = {"table_id": "t-amounts", "preset": "kitti", "seats": 3, field: amount}
        resp = _post(client, site, "/api/v1/operator/tables", json=body)
        check_api_response(resp.status_code, resp.data, resp.content_type, where=f"{field}={amount!r}")
        assert resp.status_code == 400, (field, amount, resp.get_json())
    body = {"table_id": "t-amounts", "preset": "kitti", "seats": 3, "commission_pct": "100.01"}
    assert _post(client, site, "/api/v1/operator/tables", json=body).status_code == 400
    # the one rule of table money (replay/settlement.py; docs/records.md "Table money", rules D-2, R-2)
    for field, amount, says in (("commission_pct", "100", "commission_pct must be at least 0 and less than 100"),
                                ("point_value", "0", "point_value must be more than 0")):
        body = {"table_id": "t-amounts", "preset": "kitti", "seats": 3, field: amount}
        resp = _post(client, site, "/api/v1/operator/tables", json=body)
        assert resp.status_code == 400 and says in resp.get_data(as_text=True), resp.get_json()


@pytest.mark.parametrize("query", ["limit=-1", "limit=99999999999999999999", "offset=१", "limit=1e3", "state=\x00",
                                   "limit=%00", "start=-1&end=5", "index=18446744073709551616", "first=5&second=1",
                                   "offset=²", "limit=²", "start=²", "index=9223372036854775808",
                                   "start=9999999999999999999", "first=9223372036854775807"])
def test_odd_query_parameters(make_app, query):
    client = make_app().test_client()
    for path in ("/api/v1/hands", "/api/v1/log/entries", "/api/v1/log/proof/inclusion",
                 "/api/v1/log/proof/consistency"):
        resp = client.get(f"{path}?{query}")
        check_api_response(resp.status_code, resp.data, resp.content_type, where=f"{path}?{query}")


def test_wrong_json_types_in_lifecycle_bodies(site, make_app):
    client = make_app().test_client()
    values = [None, 0, -1, 2 ** 64, 1.5, True, "", "x" * 10000, [], {}, ["AS"], {"a": 1}]
    h = site.hands["committed"]
    for value in values:
        for path, key in ((f"/api/v1/hands/{h}/seats/0/commit", "commitment"),
                          (f"/api/v1/hands/{h}/seats/0/reveal", "seed"),
                          ("/api/v1/operator/hands", "players"), ("/api/v1/operator/hands", "dealer"),
                          ("/api/v1/operator/hands", "hand_id"), ("/api/v1/operator/tables", "overrides"),
                          ("/api/v1/operator/tables", "seats"), ("/api/v1/operator/tables", "preset"),
                          (f"/api/v1/operator/hands/{site.hands['dealt']}/finish", "record"),
                          (f"/api/v1/operator/hands/{site.hands['created']}/cancel", "reason")):
            body = {"table_id": "t1", "players": ["a", "b", "c"], "preset": "kitti", key: value}
            resp = _post(client, site, path, data=json.dumps(body), content_type="application/json")
            check_api_response(resp.status_code, resp.data, resp.content_type, where=f"{path} {key}={value!r:.40}")


def _dealt_hand(ledger, hid):
    """A three-seat Kitti hand of table t1, dealt and waiting for its record."""
    from replay.fairness import commit_player_seed

    ledger.new_hand("t1", ["asha", "bikash", "chandra"], hand_id=hid)
    ledger.commit(hid)
    for s in range(3):
        ledger.seed_commit(hid, s, commit_player_seed(hid, s, bytes([s + 1]) * 16))
    for s in range(3):
        ledger.seed_reveal(hid, s, bytes([s + 1]) * 16)
    ledger.deal(hid)


def test_pages_and_api_survive_any_record_an_operator_attaches(site, fuzz_app):
    """The operator API accepts any JSON object as a record; every page and route showing it must cope."""
    from hypothesis import HealthCheck

    from audit.operator.ledger import Ledger
    from replay.errors import TipluError
    from test_security_fuzz_parsers import json_values, mutations

    valid = site.records[site.hands["revealed0"]]
    client = fuzz_app.test_client()
    counter = iter(range(10 ** 6))

    @settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(mutations(valid), json_values).filter(lambda v: isinstance(v, dict)), st.booleans())
    def run(record, reveal):
        hid = f"fz-{next(counter)}"
        with Ledger(fuzz_app.config["TIPLU_DB"]) as ledger:
            _dealt_hand(ledger, hid)
            try:
                ledger.finish(hid, {**record, "hand_id": hid})
            except TipluError:  # e.g. floats or lone surrogates: refused before it is stored
                return
            if reveal:
                ledger.reveal(hid)
        for path in (f"/hands/{hid}", f"/api/v1/hands/{hid}", f"/api/v1/hands/{hid}/record",
                     f"/api/v1/hands/{hid}/verdict", f"/api/v1/hands/{hid}/statements"):
            resp = client.get(path)
            assert resp.status_code < 500, (path, record)
    run()
    for path in ("/tables/t1", "/api/v1/tables/t1", "/", "/api/v1/hands?limit=200"):
        assert client.get(path).status_code < 500, path


# -- the class behind the 500s of the review: outside values reaching int() or SQL ------------

INT_QUERIES = {"/api/v1/hands": ["limit", "offset"], "/api/v1/log/entries": ["start", "end"],
               "/api/v1/log/proof/inclusion": ["index", "size"], "/api/v1/log/proof/consistency": ["first", "second"]}


@pytest.mark.parametrize("fairness", [None, [], "x", 7])
def test_a_record_whose_fairness_is_no_object_is_shown_not_a_500(site, fuzz_app, fairness):
    """Found by the fuzz test above: the publisher assigned into a ``fairness`` of null."""
    from audit.operator.ledger import Ledger

    valid = site.records[site.hands["revealed0"]]
    client = fuzz_app.test_client()
    hid = f"nf-{type(fairness).__name__}"
    with Ledger(fuzz_app.config["TIPLU_DB"]) as ledger:
        _dealt_hand(ledger, hid)
        ledger.finish(hid, {**valid, "fairness": fairness, "hand_id": hid})
    for path in (f"/hands/{hid}", f"/api/v1/hands/{hid}/record", f"/api/v1/hands/{hid}/verdict"):
        assert client.get(path).status_code < 500, path


def test_every_integer_query_parameter_is_parsed_by_the_one_parser(make_app):
    """Hypothesis over every integer query parameter of the API: other scripts' digits
    (``²``, ``१``), signs, blanks, huge numbers around 2**63 -- a 4xx in the error shape."""
    from test_security_fuzz_parsers import tricky_text
    from urllib.parse import quote

    client = make_app(TIPLU_CHECKPOINT_SIGNER=None).test_client()
    huge = st.integers(min_value=2 ** 62, max_value=2 ** 70).map(str)
    values = st.one_of(tricky_text, huge, st.sampled_from(["²", "³", "¹", "٣", "१", "0x10", "+1", " 1", "1 "]))

    @settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(route=st.sampled_from(sorted(INT_QUERIES)), data=st.data(), value=values)
    def run(route, data, value):
        name = data.draw(st.sampled_from(INT_QUERIES[route]))
        extra = "" if name in ("limit", "offset", "start", "index", "first") else "&start=0&index=0&first=0"
        path = f"{route}?{name}={quote(value.encode('utf-8', 'surrogatepass'), safe='')}{extra}"
        resp = client.get(path)
        check_api_response(resp.status_code, resp.data, resp.content_type, where=path)
    run()


OPERATOR_BODIES = {
    "/api/v1/operator/tables": {"table_id": "t-fz", "preset": "kitti", "seats": 3, "point_value": "1",
                                "commission_pct": "0", "overrides": {}},
    "/api/v1/operator/hands": {"table_id": "t1", "players": ["asha", "bikash", "chandra"], "dealer": 0,
                               "hand_id": "h-fz"},
}


def test_every_body_field_of_the_operator_api_takes_any_json_value(site, make_app):
    """Each field of each operator body replaced by any JSON value -- lists, objects, integers
    up to 2**70, floats, tricky text (the review's ``table_id`` as a list, a dict or 2**63)."""
    from test_security_fuzz_parsers import json_values

    client = make_app().test_client()
    headers = {"Authorization": f"Bearer {site.operator_token}", "Content-Type": "application/json"}
    counter = iter(range(10 ** 6))
    specials = st.sampled_from([[], ["t1"], {}, {"id": "t1"}, 2 ** 63, 2 ** 63 - 1, -(2 ** 63) - 1, 2 ** 64, 10 ** 30])

    @settings(max_examples=200, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(route=st.sampled_from(sorted(OPERATOR_BODIES)), data=st.data(), value=st.one_of(specials, json_values))
    def run(route, data, value):
        # fresh ids, so that a body left valid is a 201, not a 409
        body = {**OPERATOR_BODIES[route], "table_id": "t1" if route.endswith("hands") else f"t-fz{next(counter)}"}
        if route.endswith("hands"):
            body["hand_id"] = f"h-fz{next(counter)}"
        field = data.draw(st.sampled_from(sorted(body)))
        body[field] = value
        try:
            text = json.dumps(body, allow_nan=True)
        except (ValueError, RecursionError):
            reject()
        resp = client.post(route, headers=headers, data=text)
        check_api_response(resp.status_code, resp.data, resp.content_type, where=f"{route} {field}={value!r:.60}")
    run()


@pytest.mark.parametrize("value", [[], ["t1"], {}, {"a": 1}, 2 ** 63, 2 ** 64, -1, 1.5, True, None])
def test_table_id_of_any_type_is_a_400(site, make_app, value):
    client = make_app().test_client()
    resp = _post(client, site, "/api/v1/operator/hands", json={"table_id": value, "players": ["a", "b", "c"]})
    check_api_response(resp.status_code, resp.data, resp.content_type, where=f"table_id={value!r}")
    assert resp.status_code == 400


@pytest.mark.parametrize("seat", ["99999999999999999999", "9223372036854775808", "64", "²", "-1", "1.0"])
def test_seat_numbers_in_paths_are_bounded(site, make_app, seat):
    client = make_app().test_client()
    h = site.hands["committed"]
    for path in (f"/api/v1/hands/{h}/seats/{seat}/commit", f"/api/v1/hands/{h}/seats/{seat}/reveal",
                 f"/api/v1/operator/hands/{h}/seats/{seat}/token"):
        resp = _post(client, site, path, json={"commitment": "00" * 32})
        check_api_response(resp.status_code, resp.data, resp.content_type, where=path)
        assert resp.status_code == 404, (path, resp.status_code)
