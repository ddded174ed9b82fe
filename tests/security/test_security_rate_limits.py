"""The write rate limits come after authentication: nobody can lock players out.

Attacks performed: flood a seat route with no token, a garbage token and a revoked-looking
token from the players' own address (and from behind the same reverse proxy); then the
honest players behind that address commit and reveal.  A player's own allowance is per
token (so per hand and seat); failures count per client address, and past their limit
only requests *without* a valid token are refused.
"""
from __future__ import annotations

import pytest

from replay.fairness import commit_player_seed

from security_kit import check_api_response

NAT = {"REMOTE_ADDR": "203.0.113.7"}


def _flood(client, hand, n, environ=NAT, headers=None):
    return [client.post(f"/api/v1/hands/{hand}/seats/0/commit", json={"commitment": "00" * 32},
                        environ_overrides=environ, headers=headers or {}).status_code for _ in range(n)]


def test_a_flood_without_tokens_does_not_lock_out_the_players_behind_the_same_address(site, make_app):
    app = make_app(TIPLU_AUTH_FAIL_LIMIT=10, TIPLU_RATE_LIMIT=60)
    client = app.test_client()
    hand = site.hands["committed"]
    codes = _flood(client, hand, 100) + _flood(client, hand, 20, headers={"Authorization": "Bearer garbage"})
    assert codes.count(401) == 10 and codes.count(429) == 110, codes
    # every honest seat behind that address still commits (a valid token is never refused here)
    for seat in range(3):
        token = site.seat_tokens[(hand, seat)]
        resp = client.post(f"/api/v1/hands/{hand}/seats/{seat}/commit", environ_overrides=NAT,
                           headers={"Authorization": f"Bearer {token}"},
                           json={"commitment": commit_player_seed(hand, seat, bytes([seat + 7]) * 16)})
        assert resp.status_code == 201, (seat, resp.get_json())


def test_a_players_allowance_is_their_own_token(site, make_app):
    app = make_app(TIPLU_RATE_LIMIT=4)
    client = app.test_client()
    hand = site.hands["committed"]
    mine = {"Authorization": f"Bearer {site.seat_tokens[(hand, 1)]}"}
    theirs = {"Authorization": f"Bearer {site.seat_tokens[(hand, 2)]}"}
    bad = {"commitment": "not hex"}  # a 400 each time: counted, changes nothing
    codes = [client.post(f"/api/v1/hands/{hand}/seats/1/commit", headers=mine, json=bad).status_code
             for _ in range(6)]
    assert codes == [400] * 4 + [429] * 2, codes
    resp = client.post(f"/api/v1/hands/{hand}/seats/1/reveal", headers=mine, json={"seed": "00" * 16})
    check_api_response(resp.status_code, resp.data, resp.content_type, where="per-token limit")
    assert resp.status_code == 429 and resp.get_json()["error"]["code"] == "rate_limited"
    assert "Retry-After" in resp.headers
    # another seat of the same hand, from the same address, is not affected
    assert client.post(f"/api/v1/hands/{hand}/seats/2/commit", headers=theirs, json=bad).status_code == 400


@pytest.mark.parametrize("proxies", [0, 1])
def test_a_trusted_proxy_s_forwarded_address_is_the_client(site, make_app, proxies):
    app = make_app(TIPLU_AUTH_FAIL_LIMIT=3, TIPLU_TRUSTED_PROXIES=proxies)
    client = app.test_client()
    hand = site.hands["committed"]
    proxy = {"REMOTE_ADDR": "10.0.0.1"}

    def via(addr):
        return client.post(f"/api/v1/hands/{hand}/seats/0/commit", json={"commitment": "00" * 32},
                           environ_overrides=proxy, headers={"X-Forwarded-For": addr}).status_code

    first = [via("198.51.100.1") for _ in range(5)]
    other = via("198.51.100.2")
    assert first == [401] * 3 + [429] * 2
    # with the proxy trusted, another client behind it is its own address; without, it is the proxy's
    assert other == (401 if proxies else 429)
