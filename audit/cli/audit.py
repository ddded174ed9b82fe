"""``tiplu audit``: the command, and its report as text."""
from __future__ import annotations

import json
import sys
from collections import Counter
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import click

from replay.errors import MalformedError
from replay.faults import Fault

from ..auditor.sources.source import URL, Source
from ..auditor.run.report import AuditReport
from ..auditor.run.runner import audit_items
from . import main
from ..auditor.verdict.audit_policy import AuditPolicy
from ..auditor.verdict.timing import UNPROVEN_MESSAGE
from ._values import PUBLIC_KEY
from ._witness_common import pinned_policy, reconciled, witness_options

if TYPE_CHECKING:
    from ..auditor.evidence.logcheck import LogView
    from ..auditor.run.auditstate import AuditState, StateCheck
    from ..auditor.sources.scope import OperatorScope
    from ..auditor.verdict.trust import TrustAnchor
    from ..tlog.checkpoint import Checkpoint
    from ..tlog.policy import Policy
    from .progress import AuditProgress


def _progress_printer(enabled: bool, source: "str | Source | None" = None) -> "AuditProgress | None":
    """The audit's progress bar (:mod:`audit.cli.progress`), or ``None`` when off."""
    from .progress import progress_bar
    return progress_bar(enabled, source)


def consequence_note(verdict: dict[str, Any]) -> str:
    """`` (+ 2 more root causes; 6 consequences: 5 illegal_move, 1 incomplete)`` for a JSON verdict."""
    faults = verdict.get("faults") or []
    roots = verdict.get("root_causes", len(faults))
    later = Counter(f["reason"] for f in faults[roots:])
    parts = []
    if roots > 1:
        parts.append(f"+ {roots - 1} more root cause{'s' if roots > 2 else ''}")
    if later:
        n = sum(later.values())
        parts.append(f"{n} consequence{'s' if n > 1 else ''}: " + ", ".join(f"{c} {r}" for r, c in sorted(later.items())))
    return f" ({'; '.join(parts)})" if parts else ""


MAX_TABLES_SHOWN = 50


def hand_note(failure: dict[str, Any]) -> str:
    """`` (hand kitti-4p-t0-h0007)`` when the failure's place does not already name its hand."""
    hand_id = failure.get("hand_id")
    return f" (hand {hand_id})" if hand_id and hand_id not in failure["where"] else ""


def _signed(amount: str) -> str:
    return amount if amount.startswith("-") or not amount.strip("0.") else "+" + amount


def table_line(tid: str, t: dict[str, Any]) -> str:
    """One table's money in the text report (its ``--json`` entry): each player's balance and
    the house's commission from the hands that pass -- the line used to promise balances and
    print none (issue 29 item 14) -- and how many rejected hands are not counted."""
    balances = ", ".join(f"{p} {_signed(b)}" for p, b in t["balances"].items()) or "none"
    line = (f"table {tid}: balances from the {t['passed']} hand{'s' if t['passed'] != 1 else ''} that pass: "
            f"{balances}; house commission {t['commission']}")
    if t["unreconciled"]:
        line += (f"; {t['unreconciled']} rejected hand{'s' if t['unreconciled'] != 1 else ''} not counted "
                 "(their claims are in --json under tables.<id>.rejected)")
    return line


