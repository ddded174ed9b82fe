"""The layers import downward only: web -> audit -> replay, and inside audit/ its rooms in
their order (docs/architecture.md).

Every module of ``replay/``, ``audit/`` and ``web/`` is parsed with :mod:`ast` (never
imported, never matched by regex) and each import it makes, wherever it stands -- at the
top, inside a function, under ``if TYPE_CHECKING`` -- is resolved to a module name:

* ``import x.y`` and ``from x.y import z`` (also ``x.y.z``, which may be a submodule);
* relative imports (``from ..operator.ledger import Ledger`` in ``audit/cli/demo.py`` is
  ``audit.operator.ledger``), resolved against the module's own package;
* ``importlib.import_module("x.y")`` (or ``import_module``, ``__import__``) called with a
  string literal, relative ones with their literal ``package=``.

An import is against the order when it reaches a layer above the module's own:
:data:`LAYERS` ranks the packages, and inside ``audit`` each room -- the standards
(``audit.tlog``), the operator's side, the auditor's side room by room, the command line --
has its own rank, one per room, so two rooms never import each other, not even from inside
a function.  The modules directly in ``audit/`` are the ground every room stands on
(:data:`GROUND`); a new one must be placed in a room or named there.  The pure library also stays pure: nothing
under ``replay/`` imports a web framework, a database, a random source or a clock (:data:`IMPURE`).
The checker itself is tested on synthetic sources that break each rule once per kind of
import, so a checker that saw nothing would fail too.
"""
from __future__ import annotations

import ast
import pathlib
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: first-party packages and audit/'s rooms, lowest first; a module may import only its own
#: rank or lower (the most specific entry that holds a module is its room).  One rank per
#: room: rooms of one rank could import each other.
LAYERS: dict[str, int] = {
    "replay": 0,                    # the pure library
    "audit": 1,                     # the ground: only the GROUND modules
    "audit.tlog": 2,                # the standards: RFC 9162, C2SP
    "audit.operator": 3,            # the operator's side: the ledger, publishing, receipts, tokens
    "audit.operator.sim": 4,        # the operator simulator: bots through the real ledger
    "audit.auditor.evidence": 5,    # log evidence: a record against the log, and the log views
    "audit.auditor.verdict": 6,     # one record's verdict
    "audit.auditor.sources": 7,     # where records come from, and what a whole source shows
    "audit.auditor.monitor": 8,     # the log monitor
    "audit.auditor.run": 9,         # the audit of a whole source: report, parallel, state
    "audit.auditor.stats": 10,      # the deal statistics
    "audit.auditor.collusion": 11,  # the collusion review
    "audit.cli": 12,                # the command line, a shell
    "web": 13,                      # the web app, a shell
}

#: the modules directly in ``audit/``: what every room may use (errors, constant-time
#: comparison, Ed25519 statements, key and state files, the record's schema, time bounds)
GROUND = frozenset({"audit", "audit.errors", "audit.consttime", "audit.signing", "audit.keys", "audit.inputfiles",
                    "audit.statefile", "audit.schema", "audit.schemas", "audit.render", "audit.timecheck",
                    "audit.auditor"})

#: what the pure library never imports: no web framework, no command line, no database, no
#: network, no random source, no clock.
IMPURE = ("flask", "werkzeug", "click", "sqlite3", "sqlite_utils", "requests", "random", "secrets", "time",
          "datetime")

#: modules that only the named modules may import: the command line is a shell, and the web
#: app reads key files through the trust layer (audit/keys.py), not through the CLI.
ONLY_FROM: dict[str, tuple[str, ...]] = {"audit.cli": ("audit.cli", "web.cli")}

IMPORT_FUNCTIONS = {"import_module", "__import__"}


