"""web/static/verifier/tlogproof.mjs in headless Chromium: the log evidence a tiplu.hand/2
record carries is checked in the browser, with no server -- and every attack on it fails
with the named check and the reason the Python audit gives (replay.faults.Reason values).

Records are made log-bound in Python (log_evidence.bind: an in-memory RFC 6962 log, a
checkpoint signed with audit.tlog.checkpoint, C2SP tlog-proofs); each attack is performed
on such a record, then judged by the browser.
"""
from __future__ import annotations

import base64
import copy
import hashlib
import re

import pytest

from audit.tlog.checkpoint import sign_checkpoint
from audit.auditor.verdict.trust import TrustAnchor
from audit.auditor.verdict.verify import audit_record
from audit.tlog.merkle import MemoryTree
from audit.tlog.store import leaf_entry
from log_evidence import KEY, ORIGIN, OTHER, bind, format_tlog_proof, golden, grind, noise, proofs_for, resigned_grind

#: the reasons tlogproof.mjs gives, compared with the Python audit's
AGREED = {"not_log_bound", "not_in_log", "log_order", "bad_checkpoint", "signature", "malformed", "event_order"}
NAMES = {"asha": "आशा", "bikash": "बिकाश", "chandra": "चन्द्र \U0001F0A1", "deepa": "दीपा"}


@pytest.fixture(scope="module")
def tpage(browser, static_server):
    pg = browser.new_page()
    pg.goto(f"{static_server}/verify.html")
    pg.evaluate("async () => { window.T = await import('/verifier/tlogproof.mjs'); }")
    yield pg
    pg.close()


def judge(pg, record, public_key=KEY.public_hex, basis="pinned"):
    """The browser's checks of a record: [{name, ok, reason, title, detail}]."""
    return pg.evaluate("""async ([record, publicKey, basis]) =>
        T.recordLogChecks(record, publicKey ? {publicKey, basis} : {})""", [record, public_key, basis])


def failed(checks):
    return {c["name"]: c.get("reason") for c in checks if c["ok"] is False}


def state(pg, checks):
    return pg.evaluate("(checks) => T.logState(checks)", checks)




# -- a clean record ---------------------------------------------------------------------

def test_a_log_bound_record_verifies_under_the_pinned_key(tpage):
    rec = bind(golden())
    checks = judge(tpage, rec)
    assert failed(checks) == {}
    assert all(c["ok"] is True for c in checks), checks
    names = [c["name"] for c in checks]
    n = len(rec["fairness"]["statements"])
    assert names == ["log:bound", "log:trust", "log:checkpoint", "log:same-checkpoint",
                     *[f"log:statement:{k}" for k in range(1, n + 1)], "log:order", "log:keys",
                     "statements:order", "statements:time"]
    assert "basis pinned" in checks[1]["detail"]
    assert state(tpage, checks) == "verified"


def test_non_ascii_statements_hash_as_python_s_leaf_entry(tpage):
    """Devanagari and an astral character in the statements: the browser's leaf hash is
    SHA-256(0x00 || leaf_entry) byte for byte, or the inclusion proofs would not fold."""
    rec = bind(golden(), names=NAMES)
    assert any(ord(ch) > 0xFFFF for s in rec["fairness"]["statements"] for ch in str(s["statement"].get("player", "")))
    got = tpage.evaluate("(ss) => Promise.all(ss.map((s) => T.statementLeafHash(s)))", rec["fairness"]["statements"])
    assert got == [hashlib.sha256(b"\x00" + leaf_entry(s)).hexdigest() for s in rec["fairness"]["statements"]]
    assert failed(judge(tpage, rec)) == {}


def test_an_unpinned_key_is_not_a_trust_anchor(tpage):
    rec = bind(golden())
    checks = judge(tpage, rec, public_key=None)
    trust = next(c for c in checks if c["name"] == "log:trust")
    assert trust["ok"] is None and "NOT a trust anchor" in trust["detail"]
    assert failed(checks) == {}
    assert state(tpage, checks) == "incomplete"  # never "verified" on the record's own word


