"""Browser tests of the website (headless Chromium, the webjs conftest): the real Flask app on
127.0.0.1 over a real ledger of Kitti hands (tests/web/web_testkit.py).

Screenshots of every page, phone (390x844) and desktop, go to ``screenshots/site-*.png``.
"""
from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from tests.web.web_testkit import build_site
from web import create_app

from verifier_page_helpers import verify

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """(base URL, site) of the app served in a background thread."""
    site = build_site(str(tmp_path_factory.mktemp("live") / "site.db"))
    app = create_app({"TESTING": True, "TIPLU_DB": site.db_path})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", site
    server.shutdown()


def test_home_to_hand_replay_to_the_end(page, live, screenshot):  # rules K-4, R-22
    base, site = live
    hid = site.hands["revealed1"]
    record = site.records[hid]
    page.goto(base + "/")
    assert page.locator("[data-public-key]").first.inner_text().strip() == record["table"]["public_key"]
    screenshot(page, "site-home-phone")
    page.click(f'a[data-hand="{hid}"]')
    page.wait_for_url(f"**/hands/{hid}")
    page.wait_for_selector("#replay[data-step='0']")
    n_steps = page.evaluate("JSON.parse(document.getElementById('replay-data').textContent).steps.length")
    assert n_steps == len(record["moves"]) + 1
    for k in range(1, n_steps):
        page.click("#rp-next")
        page.wait_for_selector(f"#replay[data-step='{k}']")
    assert page.is_visible("#rp-final")
    shown = page.evaluate("JSON.parse(document.getElementById('rp-final').dataset.finalPoints)")
    assert shown == record["outcome"]["points"]
    # the settlement table shows the recomputed nets, which for an honest hand are the claimed ones
    nets = page.locator("#settlement [data-net]").all_inner_texts()
    assert [x.strip() for x in nets] == record["outcome"]["payouts"]["nets"]
    page.wait_for_selector("#browser-check[data-state='verified']", timeout=15000)
    screenshot(page, "site-hand-phone")


def test_hand_page_on_desktop_and_the_in_browser_check(browser, live, screenshot):  # rules
    base, site = live
    ctx = browser.new_context(viewport=DESKTOP)
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(base + f"/hands/{site.hands['revealed0']}")
        pg.wait_for_selector("#browser-check[data-state='verified']", timeout=15000)
        oks = pg.locator("#check-list li").evaluate_all("els => els.map(e => e.dataset.ok)")
        assert oks and all(ok == "true" for ok in oks)
        screenshot(pg, "site-hand-desktop")
        pg.click("#rp-last")
        screenshot(pg, "site-hand-desktop-end")
        pg.goto(base + "/")
        screenshot(pg, "site-home-desktop")
        pg.goto(base + f"/tables/{site.table_id}")
        screenshot(pg, "site-table-desktop")
        pg.goto(base + f"/hands/{site.hands['finished']}")
        screenshot(pg, "site-hand-finished-desktop")
    finally:
        ctx.close()
    assert not errors


def test_table_page(page, live, screenshot):
    base, site = live
    page.goto(base + f"/tables/{site.table_id}")
    assert page.locator("#table-hands tbody tr").count() == len([h for h in site.hands.values() if h.startswith("t1")])
    assert page.inner_text("[data-commission]").strip() != ""
    screenshot(page, "site-table-phone")


def test_verify_page_with_pasted_seeds(page, live, screenshot):  # rules
    base, site = live
    record = site.records[site.hands["revealed0"]]
    f = record["fairness"]
    page.goto(base + "/verify")
    page.wait_for_url("**/verify/")
    page.click("#tab-fields")
    page.select_option("#preset", "kitti")
    page.fill("#hand-id", record["hand_id"])
    page.fill("#dealer", str(record["table"]["dealer"]))
    page.fill("#server-seed", f["server_seed"])
    page.fill("#player-seeds", "\n".join(f["player_seeds"]))
    page.click("details.more > summary")
    page.fill("#server-commitment", f["server_commitment"])
    page.fill("#player-commitments", "\n".join(f["seat_commitments"]))
    page.fill("#ruleset-hash", f["ruleset_hash"])
    verify(page, expect_state="verified")
    assert "Deal verified" in page.inner_text("#verdict")  # complete: every commitment checked
    screenshot(page, "site-verify-phone")
    # one wrong seed digit and the same page says so
    page.fill("#server-seed", ("0" if f["server_seed"][0] != "0" else "1") + f["server_seed"][1:])
    verify(page, expect_state="failed")


