"""The hand page's transparency-log check in headless Chromium: the checkpoint's signature
under the pinned operator key, and each published statement's inclusion proof, computed in
the browser (web/static/hand-log-check.mjs) against a real ledger served by the real app.

The ledger is a simulated Kitti table (audit.operator.sim.archive) whose players have Devanagari
names, signed by a deterministic operator key; with a tamper rate, some hands are
published by a dishonest operator who re-signs what it changes -- statements the log never
saw.  Screenshots go to ``screenshots/logcheck-*.png``.
"""
from __future__ import annotations

import pathlib
import threading

import pytest
from werkzeug.serving import make_server

import audit.operator.sim.tables as sim_tables
from audit.operator.ledger import Ledger
from audit.operator.publish import get_published
from audit.operator.sim.archive import OPERATOR, simulate_archive
from audit.tlog.checkpoint import CheckpointSigner
from audit.tlog.store import TransparencyLog, leaf_entry
from web import create_app

#: Non-ASCII names end up in the statements (seat-receipt, seat-reveal, hand): the browser's
#: canonical JSON must write them byte for byte as Python does.  The last has an astral
#: character (a surrogate pair in JavaScript).
NAMES = ("आशा", "बिकाश", "चन्द्र \U0001F0A1")
#: tamper kinds that leave the deal computable, so the page shows its check panel
# the classes that edit published statements (a lie in the record itself, like
# inflated_payout, is attached at finish and so logged as it is: the replay catches that)
PANEL_KINDS = {"forged_signature", "wrong_seed", "early_reveal"}
SCREENSHOTS = pathlib.Path(__file__).resolve().parents[2] / "screenshots"


def panel_shot(page, name: str) -> None:
    """Save just the "Check it in your browser" panel as screenshots/<name>.png."""
    SCREENSHOTS.mkdir(exist_ok=True)
    page.locator("#browser-check").screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """(base URL, ledger path, tampered {hand: kind}) of the app served in a background thread."""
    path = str(tmp_path_factory.mktemp("logcheck") / "ledger.db")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sim_tables, "PLAYERS", NAMES)
        ledger = Ledger(path, create=True)
        try:
            run = simulate_archive(ledger, [("kitti", 3, 8)], seed="logcheck", tamper_rate=0.5,
                                   tamper_hands={7: "forged_signature"})  # one edit of a statement for sure
            key = ledger.signing_key(OPERATOR)
        finally:
            ledger.close()
    app = create_app({"TESTING": True, "TIPLU_DB": path,
                      "TIPLU_CHECKPOINT_SIGNER": CheckpointSigner(key, "tiplu.test/log")})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", path, run.tampered
    server.shutdown()


def published_and_logged(path: str, hand_id: str) -> tuple[list[dict], set[bytes]]:
    """The published record's statements, and the entries the log holds (Python's own view)."""
    ledger = Ledger(path)
    try:
        statements = get_published(ledger, hand_id)["fairness"]["statements"]
        log = TransparencyLog(ledger.db, migrate=False)
        entries = {e for _, e in log.entries(0, log.size())}
    finally:
        ledger.close()
    return statements, entries


def log_items(page) -> dict[str, dict]:
    return {c["name"]: c for c in page.locator("#check-list li[data-check^='live:']").evaluate_all(
        "els => els.map(e => ({name: e.dataset.check, ok: e.dataset.ok, title: e.querySelector('b').textContent}))")}