def as_v1(record):
    """The record as tiplu.hand/1 wrote it: no log evidence."""
    rec = copy.deepcopy(record)
    rec["format"] = "tiplu.hand/1"
    rec["fairness"].pop("log_proofs", None)
    return rec


def test_a_v1_record_is_not_log_bound(tpage):
    checks = judge(tpage, as_v1(golden()))
    assert failed(checks) == {"log:bound": "not_log_bound"}
    assert state(tpage, checks) == "failed"


def test_without_webcrypto_ed25519_the_result_is_incomplete(browser, static_server):
    pg = browser.new_page()
    pg.add_init_script("""{
      const real = SubtleCrypto.prototype.importKey;
      SubtleCrypto.prototype.importKey = function (fmt, key, alg, ...rest) {
        if ((alg?.name ?? alg) === "Ed25519") return Promise.reject(new DOMException("no", "NotSupportedError"));
        return real.call(this, fmt, key, alg, ...rest);
      };
    }""")
    pg.goto(f"{static_server}/verify.html")
    pg.evaluate("async () => { window.T = await import('/verifier/tlogproof.mjs'); }")
    checks = judge(pg, bind(golden()))
    cp = next(c for c in checks if c["name"] == "log:checkpoint")
    assert cp["ok"] is None and "NOT checked" in cp["title"]
    assert failed(checks) == {} and state(pg, checks) == "incomplete"
    pg.close()


# -- attacks, each performed on a clean log-bound record ---------------------------------

def _edit_statement(rec):
    rec["fairness"]["statements"][2]["statement"]["player"] = "mallory"
    # not the logged leaf, and its signature no longer verifies either
    return {"log:statement:3": "not_in_log", "log:keys": "signature"}


def _flip_path_byte(rec):
    proofs = rec["fairness"]["log_proofs"]
    lines = proofs[4].split("\n")
    h = bytearray(base64.b64decode(lines[2]))
    h[7] ^= 0x01
    lines[2] = base64.b64encode(bytes(h)).decode()
    proofs[4] = "\n".join(lines)
    return {"log:statement:5": "not_in_log"}


def _change_index(rec):
    proofs = rec["fairness"]["log_proofs"]
    proofs[3] = re.sub(r"^index (\d+)$", lambda m: f"index {int(m.group(1)) + 1}", proofs[3], count=1, flags=re.M)
    return {"log:statement:4": "not_in_log"}


def _two_checkpoints(rec):
    """The last proof under another (honestly signed) checkpoint: of the log one leaf later."""
    signed = rec["fairness"]["statements"]
    entries = noise(5, "before") + [leaf_entry(s) for s in signed] + noise(2, "after")
    later = proofs_for(entries + noise(1, "later"), 5, len(signed), KEY)
    rec["fairness"]["log_proofs"][-1] = later[-1]
    return {"log:same-checkpoint": "bad_checkpoint"}


def _checkpoint_by_other_key(rec):
    signed = rec["fairness"]["statements"]
    entries = noise(5, "before") + [leaf_entry(s) for s in signed] + noise(2, "after")
    rec["fairness"]["log_proofs"] = proofs_for(entries, 5, len(signed), OTHER)
    return {"log:checkpoint": "bad_checkpoint"}


def _reorder_with_proofs(rec):
    """The deal listed before the last seat-reveal, each with its own (valid) proof."""
    f = rec["fairness"]
    for name in ("statements", "log_proofs"):
        f[name][9], f[name][10] = f[name][10], f[name][9]
    # the listed order breaks the protocol too (and its times run backwards): issue 27
    return {"log:order": "log_order", "statements:order": "event_order", "statements:time": "time_order"}


def _reorder_statements_only(rec):
    f = rec["fairness"]
    f["statements"][9], f["statements"][10] = f["statements"][10], f["statements"][9]
    return {"log:statement:10": "not_in_log", "log:statement:11": "not_in_log", "statements:order": "event_order",
            "statements:time": "time_order"}


def _resigned_grind(rec):
    return resigned_grind(rec)


