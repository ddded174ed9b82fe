"""The collusion review pages in headless Chromium, phone and desktop: reached from the
statistics page, the planted superuser flagged with its sentence and a red dot, the pair
graph drawn, the account page, no console errors under the site's CSP, no sideways overflow.
Screenshots: ``screenshots/collusion-phone.png``, ``collusion-desktop.png``,
``collusion-account-desktop.png`` (with the account's chart of its signal over its hands)."""
from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from audit.operator.ledger import Ledger
from audit.operator.sim.archive import simulate_archive
from web import create_app

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def live_review(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("collusion") / "collusion.db")
    with Ledger(path, create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 120)], seed="collusion-browser", peek={1: 1000})
        simulate_archive(ledger, [("kitti", 3, 60)], seed="collusion-browser-honest", table_prefix="h-")
    app = create_app({"TESTING": True, "TIPLU_DB": path, "TIPLU_STATS_WAIT": 300})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def _check(pg, base):
    pg.goto(base + "/stats")
    pg.click("a[data-collusion-link]")
    pg.wait_for_selector("[data-collusion]")
    assert pg.locator("[data-collusion-hands]").inner_text() == "180"
    flagged = pg.locator("[data-flagged-account]")
    assert flagged.count() == 1 and flagged.get_attribute("data-flagged-account") == "bikash"
    assert "not a finding of cheating" in pg.locator("[data-collusion-meaning]").inner_text()
    chart = pg.locator("[data-signal='kitti.arrangement'] svg")
    assert chart.locator("circle").count() == 4    # the two tables seat the same simulated players
    assert chart.locator("circle[data-account='bikash']").get_attribute("fill") == "#c8102e"
    assert pg.locator(".pair-graph svg line").count() == 6          # every pair of the four
    assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the page overflows"


def test_collusion_page_on_a_phone(page, live_review, screenshot):
    _check(page, live_review)
    screenshot(page, "collusion-phone")


def test_collusion_pages_on_a_desktop(browser, live_review, screenshot):
    context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    _check(pg, live_review)
    screenshot(pg, "collusion-desktop")
    pg.click("[data-flagged-account] a")
    pg.wait_for_selector("[data-collusion-account='bikash']")
    assert "flagged for review" in pg.locator("[data-signal-row='kitti.arrangement']").inner_text()
    chart = pg.locator("svg[data-excess-chart='kitti.arrangement']")
    assert chart.count() == 1 and chart.locator("polyline").get_attribute("stroke") == "#c8102e"
    # bikash sits at both tables (the simulator names its players the same): 120 + 60 hands
    assert "in 180 hands" in chart.locator("polyline title").text_content()
    screenshot(pg, "collusion-account-desktop")
    context.close()
    assert not errors, errors