def print_summary(report: AuditReport, *, verdict_line: bool = True) -> None:
    data = report.to_json()
    reasons = sorted({r for g in data["by_game"].values() for r in g})
    header = ["game", *reasons, "total"]
    rows = [[g, *[str(c.get(r, 0)) for r in reasons], str(sum(c.values()))] for g, c in data["by_game"].items()]
    widths = [max(len(x) for x in col) for col in zip(header, *rows)]
    for row in [header, *rows]:
        click.echo("  ".join(x.ljust(w) for x, w in zip(row, widths)).rstrip())
    folded = report.folded_carry_faults()
    for f in data["failures"][:50]:  # in reading order (AuditReport.to_json)
        root = f["faults"][0]
        where = f"move {root['move_index']}: " if root.get("move_index") is not None else ""
        click.echo(f"FAIL {f['where']}{hand_note(f)}: {f['reason']}: {where}{root['message']}{consequence_note(f)}")
        for c in f.get("consequences", []):
            click.echo(f"     consequence: table {c['table_id']}: {c['reason']}: {c['message']}")
    if data["failed"] > 50:  # every failed record, not only the MAX_LISTED_FAILURES listed
        click.echo(f"... and {data['failed'] - 50} more failures (use --json for all)")
    tables = sorted(data["tables"].items())  # the money without hands settled on a rejected pot
    for tid, t in tables[:MAX_TABLES_SHOWN]:
        click.echo(table_line(tid, t))
    if len(tables) > MAX_TABLES_SHOWN:
        click.echo(f"... and {len(tables) - MAX_TABLES_SHOWN} more tables (use --json for their balances)")
    shown = {(tid, msg) for pairs in folded.values() for tid, msg in pairs}
    for tid, faults in report.table_faults().items():
        for msg in faults:
            if (tid, msg) not in shown:
                click.echo(f"FAIL table {tid}: carry_mismatch: {msg}")
    skipped = data["not_audited"]
    for h in skipped["hands"][:50]:
        click.echo(f"{h['status'].upper().replace('_', ' ')} {h['where']}: {h['message']}")
    if len(skipped["hands"]) > 50:
        click.echo(f"... and {len(skipped['hands']) - 50} more hands not audited (use --json for all)")
    counts: dict[str, int] = {}
    for per in skipped["by_game"].values():
        for status, n in per.items():
            counts[status] = counts.get(status, 0) + n
    if counts:
        click.echo(f"{sum(counts.values())} hands without a record to audit (not failures): "
                   + ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in sorted(counts.items())))
    timing = data["timing"]
    if any(timing.values()):
        click.echo("timing: " + ", ".join(f"{n} {s}" for s, n in timing.items()))
    for r in data["unproven_records"][:50]:
        click.echo(f"UNPROVEN {r['where']}: hand {r['hand_id']}: nothing proved when it was logged")
    if len(data["unproven_records"]) > 50:
        click.echo(f"... and {len(data['unproven_records']) - 50} more unproven records (use --json for all)")
    if data["unproven"]:
        click.echo(f"what unproven means: {UNPROVEN_MESSAGE}")
    if verdict_line:
        if data["total"] == 0:  # an empty or unreadable source is not a clean one
            click.echo("0 records audited: nothing audited is not a pass  -- AUDIT FAILED")
        else:
            click.echo(f"{data['total']} records audited, {data['failed']} failed, {data['unproven']} unproven"
                       + {"pass": "", "fail": "  -- AUDIT FAILED",
                          "unproven": "  -- NOT A PASS: timing unproven (exit 3)"}[data["result"]])


@main.command("audit")
@click.argument("source", default="-")
@click.option("--public-key", callback=PUBLIC_KEY, help="Pin the operator's Ed25519 public key (hex); without it or --trust each record's own claimed key is used, which is NOT a trust anchor.")
@click.option("--trust", "trust_file", type=click.Path(dir_okay=False),
              help='A trust file {"format": "tiplu.trust/1", "public_key": HEX, "origin": LOG?}: the key (and log) to trust.')
@click.option("--state", "state_file", type=click.Path(dir_okay=False),
              help="The last checkpoint this auditor accepted (JSON; a 'tiplu monitor --state' file works too): every "
                   "checkpoint met must be consistent with it (log_inconsistent if not); advanced after a clean audit.")
@click.option("--check-signatures", is_flag=True,
              help="Also verify every statement's Ed25519 signature (the default leaves them to the log checkpoint).")
@click.option("--strict", is_flag=True, help="Stop each record at its first fault (default: report every fault).")
@click.option("--json", "as_json", is_flag=True, help="Print the full report as JSON.")
@click.option("--progress/--no-progress", default=None, help="Show progress on stderr (default: when stderr is a terminal).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Audit in this many local processes.")
@click.option("--dask", "dask_address", metavar="ADDRESS", help="Audit on a dask.distributed scheduler (pip install 'tiplu[dask]').")
@click.option("--grace", "grace_text", default=None, metavar="PERIOD",
              help="Ledger and URL audits: how long a hand may wait between two steps, or from its reveal to its "
                   "publication, before it is reported stalled or unpublished (90m, 2h, 1d; default 1h).")
@click.option("--now", "now_text", default=None, metavar="TIME",
              help="Judge stalled and unpublished hands as of this ISO-8601 UTC time (default: now).")
@click.option("--read-in-workers/--ship-records", "read_in_workers", default=None,
              help="Parallel runs: each worker reads its own part of a local archive (default for --workers "
                   "and --dask local:N; needs shared storage on a real cluster), or the parent ships the records "
                   "(default for a remote scheduler).")
