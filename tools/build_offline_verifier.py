#!/usr/bin/env python3
"""Write the generated files of the in-browser verifier (R-22).

* ``web/static/verifier/presets.mjs`` -- the preset declarations of ``replay/<game>/presets/*.json``
  as an ES module (the browser resolves rulesets from it, so it must match the Python
  presets exactly; the ruleset hash depends on every default), plus one example hand
  taken from ``fixtures/vectors/v1.json`` for the page's "Try an example" button.
* ``web/static/verifier/gamedata.mjs`` -- what the verifier's pages need of each game, from
  the registry's ``GAME`` (``replay.game.Game``): its deal layout and the words of its piles
  (``DealLayout.to_json``), so no module outside ``verifier/games/`` names a game.
* ``web/static/verifier/recordschema.mjs`` -- the record's JSON Schema, generated from the
  record model (``replay.record_model.record_schema``, the file ``audit/schemas/hand-record.schema.json``
  holds), which ``shape.mjs`` checks a record against as ``audit/schema.py`` does.
* ``web/static/tiplu-verifier.html`` -- ONE self-contained page: ``verify.html`` with its
  CSS and every ES module inlined, so it works when opened straight from disk
  (``file://`` pages cannot import modules from other files).

The modules are inlined by a deliberately small bundler that accepts only the module
style the verifier is written in, and fails loudly on anything else:

* ``import { a, b as c } from "./x.mjs";``  (relative paths only)
* ``export { a } from "./x.mjs";``           (re-export)
* ``export function|async function|class|const|let NAME``

Each module becomes ``const __m_x = (() => { const {a, b: c} = __m_y; ...; return {...}; })();``
in dependency order, so module-private names never clash.

    python tools/build_offline_verifier.py            # rewrite both files
    python tools/build_offline_verifier.py --check    # exit 1 if either is not current
"""
from __future__ import annotations

import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay.record_model import record_schema  # noqa: E402
from replay.registry import game_for, game_names  # noqa: E402
from replay.rulesets import PRESETS, preset_spec  # noqa: E402

STATIC = ROOT / "web" / "static"
PAGE = STATIC / "verify.html"
PRESETS_OUT = STATIC / "verifier" / "presets.mjs"
GAMEDATA_OUT = STATIC / "verifier" / "gamedata.mjs"
SCHEMA_OUT = STATIC / "verifier" / "recordschema.mjs"
OFFLINE_OUT = STATIC / "tiplu-verifier.html"
VECTORS = ROOT / "fixtures" / "vectors" / "v1.json"
EXAMPLE_VECTOR = "marriage/nepal/4p/0"

IDENT = r"[A-Za-z_$][\w$]*"
IMPORT_RE = re.compile(r"^import\s*\{([^}]*)\}\s*from\s*\"([^\"]+)\";[ \t]*$", re.M)
REEXPORT_RE = re.compile(r"^export\s*\{([^}]*)\}\s*from\s*\"([^\"]+)\";[ \t]*$", re.M)
DECL_RE = re.compile(rf"^export\s+((?:async\s+)?function\*?|class|const|let)\s+({IDENT})", re.M)
ANY_IMPORT_RE = re.compile(r"^\s*import\b", re.M)
ANY_EXPORT_RE = re.compile(r"^\s*export\b", re.M)


class BundleError(Exception):
    """A module uses a form the small bundler does not accept."""


def _names(spec: str) -> list[tuple[str, str]]:
    """``a, b as c`` -> [(a, a), (b, c)]."""
    out = []
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        m = re.fullmatch(rf"({IDENT})(?:\s+as\s+({IDENT}))?", part)
        if not m:
            raise BundleError(f"cannot read import/export name {part!r}")
        out.append((m.group(1), m.group(2) or m.group(1)))
    return out


def _var(path: pathlib.Path) -> str:
    rel = path.relative_to(STATIC).with_suffix("").as_posix()
    return "__m_" + re.sub(r"\W", "_", rel)


def _target(src: pathlib.Path, spec: str) -> pathlib.Path:
    if not spec.startswith("./") and not spec.startswith("../"):
        raise BundleError(f"{src.name}: only relative imports can be inlined, not {spec!r}")
    return (src.parent / spec).resolve()


def _module(path: pathlib.Path) -> tuple[list[pathlib.Path], str]:
    """The dependencies of a module and its text as an IIFE assigned to its variable."""
    text = path.read_text(encoding="utf-8")
    deps: list[pathlib.Path] = []
    prologue: list[str] = []
    exports: list[tuple[str, str]] = []  # (exported name, local expression)

    def on_import(m: re.Match) -> str:
        dep = _target(path, m.group(2))
        deps.append(dep)
        binds = ", ".join(a if a == b else f"{a}: {b}" for a, b in _names(m.group(1)))
        prologue.append(f"const {{ {binds} }} = {_var(dep)};")
        return ""

    def on_reexport(m: re.Match) -> str:
        dep = _target(path, m.group(2))
        deps.append(dep)
        for a, b in _names(m.group(1)):
            exports.append((b, f"{_var(dep)}.{a}"))
        return ""

    body = IMPORT_RE.sub(on_import, text)
    body = REEXPORT_RE.sub(on_reexport, body)
    for m in DECL_RE.finditer(body):
        exports.append((m.group(2), m.group(2)))
    body = DECL_RE.sub(lambda m: f"{m.group(1)} {m.group(2)}", body)
    if ANY_IMPORT_RE.search(body):
        raise BundleError(f"{path.name}: an import the bundler cannot read (use `import {{ a }} from \"./x.mjs\";`)")
    if ANY_EXPORT_RE.search(body):
        raise BundleError(f"{path.name}: an export the bundler cannot read (export declarations only)")
    ret = ", ".join(n if n == e else f"{n}: {e}" for n, e in exports)
    rel = path.relative_to(STATIC).as_posix()
    code = (f"// ---- {rel} ----\nconst {_var(path)} = (() => {{\n" + "\n".join(prologue) + "\n"
            + body.strip("\n") + f"\nreturn Object.freeze({{ {ret} }});\n}})();\n")
    return deps, code


