"""Marriage's signals on the collusion pages in headless Chromium (docs/collusion.md): one
Marriage table with a superuser (seat 2) and a colluding pair (seats 0 and 1, seat 0 feeding
seat 1), 100 hands through the real ledger.  ``/collusion`` draws a chart for each Marriage
signal (``marriage.pick``, ``marriage.joker``, ``marriage.discard``) with the superuser's dot
red, and flags the pair on ``marriage.feed``; the superuser's page has a row and a chart for
every signal.  No console errors, no sideways overflow.  Screenshots:
``screenshots/collusion-marriage-desktop.png``, ``collusion-marriage-account-phone.png``."""
from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from audit.operator.ledger import Ledger
from audit.operator.sim.archive import simulate_archive
from web import create_app

DESKTOP = {"width": 1280, "height": 900}
SIGNALS = ("marriage.pick", "marriage.joker", "marriage.discard")


@pytest.fixture(scope="module")
def live_marriage(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("collusion-marriage") / "marriage.db")
    with Ledger(path, create=True) as ledger:
        simulate_archive(ledger, [("marriage/nepal", 4, 100)], seed="collusion-marriage-browser",
                         peek={2: 1000}, collude={0: (1, 1000), 1: (0, 1000)})
    app = create_app({"TESTING": True, "TIPLU_DB": path, "TIPLU_STATS_WAIT": 600})
    assert app.test_client().get("/api/v1/collusion").status_code == 200   # computed before the browser asks
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_marriage_signals_on_the_operator_and_account_pages(browser, live_marriage, screenshot):
    context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(live_marriage + "/collusion")
    pg.wait_for_selector("[data-collusion]")
    flagged = {pg.locator("[data-flagged-account]").nth(i).get_attribute("data-flagged-account")
               for i in range(pg.locator("[data-flagged-account]").count())}
    assert flagged == {"chandra"}
    for signal in SIGNALS:
        chart = pg.locator(f"[data-signal='{signal}'] svg")
        assert chart.locator("circle").count() == 4, signal
    assert pg.locator("[data-signal='marriage.discard'] svg circle[data-account='chandra']").get_attribute(
        "fill") == "#c8102e"
    pair = pg.locator("li[data-flagged-pair]")
    assert pair.count() == 1 and pair.get_attribute("data-flagged-pair") == "asha|bikash"
    row = pg.locator("[data-pair-row='asha|bikash'] [data-pair-test='marriage.feed']")
    assert "flagged for review" in row.inner_text()
    assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the page overflows"
    screenshot(pg, "collusion-marriage-desktop")
    context.close()
    assert not errors, errors


def test_the_superuser_s_page_on_a_phone(page, live_marriage, screenshot):
    page.goto(live_marriage + "/collusion/account/chandra")
    page.wait_for_selector("[data-collusion-account='chandra']")
    for signal in SIGNALS:
        assert page.locator(f"[data-signal-row='{signal}']").count() == 1, signal
        assert page.locator(f"svg[data-excess-chart='{signal}']").count() == 1, signal
    assert "flagged for review" in page.locator("[data-signal-row='marriage.discard']").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the page overflows"
    screenshot(page, "collusion-marriage-account-phone")
