"""No two modules of replay/, audit/ or web/ import each other, directly or round a circle.

Every import counts, also one inside a function (a "lazy" import hides a circle; it does not
break it) -- except one under ``if TYPE_CHECKING:``, which never runs (a name for the type
checker only).  Importing a submodule runs its package's ``__init__`` first; that edge from a
module to the package holding it is not a circle and is not counted.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("replay", "audit", "web")
#: circles another change owns (none left: the CLI's _ledger_common <-> keys went with issue 19 item 2)
KNOWN: set[frozenset[str]] = set()


def _modules() -> dict[str, Path]:
    mods = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            mods[".".join(parts)] = path
    return mods


def _type_checking_only(tree: ast.AST) -> set[ast.AST]:
    """The import nodes under an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    skipped: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            skipped.update(n for stmt in node.body for n in ast.walk(stmt))
    return skipped


def import_graph() -> dict[str, set[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_only(tree)
        for node in ast.walk(tree):
            if node in skipped:
                continue
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{a.name}" for a in node.names]
                if not any(t in mods for t in targets):  # names from the module, not submodules
                    targets = [source]
            else:
                continue
            for t in targets:
                if t in mods and t != name and not name.startswith(t + "."):  # not its own package
                    graph[name].add(t)
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[frozenset[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        found.append(frozenset(comp))
    return found


def test_the_detector_sees_a_lazy_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [frozenset({"a", "b", "c"})]


def test_an_import_for_the_type_checker_only_is_not_an_edge():
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import Game\n"
                     "def f():\n    from .deal import x\n")
    skipped = _type_checking_only(tree)
    kept = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n not in skipped]
    assert kept == ["typing", "deal"]


def test_no_import_circles():
    new = [sorted(c) for c in circles(import_graph()) if c not in KNOWN]
    assert new == [], f"modules that import each other: {new}"


def test_the_circles_issue_19_named_are_gone():
    graph = import_graph()
    for a, b in (("audit.auditor.sources.reader", "audit.auditor.sources.remote"),
                 ("audit.operator.ledger.migrations", "audit.operator.ledger.store"),
                 ("audit.operator.sim.grind", "audit.operator.sim.tamper")):
        assert not any({a, b} <= c for c in circles(graph)), (a, b)