def test_a_clean_hand_passes_every_log_check(page, live, screenshot):
    base, path, tampered = live
    hid = next(f"kitti-3p-t0-h{k:04d}" for k in range(8) if f"kitti-3p-t0-h{k:04d}" not in tampered)
    statements, logged = published_and_logged(path, hid)
    assert all(leaf_entry(s) in logged for s in statements)  # the premise: an honest record
    page.goto(f"{base}/hands/{hid}")
    page.wait_for_selector("#browser-check[data-state='verified']", timeout=20000)
    items = log_items(page)
    assert items["live:checkpoint"]["ok"] == "true"
    assert "Checkpoint signed by the operator" in items["live:checkpoint"]["title"]
    for k, s in enumerate(statements, start=1):
        item = items[f"live:statement:{k}"]
        assert item["ok"] == "true", item
        assert f"Statement {k} ({s['statement']['kind']}) is in the log at index" in item["title"]
    assert items["live:order"]["ok"] == "true" and items["live:complete"]["ok"] == "true"
    oks = page.locator("#check-list li").evaluate_all("els => els.map(e => e.dataset.ok)")
    assert oks and all(ok == "true" for ok in oks)
    screenshot(page, "logcheck-clean-phone")
    panel_shot(page, "logcheck-clean-panel")


def test_browser_leaf_entries_are_python_s_bytes(page, live):
    """canonical.mjs writes each real statement (Devanagari and astral player names
    included) byte for byte as audit.tlog.store.leaf_entry."""
    base, path, tampered = live
    hid = "kitti-3p-t0-h0001"
    statements, _ = published_and_logged(path, hid)
    assert any(ord(ch) > 0xFFFF for s in statements for ch in str(s["statement"].get("player", "")))
    page.goto(f"{base}/hands/{hid}")
    got = page.evaluate("""async (statements) => {
      const K = await import("/static/verifier/canonical.mjs");
      return statements.map((s) => Array.from(K.canonicalJson({statement: s.statement, key: s.key, sig: s.sig}),
        (b) => b.toString(16).padStart(2, "0")).join(""));
    }""", statements)
    assert got == [leaf_entry(s).hex() for s in statements]


def test_a_statement_the_log_never_saw_fails_by_name(page, live, screenshot):
    base, path, tampered = live
    hid, kind = next((h, k) for h, k in sorted(tampered.items()) if k in PANEL_KINDS)
    statements, logged = published_and_logged(path, hid)
    # which published statements the log does not hold, found in Python
    forged = {k for k, s in enumerate(statements, start=1) if leaf_entry(s) not in logged}
    assert forged, f"the {kind} forgery should change a statement"
    page.goto(f"{base}/hands/{hid}")
    page.wait_for_selector("#browser-check[data-state='failed']", timeout=20000)
    items = log_items(page)
    assert items["live:checkpoint"]["ok"] == "true"  # the log itself is honest and signed
    for k, s in enumerate(statements, start=1):
        item = items[f"live:statement:{k}"]
        label = f"Statement {k} ({s['statement']['kind']})"
        if k in forged:
            assert item["ok"] == "false" and item["title"].endswith(f"{label} is NOT in the log"), item
        else:
            assert item["ok"] == "true" and f"{label} is in the log at index" in item["title"], item
    assert items["live:complete"]["ok"] == "false"  # the logged original is missing from the record
    # the server's audit rejects the forgery too: the browser "also" finds a fault (issue 29)
    assert "also finds a fault" in page.inner_text("#check-status")
    page.locator(f"#check-list li[data-check='live:statement:{min(forged)}']").scroll_into_view_if_needed()
    screenshot(page, f"logcheck-{kind.replace('_', '-')}-phone")
    panel_shot(page, f"logcheck-{kind.replace('_', '-')}-panel")


