"""What proved the timing, in the browser (/verify and the offline verifier from disk), for
the attack it exists for (issue #26): the operator's private-tree grind record
(tests/audit/timing_kit.py) pasted alone is "unproven" -- not a pass; under a pasted policy
requiring one witness it fails witness_quorum; the honest record a real witness cosigned is
"witnessed".  Screenshots at desktop and phone widths."""
from __future__ import annotations

import json
import pathlib

import pytest

from tests.audit.timing_kit import build_world
from verifier_page_helpers import verify

OFFLINE = pathlib.Path(__file__).resolve().parents[2] / "web" / "static" / "tiplu-verifier.html"
PHONE = {"width": 390, "height": 844}  # as tests/browser/conftest.py, never imported by name
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return build_world(tmp_path_factory.mktemp("browser-timing"))


def _open(page, where, static_server):
    page.goto(OFFLINE.as_uri() if where == "offline" else f"{static_server}/verify.html")
    page.locator("body[data-ready='1']").wait_for()
    page.click("#tab-record")


def _paste(page, record, policy=""):
    page.fill("#record-json", json.dumps(record))
    page.fill("#policy", policy)
    return verify(page)


@pytest.mark.parametrize("where", ["verify", "offline"])
def test_a_lone_grind_record_is_unproven_not_verified(page, world, static_server, screenshot, where):
    _open(page, where, static_server)
    state = _paste(page, world["forged"])
    assert state == "unproven"
    assert page.get_attribute("#timing", "data-timing") == "unproven"
    verdict = page.inner_text("#verdict")
    assert "Not proven" in verdict and "\u2713" not in verdict and "verified" not in verdict.splitlines()[0].lower()
    assert "pin a witness policy" in page.inner_text("#timing").lower() or "paste a witness policy" in verdict.lower()
    screenshot(page, f"timing-{where}-unproven-phone")
    page.set_viewport_size(DESKTOP)
    screenshot(page, f"timing-{where}-unproven-desktop")
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize("where", ["verify", "offline"])
def test_a_lone_grind_record_fails_under_a_policy_requiring_one_witness(page, world, static_server, screenshot,
                                                                       where):
    _open(page, where, static_server)
    state = _paste(page, world["forged"], world["policies"]["one-witness"])
    assert state == "failed"
    li = page.locator("#checks [data-check='log:policy']")
    assert li.get_attribute("data-ok") == "false" and li.get_attribute("data-reason") == "witness_quorum"
    assert "witness w1" in li.inner_text() and "w1: missing" in li.inner_text()
    assert "Does not verify" in page.inner_text("#verdict")
    screenshot(page, f"timing-{where}-witness-quorum-phone")
    page.set_viewport_size(DESKTOP)
    screenshot(page, f"timing-{where}-witness-quorum-desktop")
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize("where", ["verify", "offline"])
def test_the_honest_record_cosigned_by_the_witness_is_witnessed(page, world, static_server, screenshot, where):
    _open(page, where, static_server)
    state = _paste(page, world["honest"], world["policies"]["one-witness"])
    assert state == "verified", page.inner_text("#checks")
    assert page.get_attribute("#timing", "data-timing") == "witnessed"
    assert "Witnessed: 1 witness you pinned" in page.inner_text("#timing")
    # the moves replayed too (issue 28): the headline names all it checked
    assert page.inner_text("#verdict").startswith("\u2713 Deal, moves and payouts verified")
    # the policy's log pinned the operator key: the trust check says so
    assert "a log of the policy you pinned" in page.inner_text("#checks [data-check='log:trust']")
    screenshot(page, f"timing-{where}-witnessed-phone")
    page.set_viewport_size(DESKTOP)
    screenshot(page, f"timing-{where}-witnessed-desktop")


def test_bad_policies_and_conflicts_are_one_error(page, world, static_server):
    _open(page, "verify", static_server)
    page.fill("#record-json", json.dumps(world["honest"]))
    page.fill("#policy", "witness w1 nonsense\nquorum w1\n")
    assert verify(page) == "error"
    assert "policy line 1" in page.inner_text("#status")
    page.fill("#policy", world["policies"]["one-witness"])
    page.fill("#operator-key", "ab" * 32)
    assert verify(page) == "error"
    assert "not a log of your policy" in page.inner_text("#status")
    page.fill("#operator-key", world["key"])
    assert verify(page) == "verified"