def _relogged_grind(rec):
    """The grind re-logged: the forged statements appended to the live log after the
    players' real seat reveals, which the record keeps -- so the commitment now follows them."""
    honest = rec["fairness"]["statements"]
    forged = grind(rec)
    changed = [k for k, (a, b) in enumerate(zip(honest, forged)) if a is not b]
    entries = noise(5, "before") + [leaf_entry(s) for s in honest] + [leaf_entry(forged[k]) for k in changed]
    tree = MemoryTree()
    for e in entries:
        tree.append(e)
    cp = sign_checkpoint(KEY, origin=ORIGIN, size=tree.size, root=tree.root())
    at = {k: 5 + k for k in range(len(honest))}
    at.update({k: 5 + len(honest) + j for j, k in enumerate(changed)})
    rec["fairness"]["statements"] = forged
    rec["fairness"]["log_proofs"] = [format_tlog_proof(at[k], tree.inclusion_proof(at[k]), cp.text) for k in range(len(forged))]
    return {"log:order": "log_order"}


def _pin_another_key(rec):
    rec["_pin"] = OTHER.public_hex
    return {"log:checkpoint": "bad_checkpoint", "log:keys": "signature"}


def _drop_a_proof(rec):
    rec["fairness"]["log_proofs"].pop()
    return {"log:bound": "malformed"}  # as replay.records: one log proof per statement


def _leading_zero_index(rec):
    proofs = rec["fairness"]["log_proofs"]
    proofs[0] = proofs[0].replace("\nindex ", "\nindex 0", 1)
    return {"log:statement:1": "not_in_log"}


ATTACKS = {f.__name__.lstrip("_"): f for f in (
    _edit_statement, _flip_path_byte, _change_index, _two_checkpoints, _checkpoint_by_other_key,
    _reorder_with_proofs, _reorder_statements_only, _resigned_grind, _relogged_grind, _pin_another_key,
    _drop_a_proof, _leading_zero_index)}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_each_attack_fails_by_name(tpage, attack):
    rec = bind(golden())
    expect = ATTACKS[attack](rec)
    pin = rec.pop("_pin", KEY.public_hex)
    checks = judge(tpage, rec, public_key=pin)
    assert failed(checks) == expect, [c for c in checks if c["ok"] is not True]
    assert state(tpage, checks) == "failed"
    # the Python audit, under the same pinned key and checking signatures as the browser does,
    # gives the same log reasons
    verdict = audit_record(rec, trust=TrustAnchor(pin, "pinned"), check_signatures=True)
    assert {f.reason.value for f in verdict.faults} & AGREED == set(expect.values()) & AGREED, verdict.faults


# -- the tlog-proof parser ---------------------------------------------------------------

def test_parse_tlog_proof_round_trips_python_s_text(tpage):
    rec = bind(golden())
    text = rec["fairness"]["log_proofs"][3]
    got = tpage.evaluate("(t) => { const p = T.parseTlogProof(t); return {index: String(p.index), path: p.path, cp: p.checkpointText, extra: p.extra}; }", text)
    tree_lines = text.split("\n\n", 1)[0].split("\n")
    assert got["index"] == tree_lines[1].removeprefix("index ")
    assert got["path"] == [base64.b64decode(x).hex() for x in tree_lines[2:]]
    assert got["cp"] == text.split("\n\n", 1)[1] and got["extra"] is None


def test_parse_tlog_proof_reads_the_spec_s_extra_line(tpage):
    rec = bind(golden())
    text = rec["fairness"]["log_proofs"][0].replace("\nindex", "\nextra " + base64.b64encode(b"hi").decode() + "\nindex", 1)
    assert tpage.evaluate("(t) => Array.from(T.parseTlogProof(t).extra)", text) == list(b"hi")


