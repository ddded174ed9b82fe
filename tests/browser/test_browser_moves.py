"""Issue 27's attacks in headless Chromium (web/static/seat-client.mjs, verifier/movechain.mjs):
the browser gives the answers audit/auditor/verdict/receipt_check.py and audit/auditor/verdict/move_receipts.py give.

* other moves than were played: compareReceipt with the seat's move receipts contradicts the
  forged record (one ``moves`` line); checkMoveReceipt checks each receipt's signature and
  its place in the chain;
* a record whose moves are not its logged head: the verifier's ``moves:chain`` check fails
  (``statement_mismatch``), as the audit's does;
* a fork of stake and commission, another name in the seat: compareReceipt contradicts them
  and checkBeforeReveal refuses before anything is sent.
"""
from __future__ import annotations

import pytest

from audit.auditor.verdict.receipt_check import compare
from replay.movechain import start_head
from tests.audit.test_moves_bound import KEY, fork, forge_moves, seed
from tests.audit.test_moves_bound import honest as _honest  # noqa: F401 - the fixture, reused

honest = _honest


@pytest.fixture(scope="module")
def spage(browser, static_server):
    pg = browser.new_page()
    pg.goto(f"{static_server}/verify.html")
    pg.evaluate("async () => { window.S = await import('/seat-client.mjs'); window.M = await import('/verifier/movechain.mjs');"
                " window.T = await import('/verifier/tlogproof.mjs'); }")
    yield pg
    pg.close()


COMPARE = """async ([r, rec, key, moves]) => {
  const out = await S.compareReceipt(r, rec, {publicKey: key, moveReceipts: moves});
  return {consistent: out.consistent, whats: out.contradictions.map((c) => c.what),
          messages: out.contradictions.map((c) => c.message)}; }"""


def test_other_moves_are_proved_forged_in_the_browser(spage, honest):
    _, receipts, move_receipts, record, played = honest
    forged = forge_moves(record, played, rebind=True)
    ok = spage.evaluate(COMPARE, [receipts[0], record, KEY.public_hex, move_receipts])
    assert ok["consistent"] is True, ok
    bad = spage.evaluate(COMPARE, [receipts[0], forged, KEY.public_hex, move_receipts])
    py = compare(receipts[0], forged, public_key=KEY.public_hex, move_receipts=move_receipts)
    assert bad["whats"] == [c.what for c in py.contradictions] and "moves" in bad["whats"]
    assert [m for m in bad["messages"] if "are not the moves played" in m]


def test_each_move_receipt_is_checked_as_it_comes(spage, honest):
    _, _, move_receipts, record, _ = honest
    commitment = record["fairness"]["server_commitment"]
    got = spage.evaluate("""async ([mr, key, moves, commitment]) => {
      const out = [];
      let prev = null;
      for (const [i, r] of mr.entries()) {
        const st = await S.checkMoveReceipt(r, key, {handId: "h1", previous: prev, move: moves[i], commitment});
        out.push(st.n_moves); prev = r;
      }
      const fail = async (f) => { try { await f(); return null; } catch (e) { return e.message; } };
      const forged = {...mr[1], statement: {...mr[1].statement, head: "00".repeat(32)}};
      return {out,
        badSig: await fail(() => S.checkMoveReceipt(forged, key, {handId: "h1", previous: mr[0]})),
        skipped: await fail(() => S.checkMoveReceipt(mr[2], key, {handId: "h1", previous: mr[0]})),
        otherMove: await fail(() => S.checkMoveReceipt(mr[0], key, {handId: "h1", move: moves[1], commitment})),
        otherHand: await fail(() => S.checkMoveReceipt(mr[0], key, {handId: "h2"}))};
    }""", [move_receipts, KEY.public_hex, record["moves"], commitment])
    assert got["out"] == list(range(1, len(move_receipts) + 1))
    assert "does not verify" in got["badSig"] and "not the next one" in got["skipped"]
    assert "not the chain's head after move 1" in got["otherMove"] and "not h2" in got["otherHand"]
    equivocation = KEY.sign(dict(move_receipts[1]["statement"], head="00" * 32))  # signed: a second history
    kept = spage.evaluate("""async ([mr, key, two]) => {
      const fail = async (f) => { try { await f(); return null; } catch (e) { return e.message; } };
      let kept = await S.keepMoveReceipts([], mr.slice(0, 1), key, {handId: "h1"});
      kept = await S.keepMoveReceipts(kept, mr.slice(0, 2), key, {handId: "h1"});
      return {n: kept.map((r) => r.statement.n_moves),
              skip: await fail(() => S.keepMoveReceipts(kept.slice(0, 1), mr.slice(2, 3), key, {handId: "h1"})),
              two: await fail(() => S.keepMoveReceipts(kept, [two], key, {handId: "h1"}))};
    }""", [move_receipts, KEY.public_hex, equivocation])
    assert kept["n"] == [1, 2] and "not the next one" in kept["skip"] and "two heads after move 2" in kept["two"]
    # head_0 in the browser is the Python bytes
    h0 = spage.evaluate("async ([c]) => Array.from(await M.startHead('h1', c)).map((b) => b.toString(16).padStart(2, '0')).join('')",
                        [commitment])
    assert h0 == start_head("h1", commitment).hex()


