"""The pair side of the collusion review in headless Chromium, phone and desktop: a planted
colluding pair (``simulate_archive(..., collude=...)``) flagged with its sentence, its line in
the pair graph red, its row in the pair table with the test's numbers, the plain sentence of
what a pair flag does and does not mean, the account page listing the flag; no console errors
under the site's CSP, no sideways overflow.  Screenshots: ``screenshots/collusion-pairs-phone.png``,
``collusion-pairs-desktop.png``, ``collusion-pairs-account-desktop.png``."""
from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from audit.operator.ledger import Ledger
from audit.operator.sim.archive import simulate_archive
from web import create_app

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def live_pair(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("collusion-pairs") / "pairs.db")
    with Ledger(path, create=True) as ledger:   # asha and bikash share their cards on every hand
        simulate_archive(ledger, [("kitti", 4, 300)], seed="cli-pair", collude={0: (1, 1000), 1: (0, 1000)})
    app = create_app({"TESTING": True, "TIPLU_DB": path, "TIPLU_STATS_WAIT": 600})
    assert app.test_client().get("/api/v1/collusion").status_code == 200   # computed before the browser asks
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def _check(pg, base):
    pg.goto(base + "/collusion")
    pg.wait_for_selector("[data-collusion-pair-section]")
    flags = pg.locator("li[data-flagged-pair]")
    assert flags.count() == 1 and flags.get_attribute("data-flagged-pair") == "asha|bikash"
    assert "asha and bikash: REVIEW" in flags.inner_text()
    assert "not a finding of collusion" in pg.locator("[data-pair-meaning]").inner_text()
    assert pg.locator("[data-pair-flag-count]").inner_text() == "1"
    line = pg.locator(".pair-graph svg line[data-flagged-pair]")
    assert line.count() == 1 and line.get_attribute("data-pair") == "asha|bikash"
    assert line.get_attribute("stroke") == "#c8102e"
    row = pg.locator("[data-pair-row='asha|bikash'] [data-pair-test='kitti.together']")
    assert "flagged for review" in row.inner_text()
    other = pg.locator("[data-pair-row='chandra|deepa'] [data-pair-test='kitti.together']")
    assert "within chance" in other.inner_text()
    flagged = {pg.locator("[data-flagged-account]").nth(i).get_attribute("data-flagged-account")
               for i in range(pg.locator("[data-flagged-account]").count())}
    assert flagged <= {"asha", "bikash"}       # who saw hidden cards: the pair at most, nobody else
    assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the page overflows"


def test_a_planted_pair_on_a_phone(page, live_pair, screenshot):
    _check(page, live_pair)
    page.locator("[data-collusion-pair-section]").scroll_into_view_if_needed()
    screenshot(page, "collusion-pairs-phone")


def test_a_planted_pair_on_a_desktop(browser, live_pair, screenshot):
    context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    _check(pg, live_pair)
    pg.locator("[data-collusion-pair-section]").scroll_into_view_if_needed()
    screenshot(pg, "collusion-pairs-desktop")
    pg.goto(live_pair + "/collusion/account/bikash")
    pg.wait_for_selector("[data-collusion-account='bikash']")
    assert "asha and bikash: REVIEW" in pg.locator("[data-account-pair-flags]").inner_text()
    screenshot(pg, "collusion-pairs-account-desktop")
    context.close()
    assert not errors, errors