BAD_PROOFS = {
    "no header": lambda t: t.split("\n", 1)[1],
    "another version": lambda t: t.replace("tlog-proof@v1", "tlog-proof@v2", 1),
    "leading zero": lambda t: t.replace("\nindex ", "\nindex 0", 1),
    "negative index": lambda t: t.replace("\nindex ", "\nindex -", 1),
    "no index": lambda t: re.sub(r"\nindex \d+", "", t, count=1),
    "short hash": lambda t: re.sub(r"\nindex (\d+)\n", lambda m: f"\nindex {m.group(1)}\nAAAA\n", t, count=1),
    "unpadded hash": lambda t: re.sub(r"\nindex (\d+)\n([^\n]+)=\n", lambda m: f"\nindex {m.group(1)}\n{m.group(2)}\n", t, count=1),
    "no blank line": lambda t: t.replace("\n\n", "\n", 1),
    "CRLF": lambda t: t.replace("\n", "\r\n"),
    "not a checkpoint": lambda t: t.split("\n\n", 1)[0] + "\n\nhello\n",
}


@pytest.mark.parametrize("case", sorted(BAD_PROOFS))
def test_parse_tlog_proof_is_strict(tpage, case):
    text = BAD_PROOFS[case](bind(golden())["fairness"]["log_proofs"][3])
    err = tpage.evaluate("(t) => { try { T.parseTlogProof(t); return null; } catch (e) { return e.name; } }", text)
    assert err == "ProofError"


def test_a_checkpoint_with_witness_cosignature_lines_still_verifies(tpage):
    """The publisher may put witnesses' cosignature lines in the checkpoint (audit.operator.publish):
    lines of keys other than the operator's are not the operator's signature, and are ignored
    here as by the Python audit (witness policy is checked apart)."""
    rec = bind(golden())
    line = "\u2014 witness.example " + base64.b64encode(bytes(4 + 8 + 64)).decode() + "\n"
    rec["fairness"]["log_proofs"] = [p + line for p in rec["fairness"]["log_proofs"]]
    checks = judge(tpage, rec)
    assert failed(checks) == {} and state(tpage, checks) == "verified"
    verdict = audit_record(rec, trust=TrustAnchor(KEY.public_hex, "pinned"))
    assert not {f.reason.value for f in verdict.faults} & AGREED, verdict.faults


# -- the protocol's order and the statements' times (issue 27) -------------------------

def _with(rec, changes):
    """``rec`` with statement k's fields changed ({k: {field: value}}), re-bound (re-signed, re-logged)."""
    out = copy.deepcopy(rec)
    for k, fields in changes.items():
        out["fairness"]["statements"][k]["statement"].update(fields)
    return bind(out)


def test_the_browser_enforces_the_protocol_s_order_and_times_as_the_audit_does(tpage):
    """A reveal listed and logged before the record, a statement dated before the one before
    it, and one dated in 2099 fail in the browser with the Python audit's reasons."""
    rec = golden()
    kinds = [s["statement"]["kind"] for s in rec["fairness"]["statements"]]
    k_record, k_reveal, k_deal = kinds.index("record"), kinds.index("reveal"), kinds.index("deal")
    early = copy.deepcopy(rec)
    sts = early["fairness"]["statements"]
    sts[k_record], sts[k_reveal] = sts[k_reveal], sts[k_record]
    sts[k_record]["statement"]["time"], sts[k_reveal]["statement"]["time"] = (
        sts[k_reveal]["statement"]["time"], sts[k_record]["statement"]["time"])
    early = bind(early)
    backwards = _with(rec, {k_record: {"time": rec["fairness"]["statements"][k_deal]["statement"]["time"].replace(
        "2026-", "2025-")}})
    future = _with(rec, {k_reveal: {"time": "2099-01-01T00:00:00.000Z"}})
    for forged, check, reason in ((early, "statements:order", "event_order"),
                                  (backwards, "statements:time", "time_order"),
                                  (future, "statements:time", "future_time")):
        got = failed(judge(tpage, forged))
        assert got.get(check) == reason, got
    py = audit_record(early, public_key=KEY.public_hex)
    assert "event_order" in {r.value for r in py.reasons}
    assert "time_order" in {r.value for r in audit_record(backwards, public_key=KEY.public_hex).reasons}
