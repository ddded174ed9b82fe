"""Witness cosignatures checked in headless Chromium (merkle.mjs) exactly as in Python."""
from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

from audit.signing import SigningKey
from audit.tlog.cosignature import cosign, witness_vkey
from audit.tlog.note import parse_note

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parents[2]
DOC = (ROOT / "docs" / "transparency-log.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def mpage(browser):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(ROOT))
    handler.extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript"}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    pg = browser.new_page()
    pg.goto(f"http://127.0.0.1:{server.server_port}/fixtures/tlog/rfc6962-vectors.json")
    pg.evaluate("async () => { window.M = await import('/web/static/verifier/merkle.mjs'); }")
    yield pg
    pg.close()
    server.shutdown()


def documented():
    import re
    section = DOC[DOC.index("### The exact bytes of a cosignature"):]
    return re.findall(r"```\n(.*?)```", section, re.S)[0]


W1, W2 = SigningKey.from_hex("33" * 32), SigningKey.from_hex("34" * 32)
V1, V2 = str(witness_vkey("witness.example/w1", W1.public_hex)), str(witness_vkey("witness.example/w2", W2.public_hex))


def test_the_documented_cosignature_verifies_in_the_browser(mpage):
    out = mpage.evaluate("""async ([text, v1, v2]) => {
        const r = await M.verifyCosignatures(text, [v1, v2]);
        const q1 = await M.checkWitnessQuorum(text, [v1, v2], 1);
        const q2 = await M.checkWitnessQuorum(text, [v1, v2], 2);
        return [r, q1.ok, q2.ok, q2.count];
    }""", [documented(), V1, V2])
    results, q1, q2, count = out
    assert [(r["name"], r["ok"], r["timestamp"], r["reason"]) for r in results] == [
        ("witness.example/w1", True, 1796126400, None), ("witness.example/w2", False, None, "missing")]
    assert (q1, q2, count) == (True, False, 1)


def test_a_tampered_or_foreign_cosignature_fails_in_the_browser(mpage):
    text = documented()
    body = parse_note(text).body
    other = str(cosign(W1, "witness.example/w1", body.replace(b"\n6\n", b"\n7\n"), 1796126400))  # another checkpoint's line
    swapped = text.rsplit("\u2014 witness.example/w1", 1)[0] + other
    out = mpage.evaluate("""async ([swapped, v1, logVkey]) => {
        const r = await M.verifyCosignatures(swapped, [v1]);
        let typeErr = null;
        try { await M.parseVkey(logVkey, M.TYPE_COSIGNATURE); } catch (e) { typeErr = e.name; }
        let idErr = null;
        try { await M.parseVkey(v1.replace(/\\+[0-9a-f]{8}\\+/, "+00000000+")); } catch (e) { idErr = e.name; }
        return [r[0].ok, r[0].reason, typeErr, idErr];
    }""", [swapped, V1, "tiplu.example/log+3c3d1f01+AdBKsjJ0K7SrOhNovUYV5ObQIkq3GgFrr4UgozLJd4c3"])
    assert out == [False, "invalid: the cosignature does not verify", "SignatureError", "SignatureError"]


def test_python_and_browser_agree_on_many_keys(mpage):
    text = documented()
    body = parse_note(text).body
    keys = [SigningKey.from_hex(f"{i + 64:02x}" * 32) for i in range(12)]
    names = [f"w{i}.example/x" for i in range(12)]
    cosigned = text + "".join(str(cosign(k, n, body, 1796126400 + i)) for i, (k, n) in enumerate(zip(keys, names)) if i % 3)
    vkeys = [str(witness_vkey(n, k.public_hex)) for k, n in zip(keys, names)]
    out = mpage.evaluate("async ([t, v]) => (await M.verifyCosignatures(t, v)).map((r) => r.ok)", [cosigned, vkeys])
    assert out == [bool(i % 3) for i in range(12)]


def test_witness_checks_in_the_check_shape(mpage):
    out = mpage.evaluate("""async ([text, v1, v2]) => {
        const W = await import('/web/static/verifier/witnesses.mjs');
        const one = await W.witnessChecks(text, {witnesses: [v1]});
        const two = await W.witnessChecks(text, {witnesses: [v1, v2]});
        const some = await W.witnessChecks(text, {witnesses: [v1, v2], quorum: 1});
        const theirs = await W.witnessChecks(text, {witnesses: [v1, v2], basis: "operator", claimed: ["witness.example/w1"]});
        const lying = await W.witnessChecks(text, {witnesses: [v1, v2], basis: "operator", claimed: ["witness.example/w2"]});
        const nobody = await W.witnessChecks(text, {witnesses: [v2], basis: "operator"});
        const none = await W.witnessChecks(text, {});
        return [one[0], two[0], some[0].ok, [theirs[0].ok, theirs[0].title], [lying[0].ok, lying[0].reason], nobody[0].ok, none.length];
    }""", [documented(), V1, V2])
    one, two, some, theirs, lying, nobody, none = out
    assert one["name"] == "log:witnesses" and one["ok"] is True
    assert "witness.example/w1: cosigned at 2026-12-01T12:00:00Z" in one["detail"]
    assert two["ok"] is False and two["reason"] == "witness_quorum" and "witness.example/w2: missing" in two["detail"]
    assert some is True and none == 0
    # witnesses the server names: no quorum; a pass only says the lines it claims verify here
    assert theirs == [True, "Witnesses this server names: 1 of 2 cosigned the checkpoint"]
    assert lying == [False, "witness_quorum"] and nobody is None


def test_one_key_under_two_names_counts_once_in_the_browser(mpage):
    """Performed: key W1 cosigns under two names; a quorum of 2 over them and W2 is not met
    until W2 cosigns too -- as audit/tlog/cosignature.py check_quorum counts."""
    from audit.tlog.cosignature import WitnessQuorumError, check_quorum, parse_witness_vkey

    text = documented()
    body = parse_note(text).body
    alias = str(witness_vkey("witness.example/alias", W1.public_hex))
    twice = text + str(cosign(W1, "witness.example/alias", body, 1796126401))  # w1's line is already there
    thrice = twice + str(cosign(W2, "witness.example/w2", body, 1796126402))
    out = mpage.evaluate("""async ([twice, thrice, v1, alias, v2]) => {
        const W = await import('/web/static/verifier/witnesses.mjs');
        const a = await M.checkWitnessQuorum(twice, [v1, alias, v2], 2);
        const b = await M.checkWitnessQuorum(thrice, [v1, alias, v2], 2);
        let tooMany = null;
        try { await M.checkWitnessQuorum(twice, [v1, alias], 2); } catch (e) { tooMany = e.message; }
        const checks = await W.witnessChecks(twice, {witnesses: [v1, alias, v2], quorum: 2});
        const all = await W.witnessChecks(twice, {witnesses: [v1, alias]});
        return [[a.ok, a.count, a.distinct, a.results.map((r) => r.ok)], [b.ok, b.count], tooMany,
                [checks[0].ok, checks[0].reason, checks[0].detail], [all[0].ok, all[0].title]];
    }""", [twice, thrice, V1, alias, V2])
    a, b, too_many, checks, every = out
    assert a == [False, 1, 2, [True, True, False]] and b == [True, 2]
    assert "needs at least that many distinct witness keys (got 1)" in too_many
    assert checks[:2] == [False, "witness_quorum"]
    assert "witness.example/w1 and witness.example/alias are one key, counted once" in checks[2]
    assert every == [True, "Checkpoint cosigned by at least 1 of 2 witnesses"]  # "all" = every distinct key
    vkeys = [parse_witness_vkey(v) for v in (V1, alias, V2)]
    with pytest.raises(WitnessQuorumError):
        check_quorum(twice, vkeys, 2)
    check_quorum(thrice, vkeys, 2)