def bundle(entry: pathlib.Path) -> str:
    """Every module reachable from ``entry``, dependencies first, as one script."""
    done: dict[pathlib.Path, str] = {}
    visiting: set[pathlib.Path] = set()

    def visit(path: pathlib.Path) -> None:
        path = path.resolve()
        if path in done:
            return
        if path in visiting:
            raise BundleError(f"import cycle through {path.name}")
        visiting.add(path)
        deps, code = _module(path)
        for dep in deps:
            visit(dep)
        visiting.discard(path)
        done[path] = code

    visit(entry)
    return "\n".join(done.values())


def presets_module() -> str:
    specs = {p: preset_spec(p) for p in PRESETS}
    vectors = {v["name"]: v for v in json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"]}
    v = vectors[EXAMPLE_VECTOR]
    example = {
        "name": v["name"], "preset": v["preset"], "hand_id": v["hand_id"], "dealer": v["dealer"],
        "server_seed": v["server_seed"], "player_seeds": v["player_seeds"], "ruleset_hash": v["ruleset_hash"],
        "server_commitment": v["expect"]["server_commitment"],
        "player_commitments": v["expect"]["player_commitments"],
    }
    return (
        "// GENERATED by tools/build_offline_verifier.py from replay/<game>/presets/*.json and\n"
        "// fixtures/vectors/v1.json -- do not edit; rerun the tool after changing a preset.\n\n"
        "/** Every preset's declaration, exactly as replay/<game>/presets/*.json (in PRESETS order). */\n"
        f"export const PRESET_SPECS = {json.dumps(specs, indent=1, ensure_ascii=False)};\n\n"
        f"/** One known-answer vector ({EXAMPLE_VECTOR}) for the page's example button. */\n"
        f"export const EXAMPLE_HAND = {json.dumps(example, indent=1, ensure_ascii=False)};\n"
    )


def gamedata_module() -> str:
    data = {name: {"deal_layout": game_for(name).deal_layout.to_json()} for name in game_names()}
    return (
        "// GENERATED by tools/build_offline_verifier.py from the registry's games (replay/<game>/GAME)\n"
        "// -- do not edit; rerun the tool after changing a game.\n\n"
        "/** Per game (the rulesets' `game`): deal_layout = {indicator, turned_up} -- the cards laid out\n"
        " * after the hands, in shoe order (replay.game.DealLayout) -- and the words of its piles\n"
        " * (turned_up_label, stock_label, stock_title). */\n"
        f"export const GAME_DATA = {json.dumps(data, indent=1, ensure_ascii=False)};\n"
    )


def record_schema_module() -> str:
    return (
        "// GENERATED by tools/build_offline_verifier.py from the record model (replay/record_model.py)\n"
        "// -- do not edit; rerun the tool after changing the model.\n\n"
        "/** The record's JSON Schema: audit/schemas/hand-record.schema.json (replay.record_model.record_schema). */\n"
        f"export const RECORD_SCHEMA = {json.dumps(record_schema(), indent=1, ensure_ascii=False)};\n"
    )


def offline_page() -> str:
    """verify.html with its stylesheet and its module graph inlined."""
    html = PAGE.read_text(encoding="utf-8")
    link = re.search(r'<link rel="stylesheet" href="([^"]+)">', html)
    script = re.search(r'<script type="module" src="([^"]+)"></script>', html)
    if not link or not script:
        raise BundleError("verify.html must have one <link rel=\"stylesheet\" href=...> and one <script type=\"module\" src=...>")
    css = (STATIC / link.group(1)).read_text(encoding="utf-8")
    js = bundle(STATIC / script.group(1))
    for bad in ("</script", "<!--", "<script"):
        if bad in js.lower():
            raise BundleError(f"the bundled script contains {bad!r}, which would end the inline <script>")
    if "</style" in css.lower():
        raise BundleError("the stylesheet contains '</style'")
    banner = ("<!-- GENERATED by tools/build_offline_verifier.py from web/static/verify.html and its modules;\n"
              "     do not edit.  Save this one file and open it from disk: it needs no network. -->\n")
    html = html.replace(link.group(0), "<style>\n" + css.strip("\n") + "\n</style>", 1)
    html = html.replace(script.group(0), '<script type="module">\n' + js + "</script>", 1)
    html = html.replace('<html lang="en">', '<html lang="en" data-offline="1">', 1)
    return html.replace("<!doctype html>\n", "<!doctype html>\n" + banner, 1)


def main() -> int:
    check = "--check" in sys.argv
    # the data modules first: the offline page inlines them.
    outputs = [(PRESETS_OUT, presets_module), (GAMEDATA_OUT, gamedata_module), (SCHEMA_OUT, record_schema_module),
               (OFFLINE_OUT, offline_page)]
    stale = []
    for path, make in outputs:
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != make():
                stale.append(path)
        else:
            path.write_text(make(), encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if check:
        if stale:
            print("not current: " + ", ".join(str(p.relative_to(ROOT)) for p in stale)
                  + " -- run python tools/build_offline_verifier.py")
            return 1
        print("offline verifier is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
