"""The conformance suite (fixtures/conformance, docs/conformance.md): current, passed by the
Python audit, and able to tell: every plausible wrong verifier of mutants.py fails a case."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mutants import MUTANTS, Verifier, cosignatures, fold_inclusion, verify_consistency_rfc

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import conformance  # noqa: E402

SUITE = conformance.load()
CASES = SUITE["cases"]


def test_suite_is_current():
    out = subprocess.run([sys.executable, "tools/make_conformance.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr


def test_python_audit_passes_every_case():
    report = conformance.run(CASES, Verifier().answer)
    assert report.count("unsupported") == 0
    assert report.failed() == [], [r for r in report.results if r[1] != "pass"][:5]
    assert report.count("pass") == len(CASES)


def test_runner_speaks_json_lines_to_a_command():
    picked = conformance.select(CASES, ["canonical/", "leaf/commitment", "receipt/agrees"])
    report = conformance.run_command(picked, [sys.executable, "tools/conformance_tiplu.py"])
    assert [s for _, s, _ in report.results] == ["pass"] * len(picked) and len(picked) >= 7


def test_runner_cli_fails_a_wrong_command(tmp_path):
    wrong = tmp_path / "wrong.py"  # answers every canonical case with the ASCII-escaped bytes
    wrong.write_text("import json,sys\nfor l in sys.stdin:\n r=json.loads(l)\n"
                     " v=json.dumps(json.loads(r['input']['value']),sort_keys=True,separators=(',',':'))\n"
                     " print(json.dumps({'id':r['id'],'canonical_hex':v.encode().hex()}),flush=True)\n")
    out = subprocess.run([sys.executable, "tools/conformance.py", "--only", "canonical/", "--", sys.executable,
                          str(wrong)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "FAIL         canonical/non-ascii" in out.stdout and "3 passed, 2 failed" in out.stdout


def test_every_case_names_catches_that_exist():
    named = {m for c in CASES for m in c["catches"]}
    assert named <= set(MUTANTS), named - set(MUTANTS)
    assert set(MUTANTS) <= named, set(MUTANTS) - named  # every mutant is named by a case it fails


def test_docs_list_every_wrong_verifier():
    doc = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    assert [m for m in MUTANTS if f"`{m}`" not in doc] == []
    assert "conformance.md" in (ROOT / "docs" / "records.md").read_text(encoding="utf-8")


def test_the_independent_cosignature_checker_passes_unmutated():
    for c in conformance.select(CASES, ["cosignature/"]):
        req = conformance.request_of(c, conformance.MANIFEST.parent)["input"]
        assert sorted(cosignatures(req["checkpoint"], req["witnesses"])) == c["expect"]["valid_witnesses"], c["id"]


def test_the_independent_merkle_checks_pass_unmutated():
    for c in conformance.select(CASES, ["inclusion/", "consistency/"]):
        i = c["input"]
        h = lambda x: bytes.fromhex(x)  # noqa: E731
        try:
            if c["check"] == "inclusion":
                ok = fold_inclusion(h(i["leaf_hash"]), i["index"], i["size"], [h(p) for p in i["path"]]) == h(i["root"])
            else:
                verify_consistency_rfc(i["first"], i["second"], h(i["first_root"]), h(i["second_root"]),
                                       [h(p) for p in i["path"]])
                ok = True
        except Exception:  # noqa: BLE001 - ProofError: not valid
            ok = False
        assert ok == c["expect"]["valid"], c["id"]


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_wrong_verifier_fails_a_case(name):
    about, prefixes, cls = MUTANTS[name]
    cases = conformance.select(CASES, prefixes)
    report = conformance.run(cases, cls().answer)
    failed = set(report.failed())
    assert failed, f"{name} ({about}) passes every case it ran"
    claimed = {c["id"] for c in cases if name in c["catches"]}
    assert claimed <= failed, f"{name} passes cases that claim to catch it: {sorted(claimed - failed)}"
