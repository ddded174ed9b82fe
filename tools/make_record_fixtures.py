#!/usr/bin/env python3
"""Write fixtures/records/: golden hand records and corrupted ones, with the verdict each must get.

For every preset: two clean records of a simulated table (played by the bots through the
real ledger), and for every fault class of :mod:`audit.operator.sim.tamper` one record forged from
the first clean one (the same hand played again through a fresh ledger, forged where the
class forges it: in the record the operator attaches, or in what it publishes).  ``manifest.json`` lists every file with its preset and expected verdict
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

from audit.operator.ledger import Ledger  # noqa: E402
from audit.operator.sim.archive import simulate_archive  # noqa: E402
from audit.operator.sim.tables import SimStreams  # noqa: E402
from audit.operator.sim.tamper import TAMPERS  # noqa: E402
from audit.auditor.verdict.verify import audit_record  # noqa: E402
from replay.rulesets import PRESETS  # noqa: E402

OUT = ROOT / "fixtures" / "records"
SEED = "tiplu-fixtures-1"


def forged(preset: str, kind: str, rng) -> dict:
    """Golden record 0 of ``preset`` as the dishonest operator forges it with ``kind``: the
    same table, seeds and bots through a fresh ledger, the forgery made where that class
    makes it (in the record it attaches, or in what it publishes)."""
    out: list[dict] = []
    with Ledger(":memory:") as ledger:
        simulate_archive(ledger, [(preset, 4, 1)], seed=SEED, on_record=lambda r, k: out.append(r),
                         tamper_hands={0: kind}, tamper_rng=rng)
    return out[0]


def build() -> dict[str, str]:
    files: dict[str, str] = {}
    manifest = []
    for preset in PRESETS:
        slug = preset.replace("/", "-")
        records: list[dict] = []
        with Ledger(":memory:") as ledger:
            simulate_archive(ledger, [(preset, 4, 2)], seed=SEED, on_record=lambda r, k: records.append(r))  # noqa: B023 - called within this iteration
            rng = SimStreams(SEED).stream(f"fixtures:{preset}")  # the forger's choices, class by class
            for i, rec in enumerate(records):
                name = f"{slug}/golden-{i}.json"
                files[name] = json.dumps(rec, indent=1, sort_keys=True) + "\n"
                manifest.append({"file": name, "preset": preset, "class": None, "ok": True, "reason": None})
            for kind in sorted(TAMPERS):
                if kind == "deck_mismatch" and preset == "kitti":
                    continue  # Kitti has no draws: its deck shows only in the dealt hands
                bad = forged(preset, kind, rng)
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
