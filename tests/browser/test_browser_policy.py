"""The browser's C2SP tlog-policy parser (web/static/verifier/policy.mjs) against the cases
the Python parser (audit/tlog/policy.py) is tested against: fixtures/policy/cases.json."""
from __future__ import annotations

import functools
import http.server
import json
import threading
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parents[2]
CASES = json.loads((ROOT / "fixtures" / "policy" / "cases.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ppage(browser):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(ROOT))
    handler.extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript"}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    pg = browser.new_page()
    pg.goto(f"http://127.0.0.1:{server.server_port}/fixtures/policy/cases.json")
    pg.evaluate("async () => { window.P = await import('/web/static/verifier/policy.mjs'); }")
    yield pg
    pg.close()
    server.shutdown()


def test_every_valid_case_parses_and_judges_as_in_python(ppage):
    out = ppage.evaluate("""async ([cases, checkpoint]) => {
        const res = [];
        for (const c of cases) {
            const p = await P.parsePolicy(c.text, c.name);
            const r = await P.evaluatePolicy(p, checkpoint);
            res.push({name: c.name, sha256: p.sha256, quorum: p.quorum, requires: P.describePolicy(p),
                      witnesses: p.witnesses.map((w) => w.name), logs: p.logs.map((l) => l.vkey.text),
                      groups: Object.fromEntries(p.groups.map((g) => [g.name, [g.threshold, g.members]])),
                      result: {log: r.log ? r.log.origin : null, log_ok: r.log !== null, log_problem: r.logProblem !== null,
                               quorum_met: r.quorumMet, cosigned: r.cosigned.map((c) => c.name), counted: r.counted,
                               missing: r.missing.map((m) => m.split(": ")[0] + ": " + m.split(": ")[1].split(":")[0])}});
        }
        return res;
    }""", [CASES["valid"], CASES["checkpoint"]])
    for case, got in zip(CASES["valid"], out):
        want = {k: case[k] for k in ("name", "sha256", "quorum", "requires", "witnesses", "logs", "groups")}
        assert {k: got[k] for k in want} == want, case["name"]
        result = dict(case["result"])
        result["missing"] = [m.split(": ")[0] + ": " + m.split(": ")[1].split(":")[0] for m in result["missing"]]
        assert got["result"] == result, case["name"]


def test_every_invalid_case_is_refused_with_the_python_code_and_line(ppage):
    out = ppage.evaluate("""async (cases) => {
        const res = [];
        for (const c of cases) {
            try { await P.parsePolicy(c.text, c.name); res.push({name: c.name, parsed: true}); }
            catch (e) { res.push({name: c.name, error: e.name, code: e.code, line: e.line, message: e.message}); }
        }
        return res;
    }""", CASES["invalid"])
    for case, got in zip(CASES["invalid"], out):
        assert got.get("error") == "PolicyError", (case["name"], got)
        assert (got["code"], got["line"]) == (case["code"], case["line"]), (case["name"], got)
        if case["code"] != "bad_key":  # key errors word the vkey's fault in each parser's own words
            assert got["message"] == case["message"], case["name"]
