"""Issue 29, the pages (items 4, 15, 18): what the browser checked is said exactly, a
failed check is never worded as its success, the first bad move is the move itself, and
the phone layout keeps its columns and cues.  The demo archive (planted forgeries) served
by the real app; screenshots at desktop and phone widths go to ``screenshots/rough-*.png``.
"""
from __future__ import annotations

import json
import threading
import urllib.parse

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from web.cli import main

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """(base URL, tampered {hand: kind}, a test client) of a small demo archive served live."""
    from web.cli import demo_app

    d = tmp_path_factory.mktemp("demo")
    res = CliRunner().invoke(main, ["demo", "--small", "--no-serve", "--dir", str(d)])
    assert res.exit_code == 0, res.output
    tampered = json.loads((d / "tampered.json").read_text())
    app = demo_app(d / "tiplu.db")
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", tampered, app.test_client()
    server.shutdown()


@pytest.fixture(params=sorted(SIZES))
def view(request, browser):
    ctx = browser.new_context(viewport=SIZES[request.param], device_scale_factor=1)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    pg.size = request.param
    yield pg
    ctx.close()
    assert not errors, errors


def _checked(pg) -> str:
    pg.wait_for_selector("#browser-check[data-state]:not([data-state='idle'])", timeout=20000)
    return pg.inner_text("#check-status")


# -- item 4: the hand page's browser check ------------------------------------------------

def test_a_rejected_hand_never_gets_a_success_headline_from_the_browser_check(view, demo, screenshot):
    base, tampered, client = demo
    seen = set()
    for hid, kind in sorted(tampered.items()):
        verdict = client.get(f"/api/v1/hands/{hid}/verdict").get_json()
        assert verdict["ok"] is False
        view.goto(f"{base}/hands/{hid}")
        status = _checked(view)
        state = view.get_attribute("#browser-check", "data-state")
        assert view.get_attribute("#browser-check", "data-audit") == "rejected"
        assert not status.startswith("\u2713"), (kind, status)
        assert "agrees" not in status, (kind, status)
        # both reject: the browser does not "disagree" with a server that rejects too
        assert "disagrees" not in status, (kind, status)
        if state == "failed":
            assert "also finds a fault" in status
        else:  # the deal checks, the moves do not: say which
            assert "not the moves or the payouts" in status and "rejects the record" in status
        seen.add(state)
        # a failed check is never listed under the words of its success
        for li in view.locator("#check-list li[data-ok='false'] b").all_inner_texts():
            assert " matches " not in li and "NOT" in li or li.startswith("\u2717 Failed:"), li
        view.evaluate("document.getElementById('browser-check').scrollIntoView()")
        screenshot(view, f"rough-check-{kind}-{view.size}", full_page=False)
    assert seen == {"failed", "verified"}  # the demo plants both kinds


def test_an_honest_hand_says_what_the_browser_did_not_check(view, demo):
    base, tampered, client = demo
    hid = next(h["hand_id"] for h in client.get("/api/v1/hands?limit=200").get_json()["hands"]
               if h["state"] == "revealed" and h["hand_id"] not in tampered)
    view.goto(f"{base}/hands/{hid}")
    status = _checked(view)
    assert view.get_attribute("#browser-check", "data-state") == "verified"
    assert view.get_attribute("#browser-check", "data-audit") == "passed"
    assert status.startswith("\u2713 Your browser agrees on the commitments, the deal")
    assert "does not replay the moves or the payouts" in status


# -- item 4: /verify ----------------------------------------------------------------------

def _verify(pg, base, record) -> None:
    pg.goto(f"{base}/verify/#record=" + urllib.parse.quote(json.dumps(record)))
    pg.wait_for_function("['verified','failed','incomplete','error'].includes(document.body.dataset.state)", timeout=20000)


def test_verify_says_the_moves_are_not_checked_on_a_hand_whose_moves_fail(view, demo, screenshot):
    base, tampered, client = demo
    hid = next(h for h, k in tampered.items() if k == "illegal_show")
    record = client.get(f"/api/v1/hands/{hid}/record").get_json()
    _verify(view, base, record)
    strong = view.inner_text("#verdict strong")
    assert "not the moves or the payouts" in strong, strong
    assert "does not replay the moves" in view.inner_text("#verdict")
    view.evaluate("document.getElementById('verdict').scrollIntoView()")
    screenshot(view, f"rough-verify-moves-unchecked-{view.size}", full_page=False)


def test_verify_words_a_failed_seed_check_as_a_failure_and_does_not_draw_its_deal_as_real(view, demo, screenshot):
    base, tampered, client = demo
    hid = next(h["hand_id"] for h in client.get("/api/v1/hands?limit=200").get_json()["hands"]
               if h["state"] == "revealed" and h["hand_id"] not in tampered)
    record = client.get(f"/api/v1/hands/{hid}/record").get_json()
    seeds = record["fairness"]["player_seeds"]
    seeds[1] = ("0" if seeds[1][0] != "0" else "1") + seeds[1][1:]  # a seed that is not the committed one
    _verify(view, base, record)
    assert view.evaluate("document.body.dataset.state") == "failed"
    verdict = view.inner_text("#verdict")
    assert "Seat 1's seed matches its commitment" not in verdict
    assert "Seat 1's seed does NOT match its commitment" in verdict
    bad = view.locator("#checks li[data-ok='false'] .title").all_inner_texts()
    assert bad and all("matches" not in t for t in bad), bad
    assert view.get_attribute("#felt", "data-proof") == "wrong-seeds"
    assert view.inner_text("#deal-title").startswith("NOT the hand's deal")
    assert view.locator("#deal-note").is_visible()
    view.evaluate("document.getElementById('verdict').scrollIntoView()")
    screenshot(view, f"rough-verify-wrong-seed-{view.size}", full_page=False)
    view.evaluate("document.getElementById('felt').scrollIntoView()")
    screenshot(view, f"rough-verify-wrong-seed-deal-{view.size}", full_page=False)


# -- item 15: the first bad move is the move itself ---------------------------------------

def test_the_first_bad_move_link_shows_and_highlights_the_bad_move_itself(view, demo, screenshot):
    base, tampered, client = demo
    for kind in ("illegal_show", "dropped_move"):
        hid = next(h for h, k in tampered.items() if k == kind)
        verdict = client.get(f"/api/v1/hands/{hid}/verdict").get_json()
        n = verdict["first_bad_move"]
        record = client.get(f"/api/v1/hands/{hid}/record").get_json()
        view.goto(f"{base}/hands/{hid}")
        view.wait_for_selector("#replay[data-step]")
        view.click("a[data-first-bad-move]")
        view.wait_for_selector(f"#replay[data-bad-move='{n}']")
        bad = view.locator(f"#bad-move-{n}")
        assert bad.is_visible() and "target" in bad.get_attribute("class")
        assert f"Record move #{n}, rejected" in bad.inner_text()
        assert f"Record move #{n}, rejected" in view.inner_text("#rp-label")
        move = record["moves"][n]
        for card in move.get("sets", [[]])[0][:1] + ([move["card"]] if "card" in move else []):
            assert bad.locator(f"[data-card='{card}']").count() or card[:-1] in bad.inner_text()
        # it is in view, not only the position before it
        box = bad.bounding_box()
        assert 0 <= box["y"] < SIZES[view.size]["height"]
        screenshot(view, f"rough-bad-move-{kind}-{view.size}", full_page=False)
        view.click("#rp-next")  # stepping on leaves the highlight
        assert view.get_attribute("#replay", "data-bad-move") is None
