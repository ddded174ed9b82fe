"""The generated files of the in-browser verifier are current, and the preset data the
browser resolves rulesets from is exactly replay/<game>/presets/*.json (no browser needed)."""
import json
import pathlib
import re
import subprocess
import sys

from replay.rulesets import PRESETS, preset_spec

ROOT = pathlib.Path(__file__).resolve().parents[1]
STATIC = ROOT / "web" / "static"


def test_generated_files_are_current():
    out = subprocess.run([sys.executable, "tools/build_offline_verifier.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "current" in out.stdout


def test_presets_module_holds_the_python_presets():  # rule D-1
    text = (STATIC / "verifier" / "presets.mjs").read_text(encoding="utf-8")
    m = re.search(r"export const PRESET_SPECS = (\{.*?\n\});\n", text, re.S)
    assert m, "PRESET_SPECS not found"
    specs = json.loads(m.group(1))
    assert list(specs) == list(PRESETS)
    assert specs == {p: preset_spec(p) for p in PRESETS}


def test_gamedata_module_holds_the_registrys_games():
    # deal.mjs and verify.mjs read each game's deal layout and pile words from this
    # generated module, never from a map of their own (issue 31)
    from replay.registry import game_for, game_names

    text = (STATIC / "verifier" / "gamedata.mjs").read_text(encoding="utf-8")
    m = re.search(r"export const GAME_DATA = (\{.*?\n\});\n", text, re.S)
    assert m, "GAME_DATA not found"
    data = json.loads(m.group(1))
    assert list(data) == list(game_names())
    assert data == {g: {"deal_layout": game_for(g).deal_layout.to_json()} for g in game_names()}
    assert data["rummy13"]["deal_layout"] == {"indicator": True, "turned_up": True, "turned_up_label": "Open pile starts",
                                              "stock_label": "Closed pile", "stock_title": "Closed pile"}
    assert [d["deal_layout"]["turned_up"] for d in data.values()] == [True, False, True]   # MN-3, K-1, D-19


def test_offline_page_is_self_contained():
    html = (STATIC / "tiplu-verifier.html").read_text(encoding="utf-8")
    assert 'src="' not in html and "import(" not in html
    assert re.findall(r'<link [^>]*href="([^"]*)"', html) and all(
        href.startswith("data:") for href in re.findall(r'<link [^>]*href="([^"]*)"', html))
    assert not re.search(r"^\s*(import|export)\b", html, re.M)
    assert html.count("<script") == 1 and html.count("</script>") == 1
    # every module of the verifier is inlined, the log-evidence check (tlogproof.mjs,
    # merkle.mjs) included: a tiplu.hand/2 record audits offline.
    for mod in sorted((STATIC / "verifier").glob("*.mjs")):
        assert f"// ---- verifier/{mod.name} ----" in html, mod.name
    # and every game's engine (issue 28): the offline file replays the moves as the page does
    games = sorted((STATIC / "verifier" / "games").rglob("*.mjs"))
    assert {"kitti.mjs", "marriage.mjs", "index.mjs"} <= {m.name for m in games}
    for mod in games:
        name = mod.relative_to(STATIC).as_posix()
        assert f"// ---- {name} ----" in html, name


def test_bundler_refuses_forms_it_cannot_inline(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import build_offline_verifier as b
    finally:
        sys.path.remove(str(ROOT / "tools"))
    monkeypatch.setattr(b, "STATIC", tmp_path)
    (tmp_path / "a.mjs").write_text('import x from "./b.mjs";\nexport const A = 1;\n')
    (tmp_path / "c.mjs").write_text('export default 3;\n')
    (tmp_path / "d.mjs").write_text('import { y } from "https://example.org/y.mjs";\n')
    for name in ("a.mjs", "c.mjs", "d.mjs"):
        try:
            b.bundle(tmp_path / name)
        except b.BundleError:
            continue
        raise AssertionError(f"{name} was bundled")
    (tmp_path / "e.mjs").write_text('export const E = 2;\nconst hidden = 5;\n')
    (tmp_path / "f.mjs").write_text('import { E as e } from "./e.mjs";\nexport { E } from "./e.mjs";\nexport function f() { return e; }\n')
    code = b.bundle(tmp_path / "f.mjs")
    assert code.index("const __m_e =") < code.index("const __m_f =")
    assert "const { E: e } = __m_e;" in code and "return Object.freeze({ E: __m_e.E, f });" in code