@witness_options
def audit_command(source: str, public_key: str | None, trust_file: str | None, state_file: str | None,
                  check_signatures: bool,
                  strict: bool, as_json: bool, progress: bool | None,
                  workers: int, dask_address: str | None, grace_text: str | None, now_text: str | None,
                  read_in_workers: bool | None, witness_keys: tuple[str, ...], quorum: int | None,
                  policy_file: str | None) -> None:
    """Audit hand records: one record (.json), a JSON-lines file, a ledger (.db) or an operator URL.

    A ledger or URL audit covers every hand, not only the published ones: a hand stalled
    (stopped before its reveal) or unpublished (finished or revealed, no published record)
    past the grace period is a failure; cancelled and in-progress hands are listed apart.
    Every record's verdict says what proved its timing (that the deal was fixed before
    the players' seeds were known): "witnessed" (a quorum of the --policy file's
    witnesses cosigned its checkpoint), "whole-log" (a ledger or URL audit) or
    "unproven" (a lone record: its proofs only agree with themselves).  Under a --policy
    (or --witness/--quorum) that requires witnesses, a missing quorum fails with
    witness_quorum.
    Exits 0 if every record passed with its timing proven, 1 if any record or hand
    fails or if nothing was audited (an empty source, a damaged ledger copy), 2 on bad
    input, 3 if nothing failed but some record's timing is unproven.
    """
    from ..auditor.sources.coverage import DEFAULT_GRACE, parse_grace, utc_now
    from ..timecheck import parse_clock

    from ..auditor.verdict.trust import TrustAnchor, load_trust_file, parse_key

    if public_key and trust_file:
        raise MalformedError("pin the key once: --public-key or --trust, not both")
    trust = (TrustAnchor(parse_key(public_key), "pinned") if public_key
             else load_trust_file(trust_file) if trust_file else None)
    saved = None
    if state_file:
        from ..auditor.run.auditstate import AuditState

        try:
            saved = AuditState.load(state_file)
        except MalformedError as exc:
            raise click.BadParameter(str(exc), param_hint="--state") from None
        if trust is not None and saved.public_key and saved.public_key != trust.public_key:
            raise click.BadParameter(f"{state_file} pins key {saved.public_key[:16]}..., not the key given",
                                     param_hint="--state")
        if trust is None:
            trust = saved.anchor()
    policy = pinned_policy(policy_file, witness_keys, quorum)
    trust = reconciled(trust, policy)
    if trust is None and policy is not None and len(policy.logs) == 1:
        trust = TrustAnchor(policy.logs[0].vkey.public_hex, "policy", policy.logs[0].origin)

    grace = DEFAULT_GRACE if grace_text is None else parse_grace(grace_text)
    now = utc_now() if now_text is None else parse_clock(now_text)
    if now is None:
        raise MalformedError("--now is an ISO-8601 time with its zone, e.g. 2026-12-01T20:00:00Z")
    from ..auditor.sources.source import close_log

    src = Source.of(source)  # what the source is, decided once
    scope = src.scope(trust.public_key) if trust is not None and trust.basis != "record" else None
    log, log_failures = src.open_log(trust, scope)
    try:
        _audit(src, log, log_failures, scope=scope, trust=trust, saved=saved, state_file=state_file, policy=policy,
               check_signatures=check_signatures, strict=strict, as_json=as_json, progress=progress,
               workers=workers, dask_address=dask_address, read_in_workers=read_in_workers, now=now, grace=grace)
    finally:
        close_log(log)  # a ledger's log: closed before exit, so no -wal/-shm stays beside it


