"""No response, page or log line ever carries a server seed before its reveal.

Every GET route is walked for a hand in every state (created .. revealed, cancelled), plus
the operator lifecycle over HTTP, with logging captured at DEBUG; the private server seed of
every hand not yet revealed must appear nowhere (hex, upper-case hex, or raw bytes).
"""
from __future__ import annotations

import logging

import pytest

from web.openapi import PATHS


def secret_forms(site) -> list[bytes]:
    out = []
    for hexseed in site.secret_seeds.values():
        out += [hexseed.encode(), hexseed.upper().encode(), bytes.fromhex(hexseed)]
    return out


def get_urls(site) -> list[str]:
    urls = ["/", "/tables/t1", "/tables/t-other", "/verify/", "/openapi.json", "/api/v1/log/checkpoint",
            "/api/v1/log/entries?start=0"]
    for path, ops in PATHS.items():
        if "get" not in ops:
            continue
        for hid in site.hands.values():
            urls.append(path.replace("{hand_id}", hid).replace("{table_id}", "t1").replace("{name}", "demo-operator"))
    for hid in site.hands.values():
        urls += [f"/hands/{hid}", "/api/v1/hands?state=" + "", f"/hands/{hid}?x=1"]
    for state in ("created", "committed", "seeds-committed", "seeds-revealed", "dealt", "finished", "revealed", "cancelled"):
        urls.append(f"/api/v1/hands?state={state}&limit=200")
    return sorted(set(u for u in urls if not u.endswith("state=")))


def test_every_state_has_a_hand_with_a_secret(site):
    # the walk below means something only if there are unrevealed seeds in every secret state
    states = {"committed", "seeds-committed", "seeds-half-revealed", "seeds-revealed", "dealt", "finished"}
    assert {site.hands[s] for s in states} <= set(site.secret_seeds)


def test_no_get_route_shows_an_unrevealed_server_seed(client, site, caplog):  # rules
    caplog.set_level(logging.DEBUG)
    secrets = secret_forms(site)
    seen = 0
    for url in get_urls(site):
        resp = client.get(url)
        assert resp.status_code != 500, (url, resp.status_code)
        body = resp.get_data()
        for s in secrets:
            assert s not in body, f"{url} leaks a server seed"
        seen += 1
    assert seen > 50
    logged = "\n".join(r.getMessage() for r in caplog.records).encode()
    for s in secrets[::3]:
        assert s not in logged


def test_the_revealed_seed_is_shown_once_revealed(client, site):  # rule R-22
    hid = site.hands["revealed0"]
    seed = site.records[hid]["fairness"]["server_seed"]
    assert seed in client.get(f"/hands/{hid}").get_data(as_text=True)
    assert client.get(f"/api/v1/hands/{hid}").get_json()["server_seed"] == seed


@pytest.mark.parametrize("verb", ["commit", "deal", "finish", "reveal", "cancel"])
def test_operator_responses_and_errors_carry_no_unrevealed_seed(make_app, fresh_db, site, caplog, verb):
    caplog.set_level(logging.DEBUG)
    client = make_app(fresh_db).test_client()
    h = {"Authorization": f"Bearer {site.operator_token}"}
    bodies = []
    for _role, hid in site.hands.items():
        r = client.post(f"/api/v1/operator/hands/{hid}/{verb}", headers=h,
                        json={"record": {"hand_id": hid}} if verb == "finish" else {})
        bodies.append(r.get_data())
    secrets = [s for hid, hexseed in site.secret_seeds.items() for s in (hexseed.encode(), hexseed.upper().encode())]
    if verb in ("reveal", "cancel"):
        # reveal publishes the finished hand's seed, cancel the cancelled hands': by design
        published = {hid for hid in site.secret_seeds
                     if (verb == "reveal" and hid == site.hands["finished"])
                     or (verb == "cancel" and hid in (site.hands["created"], site.hands["committed"],
                                                      site.hands["seeds-committed"], site.hands["seeds-half-revealed"]))}
        secrets = [s for hid, hexseed in site.secret_seeds.items() if hid not in published
                   for s in (hexseed.encode(), hexseed.upper().encode())]
    logged = "\n".join(r.getMessage() for r in caplog.records).encode()
    for s in secrets:
        assert all(s not in b for b in bodies)
        assert s not in logged
