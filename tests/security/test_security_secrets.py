"""Secrets and access: no unrevealed server seed anywhere; tokens guard every write.

* Every GET route (pages, JSON API, transparency log, OpenAPI) is driven for every hand of
  a ledger holding hands in every lifecycle state, plus the operator verbs each state
  refuses; no response body, header or log line (captured at DEBUG) contains an unrevealed
  server seed in hex (either case) or base64 (standard, URL-safe, unpadded).  A whole hand
  driven over HTTP is scanned after every step, and the seed must appear once revealed
  (the scan can see it: a positive control).
* Operator routes answer 401 without a token or with a wrong one, 403 for a seat token or
  another operator's token; a seat token acts only on its own hand and seat.
* The public write routes are rate limited (429 in the one error shape).
* Secrets are compared in constant time: an AST scan of ``replay/``, ``audit/`` and ``web/``
  finds no ``==``/``!=`` on names that hold tokens, seeds, commitments, signatures or MACs.
"""
from __future__ import annotations

import ast
import json
import logging
import pathlib
import re

import pytest

from security_kit import check_api_response, find_leaks

ROOT = pathlib.Path(__file__).resolve().parents[2]
OPERATOR_TOKEN: list[str] = [""]  # the site's operator token, set by the app fixture
STATES = ["created", "committed", "seeds-committed", "seeds-revealed", "dealt", "finished", "revealed", "cancelled"]


@pytest.fixture
def app(make_app, site):
    OPERATOR_TOKEN[0] = site.operator_token
    from audit.operator.ledger import Ledger
    from audit.tlog.checkpoint import CheckpointSigner
    from web_testkit import OPERATOR

    # the log is signed by the operator's own key (one log per operator; another key is 503 log_key_not_operator)
    ledger = Ledger(site.db_path)
    try:
        key = ledger.signing_key(OPERATOR)
    finally:
        ledger.close()
    return make_app(TIPLU_RATE_LIMIT=10 ** 9, TIPLU_AUTH_FAIL_LIMIT=10 ** 9, TIPLU_STATS_WAIT=600,
                    TIPLU_CHECKPOINT_SIGNER=CheckpointSigner(key, f"tiplu.test/log/{OPERATOR}"))


def _unrevealed(app) -> dict[str, str]:
    """hand id -> server seed hex, for every hand still neither revealed nor cancelled (read privately)."""
    from audit.operator.ledger import Ledger

    with Ledger(app.config["TIPLU_DB"]) as ledger:
        return {v.id: ledger._server_seed(v.id).hex() for v in ledger.list_hands()
                if v.state.value not in ("revealed", "cancelled", "created")}


def _get_paths(app, hand_ids, table_ids, operators) -> list[str]:
    paths = ["/", "/verify", "/openapi.json", "/api/v1/hands", "/api/v1/tables", "/api/v1/operators",
             "/api/v1/log/checkpoint", "/api/v1/log/entries?start=0&end=256",
             "/api/v1/log/proof/inclusion?index=0", "/api/v1/log/proof/consistency?first=1", "/api/v1/log/policy",
             "/api/v1/operator/whoami", "/stats", "/api/v1/stats",
             "/collusion", "/api/v1/collusion", "/collusion/account/asha", "/collusion/account/nope"]
    paths += [f"/api/v1/hands?state={s}" for s in STATES] + ["/api/v1/hands?limit=200"]
    for h in hand_ids:
        paths += [f"/hands/{h}", f"/api/v1/hands/{h}", f"/api/v1/hands/{h}/record", f"/api/v1/hands/{h}/verdict",
                  f"/api/v1/hands/{h}/statements", f"/api/v1/hands/{h}/log-proofs",
                      f"/api/v1/hands/{h}/move-receipts"]
    for t in table_ids:
        paths += [f"/tables/{t}", f"/api/v1/tables/{t}"]
    paths += [f"/api/v1/operators/{o}" for o in operators]
    # each operator's C2SP tiles: the checkpoint, the tree tile and entry bundle (partial at this size), a bad path
    for o in operators:
        paths += [f"/log/{o}/checkpoint", f"/log/{o}/tile/0/000", f"/log/{o}/tile/entries/000", f"/log/{o}/nope"]
        head = app.test_client().get(f"/log/{o}/checkpoint")
        if head.status_code == 200:
            size = int(head.get_data(as_text=True).split("\n")[1])
            if 0 < size < 256:
                paths += [f"/log/{o}/tile/0/000.p/{size}", f"/log/{o}/tile/entries/000.p/{size}"]
    # every GET rule of the app is covered by the list above (a new route must be added here)
    covered = {re.sub(r"\?.*", "", p) for p in paths}
    for rule in app.url_map.iter_rules():
        if "GET" in rule.methods and not rule.rule.startswith(("/static", "/verify/", "/favicon")):
            pattern = re.sub(r"<[^>]+>", "[^/]+", rule.rule) + "$"
            assert any(re.match(pattern, p) for p in covered), f"GET {rule.rule} is not scanned"
    return paths


