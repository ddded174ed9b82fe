"""The verify page (web/static/verify.html): seeds pasted by a person, a pasted hand record,
tampered inputs, and what the page draws (R-22)."""
import json

from verifier_page_helpers import fill_fields, shown_deal, verify


def by_name(vectors, name):
    return next(v for v in vectors if v["name"] == name)


def expected(v):
    e = v["expect"]
    return {"seats": list(range(v["n_seats"])), "hands": e["hands"], "turned_up": e["turned_up"],
            "indicator": e["indicator"], "stock": e["stock"], "shoe": e["shoe"]}


def test_pasted_seeds_show_the_dealt_hands(page, static_server, vectors, screenshot):  # rules, MN-1
    v = by_name(vectors, "marriage/nepal/4p/0")
    page.goto(static_server + "/verify.html")
    fill_fields(page, v)
    verify(page, expect_state="verified")
    shown = shown_deal(page)
    assert {k: shown[k] for k in expected(v)} == expected(v)
    assert all(ok == "true" for _, ok in shown["checks"])
    assert "Deal verified" in page.inner_text("#verdict")
    assert page.inner_text("#facts").count(v["ruleset_hash"]) == 1
    # the piles in Marriage's words (gamedata.mjs, from its DealLayout): MN-3, MN-4
    assert "Turned up: discard pile starts" in page.inner_text("#turned-up")
    assert page.inner_text("#stock-title").startswith("Stock (")
    # the putali and the master card are drawn as their own faces
    assert page.locator("#shoe .card.joker").count() == 3 and page.locator("#shoe .card.master").count() == 1
    screenshot(page, "verify-page-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, "verify-page-desktop")


def test_rummy_shows_the_indicator_and_sorting_keeps_the_cards(page, static_server, vectors, screenshot):  # rules R-5, D-19
    v = by_name(vectors, "rummy13/6p/0")
    page.goto(static_server + "/verify.html")
    fill_fields(page, v)
    verify(page, expect_state="verified")
    shown = shown_deal(page)
    assert {k: shown[k] for k in expected(v)} == expected(v)
    assert shown["indicator"] == v["expect"]["indicator"] and shown["turned_up"] == v["expect"]["turned_up"]
    ind = v["expect"]["indicator"]
    wild = "only printed jokers are wild" if ind == "JK" else ("10" if ind[0] == "T" else ind[0]) + "s are wild"
    assert wild in page.inner_text("#indicator")  # rule R-5
    # the piles in Rummy's words (gamedata.mjs, from its DealLayout), not Marriage's: D-19
    assert "Open pile starts" in page.inner_text("#turned-up")
    assert page.inner_text("#stock-title").startswith("Closed pile (")
    page.check("#sort-hands")
    sorted_hands = shown_deal(page)["hands"]
    assert [sorted(h) for h in sorted_hands] == [sorted(h) for h in v["expect"]["hands"]]
    assert sorted_hands != v["expect"]["hands"]
    screenshot(page, "verify-page-rummy-sorted-phone")


def test_anticlockwise_override_typed_in_the_form(page, static_server, vectors):  # rules MC-33, D-4
    v = by_name(vectors, "marriage/classic/4p/direction/1")
    page.goto(static_server + "/verify.html")
    fill_fields(page, v, overrides={"direction": "anticlockwise"})
    verify(page, expect_state="verified")
    assert shown_deal(page)["hands"] == v["expect"]["hands"]
    assert "anticlockwise" in page.inner_text("#facts")


def test_same_seeds_under_other_rules_fail_the_ruleset_hash(page, static_server, vectors):  # rules D-1, MC-33
    v = by_name(vectors, "marriage/classic/4p/direction/0")  # played anticlockwise
    page.goto(static_server + "/verify.html")
    fill_fields(page, v)  # the committed ruleset hash, but no override: clockwise rules
    verify(page, expect_state="failed")
    shown = shown_deal(page)
    assert [c for c, ok in shown["checks"] if ok == "false"] == ["ruleset_hash"]
    assert shown["hands"] != v["expect"]["hands"]  # the seeds alone do not fix the deal


def test_pasted_record_with_claimed_deal(page, static_server, vectors):  # rule R-22
    v = by_name(vectors, "kitti/3p/sequence_order/1")
    record = {"format": "tiplu.hand/1", "hand_id": v["hand_id"], "ruleset": v["ruleset"],
              "table": {"n_seats": v["n_seats"], "dealer": v["dealer"]},
              "fairness": {"server_seed": v["server_seed"], "player_seeds": v["player_seeds"],
                           "server_commitment": v["expect"]["server_commitment"],
                           "player_commitments": v["expect"]["player_commitments"]},
              "deal": {"hands": v["expect"]["hands"]}}
    page.goto(static_server + "/verify.html")
    page.click("#tab-record")
    page.fill("#record-json", json.dumps(record))
    # the deal verifies; but a tiplu.hand/1 record carries no log evidence, which fails by name
    verify(page, expect_state="failed")
    shown = shown_deal(page)
    assert shown["hands"] == v["expect"]["hands"] and shown["turned_up"] is None
    assert [c for c, _ in shown["checks"] if c.startswith("claimed:hands:")] == ["claimed:hands:0", "claimed:hands:1", "claimed:hands:2"]
    assert [c for c, ok in shown["checks"] if ok == "false"] == ["log:bound"]
    assert shown["reasons"] == {"log:bound": "not_log_bound"}


def test_tampered_record_fails_and_says_which_check(page, static_server, vectors, screenshot):  # rules
    v = by_name(vectors, "rummy13/4p/1")
    record = json.loads(json.dumps(v))
    # a swapped pair of cards in one claimed hand, and another seat's commitment
    hand = record["expect"]["hands"][2]
    hand[0], hand[5] = hand[5], hand[0]
    record["expect"]["player_commitments"][1] = "0" * 64
    page.goto(static_server + "/verify.html")
    page.click("#tab-record")
    page.fill("#record-json", json.dumps(record))
    verify(page, expect_state="failed")
    failed = sorted(c for c, ok in shown_deal(page)["checks"] if ok == "false")
    assert failed == ["claimed:hands:2", "player_commitment:1"]
    assert "Does not verify" in page.inner_text("#verdict")
    screenshot(page, "verify-page-tampered-phone")


def test_without_commitments_the_deal_is_recomputed_not_proven(page, static_server, vectors):  # rule R-21
    v = by_name(vectors, "kitti/5p/0")
    page.goto(static_server + "/verify.html")
    fill_fields(page, v, commitments=False)
    verify(page, expect_state="verified")
    assert "Deal recomputed" in page.inner_text("#verdict")
    assert shown_deal(page)["hands"] == v["expect"]["hands"]
    assert {ok for c, ok in shown_deal(page)["checks"] if "commitment" in c or c == "ruleset_hash"} == {"null"}


def test_unreadable_input_is_a_clear_error(page, static_server, vectors, screenshot):
    v = by_name(vectors, "kitti/2p/0")
    page.goto(static_server + "/verify.html")
    fill_fields(page, v)
    page.fill("#server-seed", v["server_seed"][:-2])
    verify(page, expect_state="error")
    assert "server seed must be exactly 32 bytes" in page.inner_text("#status")
    assert page.evaluate("document.body.dataset.errorCode") == "malformed"
    assert v["server_seed"][:20] not in page.inner_text("#status")  # never echoes a seed
    assert page.is_hidden("#result")
    screenshot(page, "verify-page-error-phone")
    # a table size the preset does not allow (rummy13 is 4, 6 or 8 seats by default)
    w = by_name(vectors, "rummy13/7p/players/0")
    fill_fields(page, w)
    verify(page, expect_state="error")
    assert "rummy13 is played by 4, 6, 8 players, not 7" in page.inner_text("#status")  # rule R-1
    assert page.evaluate("document.body.dataset.errorCode") == "ruleset"


def test_example_button(page, static_server, vectors):
    page.goto(static_server + "/verify.html")
    page.click("#example-btn")
    page.locator("body[data-state='verified']").wait_for()
    v = by_name(vectors, "marriage/nepal/4p/0")
    assert shown_deal(page)["hands"] == v["expect"]["hands"]


def test_a_link_with_the_record_in_the_fragment_verifies_at_once(page, static_server, vectors):  # rule R-22
    from urllib.parse import quote
    v = by_name(vectors, "marriage/classic/5p/1")
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(static_server + "/verify.html#record=" + quote(json.dumps(v)))
    page.locator("body:is([data-state='verified'], [data-state='failed'], [data-state='error'])").wait_for()
    assert page.evaluate("document.body.dataset.state") == "verified"
    assert shown_deal(page)["hands"] == v["expect"]["hands"]
    assert not any(v["server_seed"] in url for url in requests)  # the fragment stays in the browser
