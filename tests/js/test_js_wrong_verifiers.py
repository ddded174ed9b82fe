"""Wrong browser verifiers, one mistake each, are caught by the conformance suite (issue #28):
a copy of web/static/verifier/ with one rule of the audit done wrong runs the suite under Node
(tests/js/conformance_node.mjs) and must fail the case that names the mistake -- while still
passing most cases (only the one mistake is wrong).  tests/browser/test_browser_conformance.py
does the same for the lower layers with patched copies of the offline file."""
from __future__ import annotations

import shutil
import sys

import pytest

from tests.js.node import ROOT, node_or_skip

sys.path.insert(0, str(ROOT / "tools"))
import conformance  # noqa: E402

SUITE = conformance.load()

# name: (module, the text replaced, the wrong text, the cases run, a case that must fail); a
# mistake made in two modules gives ALSO[name]: its other (module, text, wrong text)
# (a rule the record's schema states too -- recordschema.mjs, checked by shape.mjs -- is left
# out of both, as a verifier without the rule would)
WRONG = {
    # the clock skipped: statements dated after the auditor's clock accepted
    "skip-future-time": ("audit.mjs", 'const future = futureFaults(data.fairness.statements, now, "the auditor\'s clock");',
                         "const future = [];", ["record/"], "record/future-time"),
    # times compared as text, with no skew: "2027-06-01T00:04:00.000Z" > "2027-06-01T00:00:00Z"
    "times-as-text": ("audit.mjs", "    if (t !== null && t > bound + SKEW_MS) {",
                      "    if (typeof st.time === \"string\" && st.time > stamp(bound)) {", ["record/"], "record/within-skew"),
    # the record statement's move chain head not compared with the record's moves
    "ignore-moves-head": ("statements.mjs",
                          "record: { record_hash: await recordHash(record.raw), ...(record.bindsMoves ? await movesBinding(record) : {}) },",
                          "record: { record_hash: await recordHash(record.raw) },", ["record/"], "record/moves-head-mismatch"),
    "skip-statement-fields": ("audit.mjs",
                              "  faults.push(...await checkStatements(record, { publicKey: pinned ? key : null, checkSignatures }));",
                              "", ["record/"], "record/statement-mismatch"),
    "skip-seed-reuse": ("audit.mjs", "    if (hands.length < 2) continue;", "    continue;", ["log/", "record/seed"],
                        "log/seed-reuse-together"),
    "skip-fork-check": ("audit.mjs",
                        'const logFailures = [...roots.values()].filter((r) => r.size > 1).map(() => "log_inconsistent");',
                        "const logFailures = [];", ["log/"], "log/fork-together"),
    "skip-carry-check": ("audit.mjs", '  logFailures.push(...carryFaults(verdicts).map(() => "carry_mismatch"));', "",
                         ["table/", "log/"], "table/carry-mismatch"),
    "no-quorum": ("audit.mjs", "    if (problem === null && !result.quorumMet) {", "    if (false) {", ["witness/"],
                  "witness/policy-missed"),
    # the replay: a hand that stops early is accepted
    "skip-incomplete": ("replay.mjs", "  if (!engine.isOver(state)) {", "  if (false) {", ["record/"], "record/incomplete"),
    # the money: the claimed payouts not compared with the recomputed settlement
    "skip-payouts": ("replay.mjs", "  if (!Array.isArray(nets) || nets.length !== s.nets.length || bad.length) {",
                     "  if (false) {", ["record/"], "record/forged-inflated_payout"),
    # the record's text read by JSON.parse alone: 1.0 and 1e0 become the integer 1
    "json-parse-only": ("record.mjs", "  const where = firstNonInteger(text);", "  const where = null;", ["record/integral", "record/not-revealed"],
                        "record/integral-float-dealer"),
    # a statement time read in any ISO-8601 spelling
    "lenient-statement-time": ("record.mjs", "    if (isObject(st) && Object.hasOwn(st, \"time\") && !isStatementTime(st.time)) {",
                               "    if (false) {", ["record/time", "record/future"], "record/time-basic-format"),
    # table money: a point value of 0 read as any amount (the rule's "more than 0" left out)
    "lenient-point-value": ("decimal.mjs", '  if (hundredths <= 0n) throw new VerifyError("malformed", "point_value must be more than 0");',
                            '  if (hundredths < 0n) throw new VerifyError("malformed", "point_value must be more than 0");',
                            ["record/zero-point-value", "record/not-revealed"], "record/zero-point-value"),
    # the record's schema not checked (shape.mjs): only its parser reads it
    "skip-shape": ("audit.mjs", "    checkShape(raw); // the record's schema first, then its meaning: as audit_record", "",
                   ["record/key-upper-case", "record/not-revealed"], "record/key-upper-case"),
    # a pinned key audited whatever the pinned policy's logs are
    "ignore-policy-logs": ("conformance.mjs", "      trust = reconcileTrust(trust, policy);", "", ["witness/"],
                           "witness/policy-other-log"),
}


ALSO = {
    "lenient-statement-time": ("recordschema.mjs",
                               '"pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\\\.[0-9]{3}Z$(?!\\\\n)"',
                               '"pattern": ""'),
    "lenient-point-value": ("recordschema.mjs", '"pattern": "^(?![0.]*$)[0-9]{1,15}(\\\\.[0-9]{1,2})?$(?!\\\\n)"',
                            '"pattern": "^[0-9]{1,15}(\\\\.[0-9]{1,2})?$"'),
}


def _copy(tmp_path):
    static = tmp_path / "web" / "static"
    shutil.copytree(ROOT / "web" / "static" / "verifier", static / "verifier")
    shutil.copy(ROOT / "web" / "static" / "seat-client.mjs", static / "seat-client.mjs")
    (tmp_path / "tests" / "js").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "js" / "conformance_node.mjs", tmp_path / "tests" / "js" / "conformance_node.mjs")
    return static / "verifier", tmp_path / "tests" / "js" / "conformance_node.mjs"


@pytest.mark.parametrize("name", sorted(WRONG))
def test_a_wrong_browser_verifier_fails_a_case(tmp_path, name):
    *edit, prefixes, must_fail = WRONG[name]
    verifier, script = _copy(tmp_path)
    for module, old, new in [tuple(edit), *([ALSO[name]] if name in ALSO else [])]:
        path = verifier / module
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, name
        path.write_text(text.replace(old, new), encoding="utf-8")
    cases = conformance.select(SUITE["cases"], prefixes)
    report = conformance.run_command(cases, [node_or_skip(), str(script)])
    assert must_fail in report.failed(), (name, report.failed())
    assert report.count("pass") > 0  # the copy still runs: only the one mistake fails cases