def _scan(client, paths, app, caplog, *, headers=None) -> list[tuple[str, int]]:
    seen = []
    for path in paths:
        caplog.clear()
        resp = client.get(path, headers=headers or {"Authorization": f"Bearer {OPERATOR_TOKEN[0]}"})
        seen.append((path, resp.status_code))
        assert resp.status_code < 500, (path, resp.get_data(as_text=True)[:300])
        secrets = _unrevealed(app)
        body = resp.get_data()  # tiles and entry bundles are bytes: each byte one character, the JSON entries kept
        text = (body.decode("latin-1") if resp.mimetype == "application/octet-stream" else body.decode("utf-8"))
        text += json.dumps(dict(resp.headers))
        text += "\n".join(r.getMessage() + str(r.exc_info or "") for r in caplog.records)
        leaks = find_leaks(text, secrets.values())
        assert not leaks, f"GET {path} shows the unrevealed server seed of {[h for h, s in secrets.items() if s in leaks]}"
    return seen


# rule R-22: the server seed is published only after the hand; until then no route shows it
def test_no_route_no_error_and_no_log_line_shows_an_unrevealed_seed(site, app, caplog):
    caplog.set_level(logging.DEBUG)
    client = app.test_client()
    secrets = _unrevealed(app)
    assert len(secrets) >= 5  # hands at committed .. finished hold private seeds
    hand_ids = sorted(site.hands.values()) + ["no-such-hand"]
    seen = _scan(client, _get_paths(app, hand_ids, ["t1", "t-other", "nope"], ["demo-operator", "nope"]), app, caplog)
    assert any(code == 200 for _, code in seen) and any(code == 404 for _, code in seen)
    # the operator's entry bundle (its statements as served in tiles) was read, not only refused
    assert any(p.startswith("/log/demo-operator/tile/entries/000.p/") and code == 200 for p, code in seen)
    # the operator verbs each state refuses: their error messages carry no seed either
    op = {"Authorization": f"Bearer {site.operator_token}"}
    for h in hand_ids:
        for verb in ("commit", "deal", "reveal"):
            caplog.clear()
            resp = client.post(f"/api/v1/operator/hands/{h}/{verb}", headers=op)
            check_api_response(resp.status_code, resp.data, resp.content_type, where=f"{verb} {h}")
            text = resp.get_data(as_text=True) + "\n".join(r.getMessage() for r in caplog.records)
            assert not find_leaks(text, _unrevealed(app).values()), f"{verb} {h}"


# rules: seeds committed before any reveal; the server seed shown only once revealed
def test_a_hand_driven_over_http_shows_its_seed_only_once_revealed(site, app, caplog):
    from replay.fairness import commit_player_seed

    caplog.set_level(logging.DEBUG)
    client = app.test_client()
    op = {"Authorization": f"Bearer {site.operator_token}"}
    resp = client.post("/api/v1/operator/hands", headers=op,
                       json={"table_id": "t1", "players": ["asha", "bikash", "chandra"], "hand_id": "sec-h1"})
    assert resp.status_code == 201, resp.get_json()
    paths = _get_paths(app, ["sec-h1"], ["t1"], ["demo-operator"])
    seeds = [bytes([0x40 + s]) * 16 for s in range(3)]

    def step(method_path, body=None, headers=op, expect=(200, 201)):
        r = client.post(method_path, headers=headers, json=body)
        assert r.status_code in expect, (method_path, r.get_json())
        assert not find_leaks(r.get_data(as_text=True), _unrevealed(app).values()), method_path
        _scan(client, paths, app, caplog)
        return r.get_json()

    step("/api/v1/operator/hands/sec-h1/commit")
    seed_hex = _unrevealed(app)["sec-h1"]
    tokens = [step(f"/api/v1/operator/hands/sec-h1/seats/{s}/token")["token"] for s in range(3)]
    for s in range(3):
        step(f"/api/v1/hands/sec-h1/seats/{s}/commit", {"commitment": commit_player_seed("sec-h1", s, seeds[s])},
             headers={"Authorization": f"Bearer {tokens[s]}"})
    for s in range(3):
        step(f"/api/v1/hands/sec-h1/seats/{s}/reveal", {"seed": seeds[s].hex()},
             headers={"Authorization": f"Bearer {tokens[s]}"})
    step("/api/v1/operator/hands/sec-h1/deal")
    from audit.operator.ledger import Ledger
    from audit.operator.sim.play import bot_moves

    with Ledger(app.config["TIPLU_DB"]) as ledger:  # the operator's game server: the moves as played
        moves = bot_moves(ledger, "sec-h1")
    step("/api/v1/operator/hands/sec-h1/finish", {"moves": moves})
    assert "sec-h1" in _unrevealed(app)
    revealed = client.post("/api/v1/operator/hands/sec-h1/reveal", headers=op)
    assert revealed.status_code == 200
    # positive control: once revealed, the same scan finds the seed where it is published
    assert find_leaks(client.get("/api/v1/hands/sec-h1").get_data(as_text=True), [seed_hex]) == [seed_hex]


