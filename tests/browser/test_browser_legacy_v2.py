"""The browser verifier keeps the verdicts of fixtures/records/legacy-v2/ (documents published
before format 3, their checkpoints with the legacy ``time`` line): each golden record's deal
verifies (verifier/verifier.mjs) and its log evidence holds under the pinned key
(verifier/tlogproof.mjs); the seat receipt verifies and agrees with its record
(seat-client.mjs) -- the answers the Python audit gives (tests/audit/test_legacy_v2_fixtures.py)."""
from __future__ import annotations

import json
import pathlib

import pytest

DIR = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "records" / "legacy-v2"
MANIFEST = json.loads((DIR / "manifest.json").read_text(encoding="utf-8"))
KEY = MANIFEST["public_key"]


def load(name: str) -> dict:
    return json.loads((DIR / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def judged(browser, static_server):
    docs = {d["file"]: load(d["file"]) for d in MANIFEST["documents"]}
    pg = browser.new_page()
    pg.goto(f"{static_server}/verify.html")
    out = pg.evaluate("""async ([docs, manifest, key]) => {
        const V = await import('/verifier/verifier.mjs');
        const T = await import('/verifier/tlogproof.mjs');
        const S = await import('/seat-client.mjs');
        const res = {};
        for (const d of manifest.documents) {
          const doc = docs[d.file];
          if (d.kind === "record") {
            const hand = await V.verifyHand(V.handInputFromRecord(doc));
            const log = await T.recordLogChecks(doc, {publicKey: key, basis: "pinned"});
            res[d.file] = {deal: hand.ok, complete: hand.complete, log: log.map((c) => [c.name, c.ok, c.reason ?? null])};
          } else {
            let verified = null;
            try { await S.verifyReceipt(doc, key); verified = true; } catch (e) { verified = e.name + ": " + e.message; }
            const cmp = await S.compareReceipt(doc, docs[d.record], {publicKey: key});
            res[d.file] = {verified, consistent: cmp.consistent};
          }
        }
        return res;
    }""", [docs, MANIFEST, KEY])
    pg.close()
    return out


@pytest.mark.parametrize("entry", [d for d in MANIFEST["documents"] if d["kind"] == "record"], ids=lambda e: e["file"])
def test_a_legacy_record_verifies_in_the_browser(judged, entry):
    got = judged[entry["file"]]
    assert got["deal"] is entry["ok"] and got["complete"]
    assert got["log"] and all(ok is True for _, ok, _ in got["log"]), got["log"]
    n = len(load(entry["file"])["fairness"]["statements"])
    assert sum(name.startswith("log:statement:") for name, _, _ in got["log"]) == n


@pytest.mark.parametrize("entry", [d for d in MANIFEST["documents"] if d["kind"] == "receipt"], ids=lambda e: e["file"])
def test_the_legacy_receipt_verifies_in_the_browser(judged, entry):
    got = judged[entry["file"]]
    assert got == {"verified": True, "consistent": entry["consistent_with_record"]}


def test_a_format_3_record_or_receipt_with_a_line_after_the_root_is_refused_in_the_browser(browser, static_server):
    """The browser's rule is the Python one: the legacy time line only in tiplu.hand/2 and
    tiplu.receipt/2 documents; a format-3 record with it is bad_checkpoint, a receipt/3 refused."""
    import sys

    sys.path.insert(0, str(DIR.parents[2]))
    from tests.audit.test_legacy_v2_fixtures import _format3_record_and_legacy_copy

    rec, bad, key, r3, bad_r3 = _format3_record_and_legacy_copy()
    pg = browser.new_page()
    pg.goto(f"{static_server}/verify.html")
    out = pg.evaluate("""async ([rec, bad, key, r3, badR3]) => {
        const T = await import('/verifier/tlogproof.mjs');
        const S = await import('/seat-client.mjs');
        const cp = async (r) => (await T.recordLogChecks(r, {publicKey: key, basis: "pinned"})).find((c) => c.name === "log:checkpoint");
        const receipt = async (r) => { try { await S.verifyReceipt(r, key); return "ok"; } catch (e) { return e.name + ": " + e.message; } };
        const [g, b] = [await cp(rec), await cp(bad)];
        return {good: g.ok, bad: [b.ok, b.reason, b.detail], r3: await receipt(r3), badR3: await receipt(badR3)};
    }""", [rec, bad, key, r3, bad_r3])
    pg.close()
    assert out["good"] is True
    assert out["bad"][:2] == [False, "bad_checkpoint"] and "exactly 3 lines" in out["bad"][2]
    assert out["r3"] == "ok" and out["badR3"].startswith("ReceiptError") and "exactly 3 lines" in out["badR3"]
