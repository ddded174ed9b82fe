"""The site reaches the ledger one way: the facade's methods (:class:`audit.operator.ledger.Ledger`)
and the operator side's public classes -- never a module function of the operator's side
(the ledger package, publishing, finishing, receipts, tokens), never the raw SQLite handle
(issue 31: one blueprint once used all three ways: a facade method, a module function taking
the facade, a module function taking the handle).

Every module of ``web/`` is parsed with :mod:`ast` (never matched by regex):

* no attribute ``.db`` or ``.conn`` is read anywhere (the ledger's connection; a function that
  takes it, like :func:`audit.operator.tokens.authenticate`, is asked of the facade instead);
* whatever is imported from the operator's side (``audit.operator`` and its modules) is a
  class, a type or a constant, never a function or a module (resolved by importing it here)
  -- but for the checks of a value (:data:`VALUE_CHECKS`: an id's alphabet), which read no
  ledger; and from the ledger package only from the package itself, never one of its modules.

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
#: the operator's side: what the site may import only as classes, types or constants
OPERATOR_SIDE = "audit.operator"
#: the ledger package: imported from the package itself only
LEDGER = "audit.operator.ledger"
#: functions of the ledger package that check a value and read no ledger (their one argument is the value)
VALUE_CHECKS = frozenset({"check_id"})


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def faults(source: str, name: str = "<web>") -> list[str]:
    """Every way ``source`` (a module of web/) reaches the ledger other than through its facade."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in RAW_HANDLES:
            found.append(f"{name}:{node.lineno} reads .{node.attr} (the raw SQLite handle)")
        elif isinstance(node, ast.Import):
            found += [f"{name}:{node.lineno} imports the module {a.name}" for a in node.names
                      if _within(a.name, OPERATOR_SIDE)]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module and _within(node.module, OPERATOR_SIDE):
            if _within(node.module, LEDGER) and node.module != LEDGER:
                found.append(f"{name}:{node.lineno} imports from {node.module}, a module inside the ledger package")
                continue
            package = importlib.import_module(node.module)
            for alias in node.names:
                if node.module == LEDGER and alias.name in VALUE_CHECKS:
                    continue
                thing = getattr(package, alias.name, None)
                if thing is None and node.module == OPERATOR_SIDE:   # a module not yet imported by the package
                    thing = importlib.import_module(f"{OPERATOR_SIDE}.{alias.name}")
                if inspect.ismodule(thing):
                    found.append(f"{name}:{node.lineno} imports the module {node.module}.{alias.name}")
                elif thing is None or inspect.isfunction(thing) or inspect.isbuiltin(thing):
                    found.append(f"{name}:{node.lineno} imports {node.module}.{alias.name}, "
                                 "a function of the operator's side, not the facade")
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
    ("from audit.operator.ledger import queries\nqueries.hand_page(ledger)\n", "imports the module"),
    ("from audit.operator.ledger import open_db\n", "a function of the operator's side"),
    ("from audit.operator.ledger.views import get_hand\nget_hand(ledger.db, 'h')\n", "inside the ledger package"),
    ("from audit.operator.ledger.queries import LedgerReads\n", "inside the ledger package"),
    ("import audit.operator.ledger.store\n", "imports the module"),
    ("import audit.operator.publish\n", "imports the module"),
    ("from audit.operator import ledger\n", "imports the module"),
    ("from audit.operator import publish\n", "imports the module"),
    ("from audit.operator.tokens import authenticate\n", "a function of the operator's side"),
    ("from audit.operator.publish import published_record\npublished_record(get_ledger(), 'h')\n",
     "a function of the operator's side"),
    ("from audit.operator.finishing import finish_hand\n", "a function of the operator's side"),
    ("from audit.operator.receipts import receipt\n", "a function of the operator's side"),
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
                  "from audit.operator.sim.archive import OPERATOR\n"
                  "record = get_ledger().published_record('h', origin='o')\n"
                  "page, total = get_ledger().hand_page(limit=5)\n"
                  "who = get_ledger().authenticate(token)\n") == []
