"""Load fixtures/vectors/v1.json for the fairness tests (plain JSON, no replay imports)."""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTORS_FILE = ROOT / "fixtures" / "vectors" / "v1.json"
DOC = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))
VECTORS = DOC["vectors"]
IDS = [v["name"] for v in VECTORS]