def test_without_webcrypto_ed25519_the_signature_is_not_a_pass(browser, live, screenshot):
    base, path, tampered = live
    # an honest hand (the simulator's tamper choices move with its streams: never a fixed id)
    hid = next(f"kitti-3p-t0-h{k:04d}" for k in range(8) if f"kitti-3p-t0-h{k:04d}" not in tampered)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    # an older browser: WebCrypto without Ed25519 (importKey refuses the algorithm)
    ctx.add_init_script("""(() => {
      const real = crypto.subtle.importKey.bind(crypto.subtle);
      crypto.subtle.importKey = (format, key, alg, ...rest) => {
        const name = typeof alg === "string" ? alg : alg && alg.name;
        if (name === "Ed25519") return Promise.reject(new DOMException("Unrecognized name.", "NotSupportedError"));
        return real(format, key, alg, ...rest);
      };
    })();""")
    pg = ctx.new_page()
    try:
        pg.goto(f"{base}/hands/{hid}")
        pg.wait_for_selector("#browser-check[data-state='incomplete']", timeout=20000)
        items = log_items(pg)
        assert items["live:checkpoint"]["ok"] == "null"
        assert "NOT checked" in items["live:checkpoint"]["title"]
        statement_items = [v for k, v in items.items() if k.startswith("live:statement:")]
        assert statement_items and all(v["ok"] == "true" for v in statement_items)
        assert "not everything could be checked" in pg.inner_text("#check-status")
        screenshot(pg, "logcheck-no-ed25519-phone")
        panel_shot(pg, "logcheck-no-ed25519-panel")
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def live_site(tmp_path_factory):
    """(base URL, site) of the web tests' ledger (tests/web/web_testkit.py), served with the
    operator's key signing checkpoints: it has a finished hand whose seed is still secret."""
    from tests.web.web_testkit import OPERATOR as SITE_OPERATOR, build_site

    site = build_site(str(tmp_path_factory.mktemp("logcheck-site") / "site.db"))
    ledger = Ledger(site.db_path)
    try:
        key = ledger.signing_key(SITE_OPERATOR)
    finally:
        ledger.close()
    app = create_app({"TESTING": True, "TIPLU_DB": site.db_path,
                      "TIPLU_CHECKPOINT_SIGNER": CheckpointSigner(key, "tiplu.test/log")})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", site
    server.shutdown()


def test_a_finished_hand_is_checked_against_the_log_before_the_reveal(page, live_site, screenshot):
    base, site = live_site
    hid = site.hands["finished"]
    page.goto(f"{base}/hands/{hid}")
    page.wait_for_selector("#browser-check[data-state='verified']", timeout=20000)
    names = page.locator("#check-list li").evaluate_all("els => els.map(e => e.dataset.check)")
    # no deal to check yet: the log checks, and (tiplu.hand/3) the move chain and the statements
    assert names[0] == "log:bound" and all(n.startswith(("log:", "live:", "moves:", "statements:")) for n in names)
    items = log_items(page)
    assert all(v["ok"] == "true" for v in items.values())
    kinds = [t["title"] for k, t in items.items() if k.startswith("live:statement:")]
    assert f"Statement {len(kinds)} (record) is in the log at index" in kinds[-1]
    assert site.secret_seeds[hid] not in page.content()
    panel_shot(page, "logcheck-finished-panel")


def test_a_checkpoint_signed_by_another_key_fails_the_pinned_key(page, live_site):
    """A checkpoint signed by a key other than the hand's operator key (a stranger's, or
    another operator's): the signature check fails by name.  Since one log per operator the
    site itself refuses to sign with a key that is no operator's (503 log_key_not_operator),
    so the answer is forged on the way: the same origin, size and root, signed by a stranger."""
    import json

    from audit.signing import SigningKey
    from audit.tlog.checkpoint import parse_checkpoint, sign_checkpoint

    base, site = live_site
    stranger = SigningKey.from_hex("44" * 32)

    def forge(route):
        answer = route.fetch()
        body = answer.json()
        real = parse_checkpoint(body["checkpoint"])
        body["checkpoint"] = str(sign_checkpoint(stranger, origin=real.origin, size=real.size, root=real.root))
        route.fulfill(response=answer, body=json.dumps(body))

    page.route("**/api/v1/hands/*/log-proofs*", forge)
    page.goto(f"{base}/hands/{site.hands['revealed0']}")
    page.wait_for_selector("#browser-check[data-state='failed']", timeout=20000)
    items = log_items(page)
    assert items["live:checkpoint"]["ok"] == "false"
    assert "Checkpoint NOT signed by the operator" in items["live:checkpoint"]["title"]  # what was found (issue 29)
