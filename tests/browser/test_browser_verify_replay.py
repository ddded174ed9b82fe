"""The verify page and the offline file replay a pasted record's moves where they have the
game's rules (web/static/verifier/recordchecks.mjs, issue #28): a record whose payouts were
forged fails ("Does not verify", replay:payouts with the audit's reason), an honest one says
exactly what was checked -- the deal, every move replayed, the outcome and the payouts
recomputed -- and never more.  Screenshots at desktop and phone widths:
screenshots/verify-replay-<case>-<size>.png."""
from __future__ import annotations

import json
import pathlib

import pytest

from verifier_page_helpers import shown_deal, verify

ROOT = pathlib.Path(__file__).resolve().parents[2]
OFFLINE = ROOT / "web" / "static" / "tiplu-verifier.html"
RECORDS = ROOT / "fixtures" / "records"
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
GAMES = {p.stem for p in (ROOT / "web" / "static" / "verifier" / "games").glob("*.mjs")}


def _record(name):
    return json.loads((RECORDS / name).read_text(encoding="utf-8"))


@pytest.fixture(params=sorted(SIZES))
def sized(request, browser):
    ctx = browser.new_context(viewport=SIZES[request.param], device_scale_factor=1)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    pg.size = request.param
    yield pg
    ctx.close()
    assert not errors, errors


def _paste(pg, record):
    pg.locator("body[data-ready='1']").wait_for()
    pg.click("#tab-record")
    pg.fill("#record-json", json.dumps(record, ensure_ascii=False))
    pg.fill("#operator-key", record["table"]["public_key"])


def _replay_checks(pg):
    return {c: ok for c, ok in shown_deal(pg)["checks"] if c.startswith("replay:") or c == "statements:fields"}


@pytest.mark.parametrize("where", ["page", "offline"])
def test_a_forged_payout_fails_and_an_honest_hand_says_the_moves_were_replayed(sized, static_server, where, screenshot):
    assert "kitti" in GAMES  # web/static/verifier/games/kitti.mjs
    url = static_server + "/verify.html" if where == "page" else OFFLINE.as_uri()
    # the operator paid seat 0 more than the hand gives: every move is legal, the payouts are not
    forged = _record("kitti/corrupted-inflated_payout.json")
    sized.goto(url)
    _paste(sized, forged)
    verify(sized, expect_state="failed")
    checks = _replay_checks(sized)
    assert checks["replay:moves"] == "true" and checks["replay:payouts"] == "false", checks
    assert shown_deal(sized)["reasons"]["replay:payouts"] == "payout_mismatch"
    verdict = sized.inner_text("#verdict")
    assert sized.inner_text("#verdict strong").startswith("\u2717 Does not verify")
    assert "do NOT match the recomputed settlement" in verdict  # named by what was found
    assert sized.evaluate("document.body.dataset.replay") == "replayed"
    sized.evaluate("document.getElementById('verdict').scrollIntoView()")
    screenshot(sized, f"verify-replay-forged-payout-{where}-{sized.size}", full_page=False)

    honest = _record("kitti/golden-0.json")
    sized.goto(url)
    _paste(sized, honest)
    state = verify(sized)
    assert state == "unproven"  # a record checked alone: nothing proves its timing (never a pass)
    checks = _replay_checks(sized)
    assert set(checks.values()) == {"true"} and {"replay:moves", "replay:outcome", "replay:payouts", "statements:fields"} <= set(checks)
    verdict = sized.inner_text("#verdict")
    n = len(honest["moves"])
    assert f"Every move ({n}) was replayed from this deal under the kitti rules" in verdict
    assert "outcome and the payouts recomputed to the cent" in verdict
    assert "does not replay the moves" not in verdict
    sized.evaluate("document.getElementById('verdict').scrollIntoView()")
    screenshot(sized, f"verify-replay-honest-{where}-{sized.size}", full_page=False)


def test_a_record_whose_moves_cannot_be_replayed_says_they_were_not_checked(page, static_server):
    # a hand record cut down (no seats, stakes or outcome): the deal and the log evidence verify, the moves
    # are NOT replayed, and the page says so -- never "moves and payouts verified"
    rec = _record("kitti/golden-0.json")
    cut = {k: rec[k] for k in ("format", "hand_id", "ruleset", "fairness", "moves")}
    cut["table"] = {"dealer": rec["table"]["dealer"], "public_key": rec["table"]["public_key"]}
    page.goto(static_server + "/verify.html")
    _paste(page, cut)
    assert verify(page) == "unproven"  # nothing failed (the deal, the log evidence); the moves not checked
    assert _replay_checks(page) == {"replay:moves": "null"}
    assert page.evaluate("document.body.dataset.replay") == "not-replayed"
    verdict = page.inner_text("#verdict")
    assert "The moves and the payouts were NOT checked" in verdict and "moves and payouts verified" not in verdict


def test_a_deck_mismatch_names_the_move(page, static_server):
    pick = next((p for p in sorted(RECORDS.rglob("corrupted-deck_mismatch.json"))
                 if _record(p.relative_to(RECORDS).as_posix())["ruleset"]["game"] in GAMES), None)
    assert pick is not None, "no game with a deck_mismatch fixture has its module"
    rec = _record(pick.relative_to(RECORDS).as_posix())
    page.goto(static_server + "/verify.html")
    _paste(page, rec)
    verify(page, expect_state="failed")
    shown = shown_deal(page)
    assert dict(shown["checks"])["replay:moves"] == "false"
    assert shown["reasons"]["replay:moves"] == "deck_mismatch"
    assert "The moves do NOT replay" in page.inner_text("#checks")
