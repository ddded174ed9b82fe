#!/usr/bin/env python3
"""Write fixtures/records/: golden hand records and corrupted ones, with the verdict each must get.

For every preset: two clean records of a simulated table (played by the bots through the
real ledger), and for every fault class of :mod:`audit.sim.tamper` one record forged from
a clean one.  ``manifest.json`` lists every file with its preset and expected verdict
(``ok`` and the first fault's ``reason``).  Deterministic: the simulator seed fixes the
seeds, the bots, the operator key and the forgeries.

    python tools/make_record_fixtures.py            # rewrite
    python tools/make_record_fixtures.py --check    # exit 1 if the files differ
"""
from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from audit.ledger import Ledger  # noqa: E402
from audit.sim.archive import OPERATOR, simulate_archive  # noqa: E402
from audit.sim.tamper import TAMPERS, TamperContext, tamper  # noqa: E402
from audit.verify import audit_record  # noqa: E402
from replay.rulesets import PRESETS  # noqa: E402

OUT = ROOT / "fixtures" / "records"
SEED = "tiplu-fixtures-1"


def build() -> dict[str, str]:
    files: dict[str, str] = {}
    manifest = []
    for preset in PRESETS:
        slug = preset.replace("/", "-")
        records: list[dict] = []
        with Ledger(":memory:") as ledger:
            simulate_archive(ledger, [(preset, 4, 2)], seed=SEED, on_record=lambda r, k: records.append(r))
            key = ledger.signing_key(OPERATOR)
            from audit.sim.tables import SimStreams
            rng = SimStreams(SEED).stream(f"fixtures:{preset}")
            for i, rec in enumerate(records):
                name = f"{slug}/golden-{i}.json"
                files[name] = json.dumps(rec, indent=1, sort_keys=True) + "\n"
                manifest.append({"file": name, "preset": preset, "class": None, "ok": True, "reason": None})
            for kind in sorted(TAMPERS):
                if kind == "deck_mismatch" and preset == "kitti":
                    continue  # Kitti has no draws: its deck shows only in the dealt hands
                bad = tamper(records[0], kind, TamperContext(key, rng))
                verdict = audit_record(bad)
                name = f"{slug}/corrupted-{kind}.json"
                files[name] = json.dumps(bad, indent=1, sort_keys=True) + "\n"
                manifest.append({"file": name, "preset": preset, "class": kind, "ok": verdict.ok,
                                 "reason": verdict.reason.value if verdict.reason else None,
                                 "first_bad_move": verdict.first_bad_move})
    files["manifest.json"] = json.dumps({"format": "tiplu.record-fixtures/1", "seed": SEED, "records": manifest},
                                        indent=1, sort_keys=True) + "\n"
    return files


def main() -> int:
    files = build()
    if "--check" in sys.argv:
        bad = [n for n, t in files.items() if not (OUT / n).exists() or (OUT / n).read_text() != t]
        print("record fixtures are current" if not bad else f"record fixtures differ: {bad[:5]}")
        return 1 if bad else 0
    for name, text in files.items():
        path = OUT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    print(f"wrote {len(files)} files under {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