@dataclass(frozen=True)
class Import:
    module: str  # the imported module, absolute
    line: int


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def layer_of(module: str) -> str | None:
    """The most specific entry of :data:`LAYERS` that ``module`` is in (``None``: not ours)."""
    best = None
    for name in LAYERS:
        if _within(module, name) and (best is None or len(name) > len(best)):
            best = name
    return best


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str | None:
    """``from <level dots><name> import ...`` inside ``module`` as an absolute module name."""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    if level - 1 > len(parts) - 1:
        return None  # climbs out of the top package: an ImportError at run time, not an edge
    base = parts[:len(parts) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def imports_of(source: str, module: str, *, is_package: bool = False) -> list[Import]:
    """Every module that ``source`` (the text of ``module``) imports, as absolute names."""
    out: list[Import] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [Import(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module if node.level == 0 else _resolve(module, is_package, node.level, node.module)
            if base is None:
                continue
            out.append(Import(base, node.lineno))
            out += [Import(f"{base}.{alias.name}", node.lineno) for alias in node.names if alias.name != "*"]
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if called not in IMPORT_FUNCTIONS or not node.args:
                continue
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            name = first.value
            if name.startswith("."):
                package = next((k.value.value for k in node.keywords if k.arg == "package"
                                and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)), None)
                if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                    package = node.args[1].value
                if not isinstance(package, str):
                    continue
                level = len(name) - len(name.lstrip("."))
                name = _resolve(package, True, level, name.lstrip(".") or None) or ""
            if name:
                out.append(Import(name, node.lineno))
    return out


def violations(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """Each import of ``source`` (the module ``module``) against the layer order or the purity
    of ``replay``, as ``"module:line imports name"``."""
    own = layer_of(module)
    if own is None:
        return []
    bad = []
    for imp in imports_of(source, module, is_package=is_package):
        theirs = layer_of(imp.module)
        upward = theirs is not None and LAYERS[theirs] > LAYERS[own]
        impure = own == "replay" and imp.module.split(".")[0] in IMPURE
        walled = any(_within(imp.module, name) and not any(_within(module, m) for m in allowed)
                     for name, allowed in ONLY_FROM.items())
        if upward or impure or walled:
            bad.append(f"{module}:{imp.line} imports {imp.module}")
    return sorted(set(bad))


def project_modules():
    for top in ("replay", "audit", "web"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            is_package = rel.name == "__init__"
            parts = rel.parts[:-1] if is_package else rel.parts
            yield ".".join(parts), is_package, path


def test_no_module_imports_against_the_layer_order():
    found = []
    modules = list(project_modules())
    assert len(modules) > 100  # the walk found the code
    for module, is_package, path in modules:
        found += violations(path.read_text(encoding="utf-8"), module, is_package=is_package)
    assert found == []


def import_cycles(sources: dict[str, tuple[str, bool]]) -> list[list[str]]:
    """The import circles among ``sources`` (module -> (text, is_package)), each as a path
    ``[a, b, ..., a]``.  Any import counts, lazy ones too; a module's import of its own
    package (which Python imports first anyway) is not an edge."""
    edges = {}
    for module, (text, is_package) in sources.items():
        deps = {i.module for i in imports_of(text, module, is_package=is_package)}
        edges[module] = {d for d in deps if d in sources and d != module and not module.startswith(d + ".")}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in sorted(edges[m]):
            if state.get(d) == 1:
                cycles.append(path[path.index(d):] + [d])
            elif d not in state:
                visit(d, path + [d])
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m, [m])
    return cycles


def test_the_shells_have_no_import_circle():
    # audit/cli once had _ledger_common <-> keys; key files now live in audit/keys.py
    sources = {module: (path.read_text(encoding="utf-8"), is_package)
               for module, is_package, path in project_modules() if layer_of(module) in ("audit.cli", "web")}
    assert len(sources) > 20
    assert import_cycles(sources) == []


def test_the_circle_finder_finds_a_lazy_circle():
    sources = {"audit.cli._ledger_common": ("def f():\n    from .keys import load_key_file\n", False),
               "audit.cli.keys": ("from ._ledger_common import emit\n", False),
               "audit.cli.hand": ("from ._ledger_common import emit\nfrom . import main\n", False),
               "audit.cli": ("import click\n", True)}
    assert import_cycles(sources) == [["audit.cli._ledger_common", "audit.cli.keys", "audit.cli._ledger_common"]]


# -- the checker, on synthetic modules: each kind of import, once against each rule --------

UPWARD = {
    "import": ("audit.auditor.run.report", "import web\n"),
    "dotted import": ("audit.auditor.run.report", "import web.data as data\n"),
    "from import": ("audit.auditor.run.report", "from web import create_app\n"),
    "from a submodule": ("replay.cards", "from audit.operator.ledger.ledger import Ledger\n"),
    "inside a function": ("audit.auditor.run.report", "def f():\n    from web.cli import main\n    return main\n"),
    "under TYPE_CHECKING": ("audit.auditor.run.report", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                                        "    from web.data import hand_json\n"),
    "relative, up into the CLI": ("audit.operator.publish", "from ..cli.keys import load_key_file\n"),
    "relative from a package": ("audit.operator.ledger", "from ...cli import main\n"),
    "from a package import a module": ("audit.auditor.run.report", "from audit import cli\n"),
    "importlib.import_module": ("replay.game", "import importlib\nimportlib.import_module('audit.auditor.verdict.verify')\n"),
    "import_module": ("audit.auditor.verdict.verify", "from importlib import import_module\nimport_module('web.pages')\n"),
    "import_module, relative": ("audit.auditor.verdict.verify", "from importlib import import_module\n"
                                                                "import_module('.cli.demo', package='audit')\n"),
    "__import__": ("audit.auditor.verdict.verify", "__import__('web')\n"),
    "the app reads keys through the CLI": ("web", "from audit.cli.keys import load_key_file\n"),
    "a page uses the CLI's helpers": ("web.pages", "from audit.cli._ledger_common import emit\n"),
    "impure replay": ("replay.shuffle", "import random\n"),
    "impure replay, from": ("replay.records", "from sqlite_utils import Database\n"),
    "a clock in replay": ("replay.settlement", "def now():\n    from datetime import datetime\n    return datetime.now()\n"),
    # audit/'s rooms
    "the standards use the monitor": ("audit.tlog.store", "from ..auditor.sources.coverage import utc_now\n"),
    "the ground uses a room": ("audit.signing", "from .tlog.merkle import leaf_hash\n"),
    "the ledger reads log evidence, lazily": ("audit.operator.ledger.queries",
                                              "def ledger_log(ledger):\n"
                                              "    from ...auditor.evidence.ledger_log import LedgerLog\n"
                                              "    return LedgerLog(ledger.db)\n"),
    "log evidence uses the verdict": ("audit.auditor.evidence.logcheck",
                                      "from ..verdict.statement_check import PHASES\n"),
    "a source uses the monitor": ("audit.auditor.sources.remote", "from ..monitor.watch import LogClient\n"),
    "the simulator uses the collusion review": ("audit.operator.sim.cheaters",
                                                "from audit.auditor.collusion.observe import add_hand\n"),
    "the verdict uses the whole-source run": ("audit.auditor.verdict.verify", "from ..run.runner import audit_one\n"),
}


def test_the_checker_flags_every_kind_of_upward_import():
    for kind, (module, source) in UPWARD.items():
        assert violations(source, module, is_package=module in ("audit.operator.ledger", "web")), kind


DOWNWARD = {
    "web uses audit and replay": ("web.data", "from audit.auditor.verdict.verify import audit_record\n"
                                              "import replay.cards\nfrom .errors import ApiError\nfrom . import db\n"),
    "the CLI uses the audit": ("audit.cli.demo", "from ..operator.ledger import Ledger\nfrom . import main\n"
                                                 "from .audit import print_summary\n"),
    "audit uses replay": ("audit.auditor.verdict.verify", "from replay.records import parse_record\n"
                                                          "from ...errors import TipluError\n"),
    "a string is not an import": ("audit.auditor.run.report", "NAME = 'web'\nprint('import web')\n"),
    "a dynamic name is not seen": ("audit.auditor.run.report", "import importlib\nimportlib.import_module(NAME)\n"),
    "third parties are not layers": ("audit.auditor.run.report", "import flask\nimport click\n"),
    "tiplu is composed from audit's commands": ("web.cli", "from audit.cli import main\n"),
    "replay's own relative import": ("replay.kitti.engine", "from ..cards import Card\nfrom .rank import SetRank\n"),
    # audit/'s rooms
    "the auditor reads a ledger": ("audit.auditor.sources.reader", "from ...operator.ledger.store import open_readonly\n"),
    "the verdict checks log evidence": ("audit.auditor.verdict.verify",
                                        "from ..evidence.logcheck import check_log_evidence\n"),
    "the standards use the ground": ("audit.tlog.checkpoint", "from audit.signing import verify_bytes\n"),
    "the review plays the simulator's tables": ("audit.auditor.collusion.cheaters", "from ...operator.sim.play import play_hand\n"),
    "a room's own modules": ("audit.auditor.run.parallel", "from .runner import audit_items\n"),
}


def test_the_checker_passes_downward_imports():
    for kind, (module, source) in DOWNWARD.items():
        assert violations(source, module) == [], kind


def test_every_module_of_audit_is_in_a_room_or_the_ground():
    # a module directly in audit/ (or in audit/auditor/, which is no room) would rank as the
    # ground without being named: place it in a room, or name it in GROUND
    loose = sorted(m for m, _, _ in project_modules() if layer_of(m) == "audit" and m not in GROUND)
    assert loose == []
    assert layer_of("audit.auditor.verdict.verify") == "audit.auditor.verdict"
    assert layer_of("audit.operator.sim.bots.kitti") == "audit.operator.sim"
    assert layer_of("audit.operator.ledger.store") == "audit.operator"
    assert layer_of("audit.auditor.loose") == "audit"  # ... which the line above would catch
    assert len(set(LAYERS.values())) == len(LAYERS)  # one rank per room


def test_relative_imports_resolve_against_the_modules_package():
    assert [i.module for i in imports_of("from ..operator.ledger import Ledger\n", "audit.cli.demo")] == [
        "audit.operator.ledger", "audit.operator.ledger.Ledger"]
    assert [i.module for i in imports_of("from . import db\n", "web", is_package=True)] == ["web", "web.db"]
    assert [i.module for i in imports_of("from .x import y\n", "audit.operator.ledger", is_package=True)] == [
        "audit.operator.ledger.x", "audit.operator.ledger.x.y"]
    assert imports_of("from .... import x\n", "audit.cli.demo") == []  # climbs out of the top package
