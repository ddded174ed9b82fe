"""Browser tests of the in-browser verifier (R-22): headless Chromium via Python Playwright.

* ``static_server`` -- the repo's ``web/static`` served over http on 127.0.0.1 (a
  ThreadingHTTPServer on port 0 in a background thread; http://127.0.0.1 is a secure
  context, so WebCrypto is available there).
* ``browser`` (session) and ``page`` (per test, 390x844 by default) fixtures.
* Every test in this folder is marked ``browser``; all of them are skipped cleanly when
  there is no Chromium (``/usr/bin/chromium`` or ``chromium`` on PATH) or no playwright.
* ``screenshot`` (a fixture: ``screenshot(page, name)``) saves ``screenshots/<name>.png`` at the repo root (gitignored)
  for a person to look at.

Chromium is Debian's, driven through ``executable_path``: never ``playwright install``.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import pathlib
import shutil
import threading

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
SCREENSHOTS = ROOT / "screenshots"
VECTORS = json.loads((ROOT / "fixtures" / "vectors" / "v1.json").read_text(encoding="utf-8"))["vectors"]
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def find_chromium() -> str | None:
    if os.path.exists("/usr/bin/chromium"):
        return "/usr/bin/chromium"
    return shutil.which("chromium")


CHROMIUM = find_chromium()
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None

SKIP_REASON = ("no Chromium (/usr/bin/chromium or chromium on PATH)" if CHROMIUM is None
               else "the python playwright package is not installed" if sync_playwright is None else None)


def pytest_collection_modifyitems(config, items):
    here = pathlib.Path(__file__).parent
    for item in items:
        if here in pathlib.Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
            if SKIP_REASON:
                item.add_marker(pytest.mark.skip(reason=SKIP_REASON))


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript"}

    def log_message(self, *args):  # keep test output clean
        pass


@pytest.fixture(scope="session")
def static_server():
    """Base URL of web/static served on 127.0.0.1 (port chosen by the OS)."""
    handler = functools.partial(_QuietHandler, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    # A plain launch runs Chromium in a fresh temporary profile that Playwright removes.
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A fresh phone-sized page; console errors and uncaught exceptions fail the test."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    pg.on("console", lambda msg: errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
    pg.js_errors = errors
    yield pg
    context.close()
    assert not errors, "JavaScript errors in the page:\n" + "\n".join(errors)


@pytest.fixture
def screenshot():
    """``screenshot(page, name)`` saves screenshots/<name>.png at the repo root."""
    def shoot(pg, name: str, *, full_page: bool = True) -> pathlib.Path:
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        pg.screenshot(path=str(path), full_page=full_page)
        return path
    return shoot


@pytest.fixture(scope="session")
def vectors():
    """The known-answer vectors of fixtures/vectors/v1.json."""
    return VECTORS
