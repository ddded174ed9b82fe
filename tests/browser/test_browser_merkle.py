"""web/static/verifier/merkle.mjs in headless Chromium: the same proofs and checkpoints as Python."""
from __future__ import annotations

import functools
import http.server
import json
import threading
from pathlib import Path

import pytest

from audit.signing import SigningKey
from audit.tlog.checkpoint import sign_checkpoint
from audit.tlog.merkle import MemoryTree, leaf_hash

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def mpage(browser):
    """One page on the repo root (for the fixtures and merkle.mjs), from the shared browser."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(ROOT))
    handler.extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript"}
    http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    pg = browser.new_page()
    pg.goto(f"http://127.0.0.1:{server.server_port}/fixtures/tlog/rfc6962-vectors.json")
    pg.evaluate("async () => { window.M = await import('/web/static/verifier/merkle.mjs'); }")
    yield pg
    pg.close()
    server.shutdown()


def test_known_answers_in_the_browser(mpage):
    vectors = json.loads((ROOT / "fixtures/tlog/rfc6962-vectors.json").read_text())
    out = mpage.evaluate("""async (V) => {
        const leaves = await Promise.all(V.entries.map(async (e) => M.bytesToHex(await M.leafHash(M.hexToBytes(e)))));
        const res = [];
        for (const v of V.inclusion) {
            res.push(await M.rootFromInclusionProof(leaves[v.index], v.index, v.size, v.path) === V.roots[v.size]);
            res.push(await M.verifyInclusion(leaves[v.index], v.index, v.size, v.path, V.roots[v.size]));
        }
        for (const v of V.consistency)
            res.push(await M.verifyConsistency(v.first, v.second, V.roots[v.first], V.roots[v.second], v.path));
        return res;
    }""", vectors)
    assert out == [True] * 7


def test_every_proof_up_to_40_and_its_bit_flips(mpage):
    tree = MemoryTree(leaf_hash(f"e{i}".encode()) for i in range(40))
    cases = []
    for n in range(1, 41):
        for m in range(n):
            cases.append([tree.levels[0][m].hex(), m, n, [p.hex() for p in tree.inclusion_proof(m, n)], tree.root(n).hex()])
    out = mpage.evaluate("""async (cases) => {
        let ok = 0, rejected = 0, wrong = [];
        const flip = (h, bit) => { const b = M.hexToBytes(h); b[bit >> 3] ^= 1 << (bit & 7); return M.bytesToHex(b); };
        for (const [leaf, m, n, path, root] of cases) {
            if (await M.verifyInclusion(leaf, m, n, path, root)) ok++;
            const bad = [[flip(leaf, (m * 7) % 256), m, n, path, root], [leaf, m, n, path, flip(root, n % 256)],
                         [leaf, m ^ 1, n, path, root], [leaf, m, n, path.concat([root]), root]];
            if (path.length) bad.push([leaf, m, n, path.map((p, j) => j === m % path.length ? flip(p, 200) : p), root]);
            for (const args of bad) {
                try { await M.verifyInclusion(...args); wrong.push(args); }
                catch (e) { if (e.name === "ProofError") rejected++; else wrong.push(String(e)); }
            }
        }
        return {ok, rejected, wrong};
    }""", cases)
    assert out["ok"] == len(cases) and out["wrong"] == [] and out["rejected"] > 4 * len(cases)


def test_checkpoint_signature_in_the_browser(mpage):
    from tests.tlog.legacy_kit import legacy_checkpoint

    key = SigningKey.from_hex("11" * 32)
    cp = sign_checkpoint(key, origin="tiplu.test/log", size=6, root=bytes(range(32)))
    legacy = legacy_checkpoint(key, origin="tiplu.test/log", size=6, root=bytes(range(32)))
    if not mpage.evaluate("() => M.ed25519Supported()"):
        pytest.skip("this Chromium's WebCrypto has no Ed25519 (documented: signatures then go unchecked)")
    out = mpage.evaluate("""async ([text, legacy, pub, other]) => {
        const cp = await M.verifyCheckpoint(text, pub);
        const res = [cp.origin, String(cp.size), cp.rootHex, cp.legacyTime];
        const old = await M.verifyCheckpoint(legacy, pub, null, {legacy: true});
        res.push(old.legacyTime);
        for (const [t, k, o] of [[text.replace("\\n6\\n", "\\n7\\n"), pub, {}], [text, other, {}],
                                 [legacy, pub, {}], [legacy.replace("14:35:00Z", "14:35:01Z"), pub, {legacy: true}],
                                 [legacy.replace("\\ntime ", "\\nnote "), pub, {legacy: true}]]) {
            try { await M.verifyCheckpoint(t, k, null, o); res.push("accepted"); } catch (e) { res.push(e.name); }
        }
        res.push(M.acceptsLegacyTime("tiplu.hand/2"), M.acceptsLegacyTime("tiplu.receipt/2"), M.acceptsLegacyTime("tiplu.hand/3"));
        return res;
    }""", [cp.text, legacy, key.public_hex, SigningKey.from_hex("22" * 32).public_hex])
    assert out == ["tiplu.test/log", "6", bytes(range(32)).hex(), None, "2026-11-30T14:35:00Z", "SignatureError",
                   "SignatureError", "ProofError", "SignatureError", "ProofError", True, True, False]