def test_tampered_hands_name_their_fault(page, live, screenshot):  # rules K-4, D-2
    base, site = live
    page.goto(base + f"/hands/{site.hands['tampered_payout']}")
    assert page.get_attribute("#verdict", "data-ok") == "false"
    assert page.inner_text("#verdict [data-reason]").strip() == "payout mismatch"
    assert page.locator('#faults li[data-fault="payout_mismatch"]').count() >= 1
    assert page.locator("#settlement .mismatch").count() >= 1
    screenshot(page, "site-hand-tampered-payout-phone")
    page.goto(base + f"/hands/{site.hands['tampered_signature']}")
    assert page.inner_text("#verdict [data-reason]").strip() == "not in log"  # the forged bytes are not the logged leaf
    assert page.locator("#fairness .badc").count() == 1  # the one forged statement
    page.goto(base + f"/hands/{site.hands['tampered_move']}")
    assert page.inner_text("#verdict [data-reason]").strip() == "illegal move"
    assert page.get_attribute("[data-first-bad-move]", "data-first-bad-move") == "0"
    assert "K-4" in page.inner_text("#faults")
    screenshot(page, "site-hand-tampered-move-phone")


def test_unrevealed_and_cancelled_hands(page, live, screenshot):  # rules
    base, site = live
    for role in ("committed", "dealt", "finished"):
        page.goto(base + f"/hands/{site.hands[role]}")
        assert page.is_visible("[data-server-seed-hidden]")
        assert page.locator("#replay").count() == 0
        assert site.secret_seeds[site.hands[role]] not in page.content()
    screenshot(page, "site-hand-finished-phone")
    page.goto(base + f"/hands/{site.hands['cancelled']}")
    assert "cancelled before the deal" in page.inner_text("#verdict")
    screenshot(page, "site-hand-cancelled-phone")


def test_jump_to_a_move_from_the_url(page, live):
    base, site = live
    hid = site.hands["revealed2"]
    page.goto(base + f"/hands/{hid}#move-1")
    page.wait_for_selector("#replay[data-step='2']")  # step 2 is the state after record move #1
    assert "record move #1" in page.inner_text("#rp-label")
    page.focus("#replay")  # the arrow, Home and End keys step the viewer
    page.keyboard.press("Home")
    page.wait_for_selector("#replay[data-step='0']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay[data-step='1']")


@pytest.fixture(scope="module")
def live_games(tmp_path_factory):
    from audit.operator.ledger import Ledger
    from audit.operator.sim.tables import simulate_table

    path = str(tmp_path_factory.mktemp("games") / "games.db")
    with Ledger(path, create=True) as ledger:
        ledger.new_operator("demo-operator")
        for preset, n in (("marriage/nepal", 3), ("rummy13", 4)):
            simulate_table(ledger, preset=preset, players=n, hands=1, seed="web-games", table_id=preset.replace("/", "-"))
    app = create_app({"TESTING": True, "TIPLU_DB": path})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.mark.parametrize("hand, name", [("marriage-nepal-h0000", "marriage"), ("rummy13-h0000", "rummy")])
def test_other_games_replay_and_check(page, browser, live_games, screenshot, hand, name):  # rules R-5, D-5
    page.goto(f"{live_games}/hands/{hand}")
    page.wait_for_selector("#browser-check[data-state='verified']", timeout=20000)
    page.click("#rp-last")
    special = "wild rank" if name == "rummy" else "tiplu"
    assert special in page.inner_text("#rp-board .specials").lower()
    assert page.locator("#rp-board svg.card.hl").count() >= 1  # the wild rank / tiplu is highlighted
    screenshot(page, f"site-hand-{name}-phone")
    ctx = browser.new_context(viewport=DESKTOP)
    pg = ctx.new_page()
    try:
        pg.goto(f"{live_games}/hands/{hand}")
        pg.click("#rp-last")
        screenshot(pg, f"site-hand-{name}-desktop")
    finally:
        ctx.close()