# -- access ---------------------------------------------------------------------------------

def _operator_routes(app) -> list[str]:
    out = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/operator/"):
            out.append(rule.rule.replace("<hand_id>", "t1-s1-committed").replace("<seat:seat>", "0"))
    return out


def test_operator_routes_refuse_missing_wrong_and_player_tokens(site, app):
    client = app.test_client()
    routes = _operator_routes(app)
    assert len(routes) >= 9
    seat_token = site.seat_tokens[(site.hands["committed"], 0)]
    wrong = site.operator_token[:-4] + ("AAAA" if not site.operator_token.endswith("AAAA") else "BBBB")
    cases = [({}, 401), ({"Authorization": "Bearer "}, 401), ({"Authorization": "Basic abc"}, 401),
             ({"Authorization": f"Bearer {wrong}"}, 401), ({"Authorization": "Bearer tpl_0123456789abcdef_" + "x" * 43}, 401),
             ({"Authorization": f"Bearer {site.operator_token}\x00"}, 401),
             ({"Authorization": f"Bearer {seat_token}"}, 403)]
    for path in routes:
        method = client.get if path.endswith("whoami") else client.post
        for headers, status in cases:
            resp = method(path, headers=headers, json={"table_id": "t1", "players": ["a", "b", "c"]})
            check_api_response(resp.status_code, resp.data, resp.content_type, where=path)
            assert resp.status_code == status, (path, headers, resp.get_json())
    # another operator's token cannot touch this operator's hands or tables
    other = {"Authorization": f"Bearer {site.other_operator_token}"}
    for path in routes:
        if "/hands/" in path:
            assert client.post(path, headers=other, json={}).status_code == 403, path
    resp = client.post("/api/v1/operator/hands", headers=other, json={"table_id": "t1", "players": ["a", "b", "c"]})
    assert resp.status_code == 403


def test_a_player_acts_only_on_their_own_seat(site, app):
    from replay.fairness import commit_player_seed

    client = app.test_client()
    hand = site.hands["committed"]
    mine = {"Authorization": f"Bearer {site.seat_tokens[(hand, 0)]}"}
    body = {"commitment": commit_player_seed(hand, 1, b"\x01" * 16)}
    for path in (f"/api/v1/hands/{hand}/seats/1/commit", f"/api/v1/hands/{hand}/seats/2/reveal",
                 f"/api/v1/hands/{site.hands['created']}/seats/0/commit",
                 f"/api/v1/hands/{site.hands['seeds-committed']}/seats/0/reveal"):
        resp = client.post(path, headers=mine, json=body)
        check_api_response(resp.status_code, resp.data, resp.content_type, where=path)
        assert resp.status_code == 403, path
    # the operator's token is not a seat token either (a seat's seed is the player's)
    op = {"Authorization": f"Bearer {site.operator_token}"}
    assert client.post(f"/api/v1/hands/{hand}/seats/0/commit", headers=op, json=body).status_code == 403
    assert client.post(f"/api/v1/hands/{hand}/seats/0/commit", json=body).status_code == 401
    # and with its own token the seat's write goes through
    own = client.post(f"/api/v1/hands/{hand}/seats/0/commit", headers=mine,
                      json={"commitment": commit_player_seed(hand, 0, b"\x02" * 16)})
    assert own.status_code == 201, own.get_json()


