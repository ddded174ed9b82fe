"""The demo's witness, shown: the home page and the hand page say which witnesses cosigned and
when, on a phone and a desktop (issue #26, Build 7).  The archive is `tiplu demo --small`'s,
whose records were cosigned by the witness process the demo ran; the site names that
witness's key.  Screenshots: screenshots/witnesses-{home,hand}-{phone,desktop}.png."""
from __future__ import annotations

import json
import threading
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from audit.keys import load_key_file
from audit.tlog.cosignature import verify_cosignatures, witness_vkey
from bench.servekit import free_port
from web.cli import demo_app, main
from web.demo_witness import NAME

PHONE = {"width": 390, "height": 844}  # as tests/browser/conftest.py
DESKTOP = {"width": 1280, "height": 900}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory):
    d = tmp_path_factory.mktemp("demo")
    res = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(d)])
    assert res.exit_code == 0, res.output
    vkey = witness_vkey(NAME, load_key_file(str(d / "witness" / "witness.key")).public_hex)
    # the witness process was stopped by the demo: the pages show the lines already kept
    app = demo_app(d / "tiplu.db", f"http://127.0.0.1:{free_port()} {vkey}")
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    tampered = json.loads((d / "tampered.json").read_text())
    yield f"http://127.0.0.1:{server.server_port}", vkey, tampered
    server.shutdown()


@pytest.mark.parametrize("size, viewport", [("phone", PHONE), ("desktop", DESKTOP)])
def test_home_and_hand_pages_show_who_cosigned_and_when(browser, demo_site, screenshot, size, viewport):
    base, vkey, tampered = demo_site
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(base + "/")
        item = page.locator("[data-witnesses] li[data-witness]")
        assert item.count() == 1 and item.get_attribute("data-witness") == NAME
        assert "cosigned this checkpoint at" in item.inner_text()
        assert item.is_visible()
        page.locator("[data-witnesses]").scroll_into_view_if_needed()
        screenshot(page, f"witnesses-home-{size}", full_page=False)

        hands = json.loads(page.evaluate("async () => JSON.stringify(await (await fetch('/api/v1/hands?limit=200')).json())"))
        honest = next(h["hand_id"] for h in hands["hands"] if h["state"] == "revealed" and h["hand_id"] not in tampered)
        record = json.loads(page.evaluate(f"async () => JSON.stringify(await (await fetch('/api/v1/hands/{honest}/record')).json())"))
        [r] = verify_cosignatures(record["fairness"]["log_proofs"][0].split("\n\n", 1)[1], [vkey])
        when = datetime.fromtimestamp(r.timestamp, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        page.goto(f"{base}/hands/{honest}")
        li = page.locator("#fairness [data-witnesses] li[data-witness]")
        assert li.count() == 1 and li.get_attribute("data-cosigned-at") == str(r.timestamp)
        text = li.inner_text()
        assert NAME in text and f"at {when}" in text and "record’s log checkpoint" in text
        assert "The operator chose them" in page.locator("#fairness [data-witnesses]").inner_text()
        box = li.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]  # no overflow
        page.locator("#fairness [data-witnesses]").scroll_into_view_if_needed()
        screenshot(page, f"witnesses-hand-{size}", full_page=False)
    finally:
        context.close()
    assert not errors, errors
