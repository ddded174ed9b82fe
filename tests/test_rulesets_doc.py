"""docs/rulesets.md is generated from the presets, is current, and every setting is documented
(Datasette-style: a setting without a doc or a rule ID fails the suite)."""
import pathlib
import re
import subprocess
import sys

import pytest

from replay.rulesets import PRESETS, preset_spec

ROOT = pathlib.Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"(MN|MC|K|R|D)-\d+")
SHARED_RULES = ROOT.parent / "shared" / "rules"


def defined_rule_ids() -> set[str] | None:
    if not SHARED_RULES.is_dir():
        return None
    ids = set()
    for f in SHARED_RULES.glob("*.md"):
        ids.update(re.findall(r"\*\*((?:MN|MC|K|R|D)-\d+)\b", f.read_text(encoding="utf-8")))
    return ids


def test_committed_page_is_current():
    out = subprocess.run([sys.executable, "tools/make_rulesets_doc.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("preset", PRESETS)
def test_every_setting_has_a_doc_and_a_rule_id(preset):  # rule D-1: rulesets are data, documented once
    known = defined_rule_ids()
    spec = preset_spec(preset)
    assert spec["title"] and spec["rules"] and spec["game"]
    text = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    for name, s in spec["settings"].items():
        assert isinstance(s.get("doc"), str) and len(s["doc"].split()) >= 2, f"{preset}.{name} has no doc"
        assert RULE_ID.fullmatch(str(s.get("rule", ""))), f"{preset}.{name} has no rule ID"
        if known is not None:
            assert s["rule"] in known, f"{preset}.{name} cites {s['rule']}, which no rule file defines"
        assert "default" in s and set(s) <= {"default", "rule", "doc", "choices", "min", "max"}
        if "choices" in s:
            assert s["default"] in s["choices"]
        assert f"| `{name}` |" in text