def test_moves_not_bound_by_the_logged_head_fail_the_verifier(spage, honest):
    _, _, _, record, played = honest
    careless = forge_moves(record, played, rebind=False)
    checks = spage.evaluate("async ([r, key]) => T.recordLogChecks(r, {publicKey: key})", [careless, KEY.public_hex])
    chain = [c for c in checks if c["name"] == "moves:chain"]
    assert chain and chain[0]["ok"] is False and chain[0]["reason"] == "statement_mismatch"
    honest_checks = spage.evaluate("async ([r, key]) => T.recordLogChecks(r, {publicKey: key})", [record, KEY.public_hex])
    assert [c["ok"] for c in honest_checks if c["name"].startswith("moves:")] == [True, True]


def test_a_fork_of_the_terms_and_another_name_in_the_browser(spage, honest):
    _, receipts, _, record, _ = honest
    _, forked = fork(point_value="1", commission_pct="20")
    shill_receipts, shill_record = fork(names=["shill", "bikash", "chandra"])
    for rec, rcd in ((receipts[0], forked), (receipts[2], shill_record)):
        got = spage.evaluate(COMPARE, [rec, rcd, KEY.public_hex, []])
        assert got["whats"] == [c.what for c in compare(rec, rcd, public_key=KEY.public_hex).contradictions]
    assert {"point_value", "commission_pct"} <= set(spage.evaluate(COMPARE, [receipts[0], forked, KEY.public_hex, []])["whats"])
    assert "seat_name" in spage.evaluate(COMPARE, [receipts[2], shill_record, KEY.public_hex, []])["whats"]
    refused = spage.evaluate("""async ([good, shill, forkedR, key, seedHex]) => {
      const opts = {handId: "h1", seat: 0, seedHex};
      const fail = async (r, o) => { try { await S.checkBeforeReveal(r, key, {...opts, ...o}); return null; } catch (e) { return e.message; } };
      return {good: await fail(good, {player: "asha", terms: {point_value: "0.250", commission_pct: "5"}}),
              name: await fail(shill, {player: "asha"}),
              terms: await fail(forkedR, {terms: {point_value: "0.25"}})};
    }""", [receipts[0], shill_receipts[0], fork(point_value="1", commission_pct="20")[0][0], KEY.public_hex, seed(0).hex()])
    assert refused["good"] is None
    assert 'seats "shill" at seat 0, not you ("asha")' in refused["name"]
    assert "point_value" in refused["terms"] and "as you agreed" in refused["terms"]


def test_the_hand_page_checks_the_move_receipts_too(page, tmp_path_factory):
    """The hand page's receipt form with the seat's move receipts: the published record agrees
    with the receipts the ledger gave; a receipt of another history (signed by the operator's
    key, another head) is a contradiction -- the record's moves are not the moves it binds."""
    import json
    import logging
    import threading

    from werkzeug.serving import make_server

    from audit.operator.ledger import Ledger
    from audit.operator.receipts import receipt
    from audit.operator.sim.archive import OPERATOR, simulate_archive
    from tests.browser.test_browser_seat_client import run_form
    from web import create_app

    path = str(tmp_path_factory.mktemp("movespage") / "ledger.db")
    with Ledger(path, create=True) as ledger:
        simulate_archive(ledger, [("rummy13", 4, 1)], seed="moves-page")
        key = ledger.signing_key(OPERATOR)
        hand = next(v.id for v in ledger.list_hands())
        kept = receipt(ledger, next(s.signed for s in ledger.statements(hand) if s.kind == "seat-receipt"), key=key)
        moves = ledger.move_receipts(hand)
    assert len(moves) > 3
    other = key.sign(dict(moves[2]["statement"], head="00" * 32))
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, create_app({"TESTING": True, "TIPLU_DB": path}), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    try:
        for given, good in ((moves, True), (moves[:2] + [other], False)):
            page.goto(f"{url}/hands/{hand}")
            page.fill("#receipt-moves", "\n".join(json.dumps(m) for m in given))
            state, status = run_form(page, url, hand, kept, key.public_hex, goto=False)
            assert state == ("good" if good else "bad"), status
            text = page.inner_text("#receipt-list")
            assert (f"give the head of {len(given)} of your move receipts" in text) if good else \
                ("are not the moves played" in text)
    finally:
        server.shutdown()
        thread.join(5)
