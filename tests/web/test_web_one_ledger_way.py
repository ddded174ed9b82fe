"""The site reaches the ledger one way: the facade's methods (:class:`audit.operator.ledger.Ledger`)
and the ledger's public classes -- never a module function of the ledger package, never the
raw SQLite handle (issue 31: one blueprint once used all three ways).

Every module of ``web/`` is parsed with :mod:`ast` (never matched by regex):

* no attribute ``.db`` or ``.conn`` is read anywhere (the ledger's connection; a function that
  takes it, like :func:`audit.operator.tokens.authenticate`, is asked of the facade instead);
* whatever is imported from the ledger package (``audit.operator.ledger``) or from
  :mod:`audit.operator.tokens` (whose functions take the raw handle) is imported from the
  package itself, never from one of its modules, and is a class or a type, never a function
  or a module (resolved by importing it here) -- but for the checks of a value
  (:data:`VALUE_CHECKS`: an id's alphabet), which read no ledger.

The checker is run on synthetic sources that break each rule once, so a checker that saw
nothing would fail too.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pathlib

import pytest

WEB = pathlib.Path(__file__).resolve().parents[2] / "web"
#: the raw SQLite handle of a ledger (``Ledger.db``) and of its connection
RAW_HANDLES = ("db", "conn")
#: what the site may import only as classes or types
LEDGER_SIDE = ("audit.operator.ledger", "audit.operator.tokens")
#: functions of the ledger package that check a value and read no ledger (their one argument is the value)
VALUE_CHECKS = frozenset({"check_id"})


def _ledger_side(module: str) -> bool:
    return any(module == m or module.startswith(m + ".") for m in LEDGER_SIDE)


def faults(source: str, name: str = "<web>") -> list[str]:
    """Every way ``source`` (a module of web/) reaches the ledger other than through its facade."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in RAW_HANDLES:
            found.append(f"{name}:{node.lineno} reads .{node.attr} (the raw SQLite handle)")
        elif isinstance(node, ast.Import):
            found += [f"{name}:{node.lineno} imports the module {a.name}" for a in node.names if _ledger_side(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module == "audit.operator" and any(_ledger_side(f"audit.operator.{a.name}") for a in node.names):
                found.append(f"{name}:{node.lineno} imports a module of the ledger's side from audit.operator")
            elif _ledger_side(node.module):
                if node.module not in LEDGER_SIDE:
                    found.append(f"{name}:{node.lineno} imports from {node.module}, a module inside the ledger package")
                    continue
                package = importlib.import_module(node.module)
                for alias in node.names:
                    if node.module == "audit.operator.ledger" and alias.name in VALUE_CHECKS:
                        continue
                    thing = getattr(package, alias.name, None)
                    if thing is None or inspect.isfunction(thing) or inspect.ismodule(thing) or inspect.isbuiltin(thing):
                        found.append(f"{name}:{node.lineno} imports {node.module}.{alias.name}, "
                                     "not a class of the ledger's")
    return found


def test_the_site_reaches_the_ledger_only_through_its_facade():
    found = []
    for path in sorted(WEB.rglob("*.py")):
        found += faults(path.read_text(encoding="utf-8"), str(path.relative_to(WEB)))
    assert found == []


def test_the_value_checks_read_no_ledger():
    from audit.operator import ledger

    for name in VALUE_CHECKS:
        params = list(inspect.signature(getattr(ledger, name)).parameters.values())
        assert params[0].name == "text" and all(p.kind is p.KEYWORD_ONLY for p in params[1:]), name


@pytest.mark.parametrize("source, fault", [
    ("from audit.operator.ledger import queries\nqueries.hand_page(ledger)\n", "not a class"),
    ("from audit.operator.ledger import open_db\n", "not a class"),
    ("from audit.operator.ledger.views import get_hand\nget_hand(ledger.db, 'h')\n", "inside the ledger package"),
    ("from audit.operator.ledger.queries import LedgerReads\n", "inside the ledger package"),
    ("import audit.operator.ledger.store\n", "imports the module"),
    ("from audit.operator import ledger\n", "from audit.operator"),
    ("from audit.operator import tokens\n", "from audit.operator"),
    ("from audit.operator.tokens import authenticate\n", "not a class"),
    ("def who(token):\n    return authenticate(get_ledger().db, token)\n", "raw SQLite handle"),
    ("rows = get_ledger().db.execute('SELECT 1')\n", "raw SQLite handle"),
    ("busy = ledger.db.conn.in_transaction\n", "raw SQLite handle"),
])
def test_the_checker_sees_each_other_way_to_the_ledger(source, fault):
    found = faults(source)
    assert found and all(fault in f for f in found[:1]), found


def test_the_facade_and_its_classes_pass():
    assert faults("from audit.operator.ledger import HandState, Ledger, LedgerVersion, SecretStoreError\n"
                  "from audit.operator.tokens import Principal\n"
                  "from audit.operator.publish import published_record\n"
                  "page, total = get_ledger().hand_page(limit=5)\n"
                  "who = get_ledger().authenticate(token)\n") == []