def test_public_write_routes_are_rate_limited(site, make_app):
    app = make_app(TIPLU_AUTH_FAIL_LIMIT=5)
    client = app.test_client()
    hand = site.hands["committed"]
    codes = [client.post(f"/api/v1/hands/{hand}/seats/1/commit", json={"commitment": "00" * 32}).status_code
             for _ in range(8)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429] * 3, codes
    resp = client.post(f"/api/v1/hands/{hand}/seats/1/reveal", json={"seed": "00" * 16})
    check_api_response(resp.status_code, resp.data, resp.content_type, where="rate limit")
    assert resp.status_code == 429 and resp.get_json()["error"]["code"] == "rate_limited"
    other = client.post(f"/api/v1/hands/{hand}/seats/1/reveal", json={"seed": "00" * 16},
                        environ_overrides={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 401  # the failed-authentication limit is per client address


# -- constant-time comparison ---------------------------------------------------------------

SECRET_NAME = re.compile(r"token|secret|seed|commit|digest|(^|_)sig(nature)?s?($|_)|(^|_)mac($|_)|password|"
                         r"(^|_)hash($|_)|(^|_)root($|_)", re.I)
# Comparisons of *public* values, where timing reveals nothing the caller does not already have:
PUBLIC_COMPARISONS = {
    ("replay/rulesets.py", "self.hash == other.hash"): "Ruleset.__eq__: value equality of public rulesets",
    ("replay/known_answers.py", "vector.get('ruleset_hash') != ruleset.hash"): "known-answer tool over public vectors",
    ("audit/operator/ledger/ledger.py", "seen['hand']['ruleset_hash'] != view.ruleset_hash"): "public ruleset hash",
    ("audit/auditor/monitor/watch.py", "body.get('root') != cp.root.hex()"): "public tree roots, client side",
    ("audit/auditor/monitor/watch.py", "new.root != old.root"): "public tree roots, client side",
    ("audit/auditor/monitor/watch.py", "small.root != large.root"): "public tree roots, client side",
    ("replay/faults.py", "fault.statement == root.statement"): "statement numbers (1, 2, ...) of two faults",
    ("audit/tlog/cosignature.py", "vkey.sig_type != TYPE_COSIGNATURE_ED25519"): "signed-note key type byte (public)",
    ("audit/auditor/run/auditstate.py", "seen != cp.root"): "public tree roots of two signed checkpoints, auditor side",
    ("audit/auditor/run/auditstate.py", "self.stored.root != cp.root"): "public tree roots of two signed checkpoints, auditor side",
    ("audit/tlog/note.py", "vkey.sig_type != TYPE_ED25519"): "signed-note key type byte (public)",
    ("audit/tlog/note.py", "vtype != sig_type"): "signed-note key type byte (public)",
    ("audit/auditor/evidence/leaf_slots.py", "_last_hash(db, read) != last"): "public log leaf hashes (is the cached log still this file's)",
}


def _names(node: ast.AST) -> list[str]:
    return [n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute))]


def secret_comparisons(paths) -> list[tuple[str, int, str]]:
    """Every ``==``/``!=`` between two non-literal operands naming a secret-like value."""
    found = []
    for path in paths:
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare) or not any(isinstance(o, (ast.Eq, ast.NotEq)) for o in node.ops):
                continue
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Constant) for s in sides):
                continue  # against a literal (None checks, kinds, lengths compared to numbers)
            if any(isinstance(s, (ast.Compare, ast.BoolOp)) for s in sides):
                continue  # booleans: (a is None) == (b is None)
            if any(isinstance(s, ast.Call) and isinstance(s.func, ast.Name) and s.func.id in ("len", "type", "set")
                   for s in sides):
                continue
            if any(SECRET_NAME.search(n) for s in sides for n in _names(s)):
                found.append((rel, node.lineno, ast.unparse(node)))
    return found


def test_secrets_are_compared_in_constant_time():
    paths = [p for d in ("replay", "audit", "web") for p in sorted((ROOT / d).rglob("*.py"))]
    found = [(rel, line, expr) for rel, line, expr in secret_comparisons(paths)
             if (rel, expr) not in PUBLIC_COMPARISONS]
    assert not found, "use hmac.compare_digest for: " + "; ".join(f"{r}:{n}: {e}" for r, n, e in found)
    # and the places that do compare secrets use it
    for rel in ("audit/operator/tokens.py", "replay/fairness.py", "audit/signing.py", "audit/tlog/merkle.py"):
        assert "hmac.compare_digest" in (ROOT / rel).read_text(encoding="utf-8"), rel


def test_the_constant_time_scan_catches_a_plain_comparison(tmp_path):
    bad = ROOT / "tests" / "security" / "_probe_bad_compare.py"
    src = "def check(token, stored_hash):\n    return token == stored_hash\n"
    bad.write_text(src)
    try:
        assert [e for _, _, e in secret_comparisons([bad])] == ["token == stored_hash"]
    finally:
        bad.unlink()
