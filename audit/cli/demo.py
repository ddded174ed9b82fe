"""The demo archive of ``tiplu demo``, the README's main command: build it, audit it, judge the audit.

The command itself also serves the site, so it is composed above the web layer
(:mod:`web.cli`); everything up to the serving is here."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from replay.registry import demo_tables, presets

if TYPE_CHECKING:
    from ..operator.sim.tables import TableRun


def demo_plan(*, small: bool = False) -> list[tuple[str, int, int]]:
    """(preset, players, hands) per table, in the registry's preset order, from each game's
    ``presets/order.json`` (``demo``: its tables, and the one table of ``--small``)."""
    plan: list[tuple[str, int, int]] = []
    for preset in presets():
        demo = demo_tables(preset)
        tables = ([demo["small"]] if "small" in demo else []) if small else demo.get("tables", [])
        plan += [(preset, int(players), int(hands)) for players, hands in tables]
    return plan


# every preset, several tables, a few hundred hands; --small: one short table each
DEMO_PLAN = demo_plan()
SMALL_PLAN = demo_plan(small=True)
DEMO_SEED = "tiplu-demo-1"
DEMO_TAMPER_RATE = 0.04
DEMO_ORIGIN = "tiplu.demo/log"  # the demo log's name: the records' checkpoints and the site's agree


def build_demo(db: Path, *, plan: list[tuple[str, int, int]] = DEMO_PLAN, tamper_rate: float = DEMO_TAMPER_RATE,
               progress: bool = True, witnesses: str | None = None) -> dict[str, Any]:
    """Simulate the demo archive into ``db`` (a new file) and write its private tamper log.
    ``witnesses`` (a ``TIPLU_WITNESSES`` setting): every record's checkpoint is sent to them
    and carries the cosignatures they give."""
    from ..operator.ledger import Ledger
    from ..operator.sim.archive import simulate_archive, write_tamper_log

    from ..operator.ledger.secret_store import secrets_path_for

    db.parent.mkdir(parents=True, exist_ok=True)
    tmp = db.with_suffix(".building")
    for base in (tmp, secrets_path_for(tmp)):
        for p in (base, Path(str(base) + "-wal"), Path(str(base) + "-shm")):
            p.unlink(missing_ok=True)

    def said(t: TableRun) -> None:
        if progress:
            click.echo(f"  simulated {t.table_id}: {t.hands} hands", err=True)

    cosigner = None
    if witnesses:
        from ..tlog.witnessing import Witnessing

        witnessing = Witnessing.from_setting(witnesses)
        cosigner = witnessing.cosigner() if witnessing is not None else None
    with Ledger(str(tmp), create=True, cosign_checkpoint=cosigner) as ledger:
        run = simulate_archive(ledger, plan, seed=DEMO_SEED, tamper_rate=tamper_rate, on_table=said,
                               origin=DEMO_ORIGIN)
        ledger.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store = ledger._secrets().ensure()
        store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    secrets_path_for(tmp).rename(secrets_path_for(db))  # the secrets first: a public ledger never lacks them
    tmp.rename(db)  # the archive appears whole or not at all
    write_tamper_log(run, db.with_name("tampered.json"))
    return run.summary()


def needs_build(directory: Path, *, rebuild: bool = False) -> bool:
    return rebuild or not (directory / "tiplu.db").exists()


def demo_log(directory: Path | None = None) -> tuple[str, str]:
    """``(origin, public key hex)`` of the demo operator's log (known before the archive exists)."""
    from ..operator.sim.archive import OPERATOR, operator_key_for
    from ..tlog.logs import operator_origin

    return operator_origin(DEMO_ORIGIN, OPERATOR), operator_key_for(DEMO_SEED).public_hex


def build_and_audit(directory: Path, *, rebuild: bool = False, small: bool = False,
                    witnesses: str | None = None, as_json: bool = False) -> Path:
    """The demo up to its verdict: build the archive in ``directory`` (first run, or
    ``rebuild``), audit it with a progress bar, print the summary and whether the audit
    rejected exactly the hands the demo forged.  Returns the archive's path; exits 1 when it
    did not (a missed forgery or a rejected honest hand is a bug)."""
    from ..auditor.sources.reader import iter_source
    from ..auditor.run.runner import audit_items
    from .audit import _progress_printer, print_summary

    db = directory / "tiplu.db"
    if needs_build(directory, rebuild=rebuild):
        click.echo(f"Building the demo archive in {db} (first run only) ...", err=True)
        plan = SMALL_PLAN if small else DEMO_PLAN
        summary = build_demo(db, plan=plan, tamper_rate=0.25 if small else DEMO_TAMPER_RATE, witnesses=witnesses)
        click.echo(f"  {summary['hands']} hands in {len(plan)} tables", err=True)
    click.echo(f"Auditing {db} ...", err=True)
    show = _progress_printer(sys.stderr.isatty(), str(db))
    report = audit_items(iter_source(str(db)), progress=show, every=25)
    if show:
        show.close()
    tampered = json.loads((directory / "tampered.json").read_text()) if (directory / "tampered.json").exists() else {}
    data = report.to_json()
    caught = {f["hand_id"] for f in data["failures"]}
    missed, wrongly = set(tampered) - caught, caught - set(tampered)
    as_planted = not missed and not wrongly and not report.table_faults()
    if as_json:  # one JSON object: the audit report and how it compares with what the demo forged
        click.echo(json.dumps({"format": "tiplu.demo/1", "archive": str(db), "report": data,
                               "tampered": tampered, "caught": sorted(set(tampered) & caught),
                               "missed": sorted(missed), "wrongly_rejected": sorted(wrongly),
                               "as_planted": as_planted}, indent=2, sort_keys=True))
        if not as_planted:
            sys.exit(1)
        return db
    print_summary(report, verdict_line=False)
    click.echo(f"{data['total']} records audited, {data['failed']} failed.")
    if tampered:
        click.echo(f"The dishonest operator tampered {len(tampered)} hands; the audit caught "
                   f"{len(set(tampered) & caught)} of them.")
    if as_planted:
        click.echo("As it should be: every failure above is a forgery the demo planted on purpose, each one "
                   "was caught, and every honest hand passed. (On a real archive any failure means "
                   "AUDIT FAILED and exit status 1.)")
    else:
        click.echo(f"DEMO AUDIT WRONG: {len(missed)} planted forgeries not caught, {len(wrongly)} other hands "
                   "rejected -- this is a bug, please report it.")
        sys.exit(1)
    return db
