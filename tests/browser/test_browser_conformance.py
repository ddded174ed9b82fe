"""The conformance suite (fixtures/conformance, docs/conformance.md) run against the in-browser
verifier (web/static/verifier, loaded as modules over http) and the offline verifier
(web/static/tiplu-verifier.html opened from disk), in headless Chromium: every case passes,
and none is answered unsupported -- every game has its module in web/static/verifier/games/,
so a case answered unsupported is a failure (issue #28)."""
from __future__ import annotations

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import conformance  # noqa: E402

OFFLINE = ROOT / "web" / "static" / "tiplu-verifier.html"
SUITE = conformance.load()
GAMES_DIR = ROOT / "web" / "static" / "verifier" / "games"


def _may_be_unsupported() -> set[str]:
    """The cases a verifier lacking a game's module may answer unsupported: none, with all three."""
    assert {"kitti", "marriage", "rummy13"} <= {p.stem for p in GAMES_DIR.glob("*.mjs")}
    return conformance.needing_games(SUITE["cases"], [p.stem for p in GAMES_DIR.glob("*.mjs")])


def _run(page, expression):
    return conformance.run(SUITE["cases"], lambda request: page.evaluate(expression, request))


def _check(report):
    bad = [r for r in report.results if r[1] == "fail"]
    assert not bad, bad[:6]
    unsupported = {cid for cid, status, _ in report.results if status == "unsupported"}
    assert unsupported == _may_be_unsupported() == set()  # every game has its module: none at all
    assert report.count("pass") == len(SUITE["cases"]) - len(unsupported) > 140


def test_browser_verifier_passes_the_suite(page, static_server):
    page.goto(f"{static_server}/verify.html")
    page.evaluate("async () => { window.C = await import('/verifier/conformance.mjs'); }")
    _check(_run(page, "r => window.C.answerConformance(r)"))


def test_offline_verifier_passes_the_suite(page):
    page.goto(OFFLINE.as_uri())
    page.locator("body[data-ready='1']").wait_for()
    assert page.evaluate("typeof globalThis.tipluConformance") == "function"
    _check(_run(page, "r => globalThis.tipluConformance(r)"))


# patched copies of the offline file, one mistake each: (what, the text replaced, the wrong text,
# the cases run, a case that must fail)
WRONG = {
    "ascii-escape": ("function canonicalText(value) {",
                     "function canonicalText(value) { return JSON.stringify(value).replace(/[\\u0080-\\uffff]/g, "
                     "(ch) => '\\\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0')); }\nfunction _unused(value) {",
                     ["canonical/"], "canonical/non-ascii"),
    "modulo": ("    const limit = TWO32 - (TWO32 % n);\n    for (;;) {", "    const limit = TWO32;\n    for (;;) {",
               ["randbelow/", "stream/"], "randbelow/three-quarters"),
    "leaf-no-prefix": ("async function leafHash(entry) { return sha256(Uint8Array.of(0), entry); }",
                       "async function leafHash(entry) { return sha256(entry); }", ["leaf/", "canonical/"],
                       "leaf/commitment"),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_a_wrong_offline_verifier_fails_a_case(page, name):
    old, new, prefixes, must_fail = WRONG[name]
    html = OFFLINE.read_text(encoding="utf-8")
    assert html.count(old) == 1, name
    page.set_content(html.replace(old, new))
    page.locator("body[data-ready='1']").wait_for()
    cases = conformance.select(SUITE["cases"], prefixes)
    report = conformance.run(cases, lambda request: page.evaluate("r => globalThis.tipluConformance(r)", request))
    assert must_fail in report.failed()
    assert report.count("pass") > 0  # the copy still runs: only the one mistake fails cases
