#!/usr/bin/env python3
"""Write audit/schemas/hand-record.schema.json from the record model (replay/record_model.py).

The model (:class:`replay.record_model.HandRecordDoc`) is the one definition of a record's
shape; the JSON Schema is generated from it (:func:`replay.record_model.record_schema`) and
shipped as this one file (docs/hand-record.schema.json is a link to it).  A test checks that
the committed file is current.  After changing the model:

    python tools/make_record_schema.py            # rewrite the schema file
    python tools/make_record_schema.py --check    # exit 1 if the file is stale
"""
from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay.record_model import record_schema  # noqa: E402

OUT = ROOT / "audit" / "schemas" / "hand-record.schema.json"


def render() -> str:
    return json.dumps(record_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if argv == ["--check"]:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} is stale: run python tools/make_record_schema.py", file=sys.stderr)
            return 1
        return 0
    if argv:
        print("usage: make_record_schema.py [--check]", file=sys.stderr)
        return 2
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