def _audit(source: Source, log: LogView | None, log_failures: list[tuple[str, Fault]], *,
           scope: OperatorScope | None, trust: TrustAnchor | None, saved: AuditState | None, state_file: str | None,
           policy: Policy | None, check_signatures: bool, strict: bool, as_json: bool, progress: bool | None,
           workers: int, dask_address: str | None, read_in_workers: bool | None, now: datetime,
           grace: timedelta) -> None:
    from replay.faults import Reason

    from ..auditor.verdict.verify import Verdict

    state: StateCheck | None = None
    show = _progress_printer(sys.stderr.isatty() if progress is None else progress, source)
    findings = source.findings(log, now)
    source_cp = None
    if saved is not None:
        state, source_cp = _state_check(source, saved, trust, log, scope)
    terms = AuditPolicy.of(trust=trust, policy=policy, strict=strict, check_signatures=check_signatures, log=log,
                           state=state)  # how every record is judged: one value, decided here
    if workers > 1 or dask_address:
        from ..auditor.run.parallel import audit_parallel

        report = audit_parallel(source, terms, workers=workers, dask_address=dask_address, progress=show,
                                read_in_workers=read_in_workers, now=now, grace=grace, scope=scope,
                                findings=findings)
    else:
        report = audit_items(source.items(now=now, grace=grace, scope=scope), terms, progress=show,
                             findings=findings)
    for where, fault in log_failures:
        report.add(where, Verdict(None, None, (fault,)))
    if state is not None and saved is not None:  # a state check runs only with the saved state
        if source_cp is not None:
            message = state.check(source_cp)
            if message is not None:
                report.add(f"{source} (its log checkpoint)",
                           Verdict(None, None, (Fault(Reason.LOG_INCONSISTENT, message),)))
        for message in state.forks():
            report.add(f"{source} (the checkpoints it carries)",
                       Verdict(None, None, (Fault(Reason.LOG_INCONSISTENT, message),)))
        if not state.contradicted and state.best is not None and state.best is not saved.checkpoint:
            saved.save(state.best, trust.public_key if trust is not None and trust.basis != "record" else None)
    if show:
        show.close()
    anchor = trust.to_json() if trust is not None else {
        "public_key": None, "basis": "record", "origin": None, "pinned": False}
    nothing = report.total == 0  # nothing audited is not a pass (exit 1)
    if as_json:
        data = report.to_json()
        if nothing:
            data["ok"], data["result"], data["nothing_audited"] = False, "fail", True
        data["trust"] = anchor
        if state is not None and saved is not None:
            data["state"] = {"file": state_file, **state.to_json(),
                             "written": not state.contradicted and state.best is not None
                             and state.best is not saved.checkpoint}
        if policy is not None:
            data["policy"] = policy.to_json()
        if scope is not None:
            data["scope"] = scope.to_json()
        if source.kind == URL:
            data["log"] = _log_json(log, log_failures)
        click.echo(json.dumps(data, indent=2, sort_keys=True))
    else:
        click.echo(f"trusted: {trust.describe()}" if trust is not None else
                   f"trusted: the log of the policy {policy.label} named by each record's checkpoint"
                   if policy is not None and policy.logs else
                   "trusted: each record's own claimed key -- NOT a trust anchor "
                   "(pin the operator's key with --public-key, --trust or --policy)")
        if policy is not None:
            click.echo(f"policy: {policy.label} requires {policy.describe()}")
        if scope is not None:
            click.echo(scope.describe())
        if state is not None:
            click.echo(state.describe())
        if source.kind == URL:
            click.echo(_log_line(log, log_failures))
        print_summary(report)
    if not report.ok or nothing:
        sys.exit(1)
    if report.unproven:
        sys.exit(3)


def _state_check(source: Source, saved: AuditState, trust: TrustAnchor | None, log: LogView | None = None,
                 scope: OperatorScope | None = None) -> tuple[StateCheck, Checkpoint | None]:
    """A :class:`StateCheck` against ``saved``, with the source's consistency proofs (a ledger
    or URL), and the source's own current checkpoint verified under the trusted key (or None)."""
    from ..auditor.run.auditstate import StateCheck
    from ..auditor.evidence.logcheck import verified_checkpoint

    text = source.checkpoint_text(log, scope)
    source_cp = None
    if isinstance(text, str) and trust is not None:
        source_cp = verified_checkpoint(text, trust.public_key, trust.origin)
    return StateCheck(saved.checkpoint, source.proofs()), source_cp


_ANCHORS = {"pinned": "its checkpoint signed by the trusted key",
            "operator": "its checkpoint signed by the key it publishes itself -- NOT a trust anchor "
                        "(pin the operator's key with --public-key or --trust)",
            "none": "its checkpoint's root, unsigned (no key pinned or published) -- NOT a trust anchor"}


def _served(log: LogView | None) -> tuple[Checkpoint, str] | None:
    """The checkpoint a URL's served log was checked against, and by whose key (an opened
    :class:`RemoteLog` has both); ``None`` when the audit holds no served log."""
    from ..auditor.evidence.remote_log import RemoteLog

    if isinstance(log, RemoteLog) and log.checkpoint is not None and log.anchor is not None:
        return log.checkpoint, log.anchor
    return None


def _log_json(log: LogView | None, failures: list[tuple[str, Fault]]) -> dict[str, Any]:
    """What a URL audit checked of the operator's served log (``--json``'s ``log``)."""
    served = _served(log)
    if served is None:
        return {"checked": False, "size": None, "root": None, "anchor": None,
                "problem": failures[0][1].reason.value if failures else "no log served"}
    cp, anchor = served
    return {"checked": True, "size": cp.size, "root": cp.root.hex(), "anchor": anchor, "problem": None}


def _log_line(log: LogView | None, failures: list[tuple[str, Fault]]) -> str:
    served = _served(log)
    if served is None:
        return ("log: the operator's served log is NOT the log it signs: records judged on their own evidence"
                if failures else "log: the operator serves no log: records judged on their own evidence")
    return (f"log: the operator's {served[0].size} served entries are the tree of "
            f"{_ANCHORS[served[1]]}; each record is judged against it")
