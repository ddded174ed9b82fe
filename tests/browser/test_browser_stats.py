"""The deal statistics page in headless Chromium, phone and desktop: it renders its SVG
charts under the site's CSP (no console errors), fits a phone's width, and shows the planted
biased operator flagged.  Screenshots: ``screenshots/stats-phone.png``, ``stats-desktop.png``."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from audit.operator.ledger import Ledger
from audit.operator.sim.archive import simulate_archive
from audit.operator.sim.bias import Bias
from web import create_app

DESKTOP = {"width": 1280, "height": 900}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"


@pytest.fixture(scope="module")
def live_stats(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("stats") / "stats.db")
    with Ledger(path, create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 60)], seed="stats-test", bias=Bias())
        simulate_archive(ledger, [("marriage/nepal", 3, 3), ("rummy13", 4, 3)], seed="stats-browser",
                         table_prefix="x-", tamper_rate=0.3)
    app = create_app({"TESTING": True, "TIPLU_DB": path, "TIPLU_STATS_WAIT": 120})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def _check(pg, base):
    pg.goto(base + "/")
    pg.click("a[href='/stats']")
    pg.wait_for_selector("[data-game='kitti'][data-seats='4']")
    kitti = pg.locator("[data-game='kitti'][data-seats='4']")
    assert "ranks_by_seat" in kitti.get_attribute("data-flagged")
    assert "flagged" in kitti.locator("[data-game-verdict]").inner_text()
    chart = kitti.locator("[data-chart='ranks_by_seat']")
    assert chart.get_attribute("data-flagged") == "yes"
    box = chart.locator("svg").bounding_box()
    assert box and box["width"] > 150 and box["height"] > 100
    assert "Not as chance says" in chart.locator(".meaning").inner_text()
    assert pg.locator("[data-game='marriage/nepal'] [data-chart='cards_by_seat'] svg").count() == 3  # a grid a seat
    assert pg.locator("[data-game='rummy13'] [data-chart='indicator'] svg").count() == 1
    assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the page overflows"


def test_stats_page_on_a_phone(page, live_stats, screenshot):
    _check(page, live_stats)
    screenshot(page, "stats-phone")
    page.locator("[data-game='kitti'][data-seats='4'] [data-chart='ranks_by_seat']").screenshot(
        path=str(SCREENSHOTS / "stats-phone-ranks.png"))


def test_stats_page_on_a_desktop(browser, live_stats, screenshot):
    context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    _check(pg, live_stats)
    screenshot(pg, "stats-desktop")
    pg.locator("[data-game='kitti'][data-seats='4']").screenshot(path=str(SCREENSHOTS / "stats-desktop-biased-kitti.png"))
    context.close()
    assert not errors, errors
