#!/usr/bin/env python3
"""Write fixtures/conformance/: the conformance suite (docs/conformance.md).

Every case names its check, its inputs (files under fixtures/conformance/ or values), the
trusted key / origin / witnesses, and the expected result: the verdict, reason and first
bad move of every record and the exit status for a record audit, the contradictions and
exit status for a receipt, the exact bytes or hashes for the layers below.  ``catches``
names the plausible wrong implementations (tests/conformance/mutants.py) the case fails.
Deterministic.

    python tools/make_conformance.py            # rewrite
    python tools/make_conformance.py --check    # exit 1 if the files differ
"""
from __future__ import annotations

import hashlib
import json
import pathlib
import shutil
import sys
from datetime import timedelta

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import conformance_primitives as P  # noqa: E402
import conformance_receipts as RC  # noqa: E402
import conformance_records as R  # noqa: E402
import conformance_strict as S  # noqa: E402
from audit.signing import SigningKey  # noqa: E402
from audit.operator.sim.tables import EPOCH  # noqa: E402
from audit.auditor.verdict.verify import audit_record  # noqa: E402

OUT = ROOT / "fixtures" / "conformance"
SUITE_FORMAT = "tiplu.conformance/1"
SUITE_VERSION = 1


def reference_audit(record, public_key):
    return audit_record(record, public_key=public_key)


def build() -> dict[str, str]:
    b = R.Builder()
    files = b.files
    for part in (P.canonical_cases(), P.randbelow_cases(), P.stream_cases(), P.merkle_cases()):
        files.update(part[0])
        b.cases.extend(part[1])
    ledger, key, kept, forged = R.simulate_main(b)
    other = SigningKey.from_hex(hashlib.sha256(b"conformance outsider key").hexdigest())
    golden = kept["kitti-4p-t0/h0"][0]
    hand = {**{k: golden["fairness"][k] for k in ("server_seed", "ruleset_hash", "player_seeds")},
            "hand_id": golden["hand_id"]}
    b.cases.extend(P.shuffle_cases(hand)[1])
    if golden["format"] != "tiplu.hand/2":  # format 3 binds the moves as played
        f, c = P.movechain_cases(golden)
        files.update(f)
        b.cases.extend(c)
    by_kind = {s["statement"]["kind"]: s for s in kept["non-ascii/h0"][0]["fairness"]["statements"]}
    ledger.new_hand("kitti-4p-t0", ["asha", "bikash", "chandra", "dipa"], hand_id="kitti-4p-t0-cancelled",
                    now=EPOCH + timedelta(days=50))
    ledger.commit("kitti-4p-t0-cancelled", now=EPOCH + timedelta(days=50),
                  server_seed=hashlib.sha256(b"conformance cancelled hand").digest())
    by_kind["cancel"] = ledger.cancel("kitti-4p-t0-cancelled", now=EPOCH + timedelta(days=50, seconds=1))
    f, c = P.statement_cases(by_kind, key.public_hex, other)
    files.update(f)
    b.cases.extend(c)
    f, c, cp = P.checkpoint_cases(key, other, R.MAIN_ORIGIN, EPOCH + timedelta(days=60))
    files.update(f)
    b.cases.extend(c)
    witnesses = P.witness_keys()
    f, c = P.cosignature_cases(cp, witnesses, other)
    files.update(f)
    b.cases.extend(c)
    trust = R.record_cases(b, ledger, key, kept, forged, reference_audit)
    R.forgery_cases(b, key, golden, other)
    R.edit_cases(b, trust, golden, key)
    R.second_operator(b, trust)
    R.fork_case(b, key, [golden, kept["non-ascii/h0"][0]])
    R.witness_cases(b, trust, golden, witnesses)
    R.timing_cases(b, key, golden)
    R.carry_case(b, key)
    S.integral_float_cases(b, trust, golden)
    S.basic_time_case(b, key, golden)
    S.zero_point_value_case(b, key, golden)
    S.key_upper_case_case(b, trust, golden)
    if "policies/policy-met.txt" in files:
        S.trust_outside_policy_case(b, trust, other, files["policies/policy-met.txt"].split("\n\n", 1)[1])
    RC.receipt_cases(b, ledger, key, (R.MAIN_BASE, R.MAIN_ORIGIN), golden, "records/main/forged-resigned_grind.json", other,
                     b.main[1][0])
    ids = [c["id"] for c in b.cases]
    assert len(ids) == len(set(ids)), "case ids are unique"
    manifest = {"format": SUITE_FORMAT, "version": SUITE_VERSION, "record_format": golden["format"],
                "receipt_format": json.loads(files["receipts/seat-1.json"])["format"], "generated_by": "tools/make_conformance.py",
                "keys": {"operator": {"public_key": key.public_hex, "origin": R.MAIN_ORIGIN},
                         "witnesses": {n: k.public_hex for n, k in witnesses}},
                "cases": b.cases}
    files["manifest.json"] = json.dumps(manifest, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    return files


def main() -> int:
    files = build()
    if "--check" in sys.argv:
        have = {str(p.relative_to(OUT)) for p in OUT.rglob("*") if p.is_file()} if OUT.exists() else set()
        bad = sorted(n for n, t in files.items() if not (OUT / n).exists() or (OUT / n).read_bytes() != t.encode("utf-8"))
        bad += sorted(have - set(files) - {"README.md"})
        print("conformance suite is current" if not bad else f"conformance suite differs: {bad[:5]}")
        return 1 if bad else 0
    readme = (OUT / "README.md").read_text(encoding="utf-8") if (OUT / "README.md").exists() else None
    if OUT.exists():
        shutil.rmtree(OUT)
    for name, text in files.items():
        path = OUT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    if readme is not None:
        (OUT / "README.md").write_text(readme, encoding="utf-8")
    print(f"wrote {len(files)} files under {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
