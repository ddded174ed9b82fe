"""The type checker's exemptions only shrink, and its strict part only grows.

pyproject.toml's ``[tool.mypy]`` once listed the modules whose own type errors were not
reported ("NOT YET CLEAN", ``ignore_errors = true``: empty now, and it stays empty) and lists
those checked but not yet under the strict flags ("NOT YET STRICT").  Each module fixed comes off its list; no module goes on one.  The
lists as they were when this test came in are pinned below: a module on either list now that
is not pinned there fails (a new module, or an old one put back), as does a module dropped
from the strict list.  Fixing a module needs no change here (taking it off a list keeps the
test green); a module renamed or split takes its old name off the list, since every listed
name must be a module of this checkout.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the "NOT YET CLEAN" list when it was pinned (it may only lose names)
NOT_YET_CLEAN: frozenset[str] = frozenset()

#: the "NOT YET STRICT" list when it was pinned (it may only lose names)
NOT_YET_STRICT = frozenset({
    "audit.auditor.collusion.parallel",  # calls distributed, which types little of its API
})

#: the modules under the strict flags when this was pinned, besides ``replay.*`` (they may not leave)
STRICT_SEAMS = frozenset({
    "audit.operator.ledger", "audit.operator.ledger.ledger", "audit.operator.ledger.views",
    "audit.auditor.verdict", "audit.auditor.verdict.verify", "audit.auditor.verdict.trust", "web.db", "web.data",
    "audit.auditor.verdict.audit_policy", "audit.auditor.sources.source",
    "audit.tlog", "audit.tlog.*", "audit.operator.ledger.*", "audit.operator.publish", "audit.operator.finishing",
    "audit.operator.receipts", "audit.auditor.evidence", "audit.auditor.evidence.*", "audit.auditor.verdict.*",
    "audit.auditor.sources", "audit.auditor.sources.*", "audit.auditor.monitor", "audit.auditor.monitor.*",
    "audit.auditor.run.runner", "audit.auditor.run.partitions", "audit.auditor.run.report",
    "audit.auditor.run.auditstate", "audit.auditor.run.task", "audit.auditor.run.pool", "audit.auditor.run.parallel",
    "audit.auditor.run.warmup",
    "audit.cli", "audit.cli._witness_common", "audit.cli._values", "audit.cli.evaluate", "audit.cli.replay",
    "audit.cli.demo", "audit.cli.simulate", "audit.cli.witness", "audit.cli.receipt", "audit.cli.monitor",
    "audit.cli.stats", "web.pages", "web.log_api", "web.log_tiles", "web.cli", "web.static_files", "web.errors",
    "web.auth", "web.openapi", "web.gunicorn_errors", "web.witness", "web.witness_view", "audit.cli.audit",
    "audit.auditor.collusion.*", "audit.operator.sim", "audit.operator.sim.archive", "audit.operator.sim.collude",
    "audit.operator.sim.grind", "audit.operator.sim.play", "audit.operator.sim.private_log",
    "audit.operator.sim.resign", "audit.operator.sim.tables", "audit.operator.sim.bots",
    "audit.operator.sim.bots.rummy13", "audit.operator.sim.bots.kitti", "audit.keys", "audit.inputfiles",
    "audit.schema", "web.stats_svg", "web.collusion_account_svg",
})


def _overrides(text: str | None = None) -> list[dict]:
    if text is None:
        text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)["tool"]["mypy"]["overrides"]


def _listed(overrides: list[dict], **flags: bool) -> set[str]:
    """The modules of every override that sets all of ``flags`` as given."""
    out: set[str] = set()
    for o in overrides:
        if all(o.get(k) is v for k, v in flags.items()):
            out.update(o["module"] if isinstance(o["module"], list) else [o["module"]])
    return out


def _exists(module: str) -> bool:
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_no_module_has_its_type_errors_ignored():
    # the NOT YET CLEAN list emptied (web.limits came off last): no override may ignore errors again
    assert sorted(_listed(_overrides(), ignore_errors=True) - NOT_YET_CLEAN) == []


def test_no_module_joins_the_not_yet_strict_list():
    assert sorted(_listed(_overrides(), disallow_untyped_defs=False) - NOT_YET_STRICT) == []


def test_no_module_leaves_the_strict_seams():
    strict = _listed(_overrides(), disallow_untyped_defs=True, disallow_any_generics=True, warn_return_any=True)
    assert "replay.*" in strict
    assert sorted(STRICT_SEAMS - strict) == []


def test_every_listed_module_exists():
    overrides = _overrides()
    names = set().union(*(_listed(overrides, **{flag: value}) for flag, value in (
        ("ignore_errors", True), ("disallow_untyped_defs", False), ("disallow_untyped_defs", True))))
    assert sorted(n for n in names if not n.endswith(".*") and not _exists(n)) == []


def test_the_ratchet_sees_a_module_put_on_the_list():
    """What the first test reads is pyproject.toml as it is written: an override that ignores
    a module's errors is one it reports."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    planted = text + '\n[[tool.mypy.overrides]]\nmodule = ["web.pages"]\nignore_errors = true\n'
    assert sorted(_listed(_overrides(planted), ignore_errors=True) - NOT_YET_CLEAN) == ["web.pages"]
