"""A revealed hand's page never changes: it is rendered once, sent with an ETag and
``Cache-Control: public``, and a matching ``If-None-Match`` gets 304.  Pages of hands
before the reveal are never cached (``no-store``)."""
from __future__ import annotations

import json

from audit.operator.ledger import Ledger
from web.pages import REVEALED_CACHE_CONTROL


def test_a_revealed_hand_page_has_an_etag_and_says_it_may_be_cached(client, site):
    url = f"/hands/{site.hands['revealed0']}"
    first = client.get(url)
    assert first.status_code == 200 and first.headers["Cache-Control"] == REVEALED_CACHE_CONTROL
    etag = first.headers["ETag"]
    again = client.get(url)
    assert again.headers["ETag"] == etag and again.data == first.data
    assert again.headers["Content-Security-Policy"] == first.headers["Content-Security-Policy"]
    assert again.headers["Content-Type"].startswith("text/html")


def test_a_matching_if_none_match_gets_304_and_no_body(client, site):
    url = f"/hands/{site.hands['revealed1']}"
    etag = client.get(url).headers["ETag"]
    res = client.get(url, headers={"If-None-Match": etag})
    assert res.status_code == 304 and res.data == b"" and res.headers["ETag"] == etag
    other = client.get(url, headers={"If-None-Match": '"not-this-one"'})
    assert other.status_code == 200 and other.data


def test_the_cached_page_is_the_page_rendered_afresh(make_app, site):
    url = f"/hands/{site.hands['revealed2']}"
    warm = make_app(site.db_path).test_client()
    warm.get(url)
    cached = warm.get(url)
    fresh = make_app(site.db_path).test_client().get(url)   # a new app: an empty cache
    assert cached.data == fresh.data and cached.headers["ETag"] == fresh.headers["ETag"]


def test_hands_before_the_reveal_are_never_cached(client, site):
    for role in ("finished", "dealt", "committed"):
        res = client.get(f"/hands/{site.hands[role]}")
        assert res.status_code == 200
        assert res.headers["Cache-Control"] == "no-store" and "ETag" not in res.headers, role


def test_the_cache_is_keyed_by_the_stored_record(make_app, site, monkeypatch):
    # A page is kept under the hash of the record as stored: a different stored record (here
    # an inflated payout swapped in) is a different key, so it is rendered and judged afresh.
    # (The swap is no ledger write: the read cache in front, web/read_cache.py, is left out.)
    client = make_app(site.db_path, TIPLU_READ_CACHE=0).test_client()
    hid = site.hands["revealed0"]
    url = f"/hands/{hid}"
    before = client.get(url)
    record = json.loads(json.dumps(site.records[hid]))
    payouts = record["outcome"]["payouts"]
    name = next(k for k in payouts if k != "commission")
    payouts[name] = str(payouts[name]) + "1" if isinstance(payouts[name], str) else payouts[name]
    record["outcome"]["net_points"][0] += 7
    monkeypatch.setattr(Ledger, "get_published_text", lambda ledger, h: json.dumps(record))
    after = client.get(url, headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"]
    assert after.data != before.data
