"""``tiplu monitor URL``: watch an operator's transparency log (see :mod:`audit.auditor.monitor.watch`).

Every problem found is one line on stderr, ``tiplu monitor: KIND: message``.  The state file
is saved after every poll whose *log* checks pass (a problem about a hand -- stalled,
unpublished, out of order, a failed audit -- is reported but does not stop the monitor
following the log), and a clean poll prints one ``ok`` line on stdout.  With ``--once`` the
exit status is 1 if the poll found any problem; without it the monitor keeps polling every
``--interval`` seconds, reporting each poll's problems, until it is stopped (Ctrl-C: exit
status 1 if the last poll found a problem, else 0).
"""
from __future__ import annotations

import sys
import time
from importlib import import_module
from pathlib import Path
from typing import Any, Mapping, Protocol

import click

from datetime import timedelta

from audit.auditor.sources.coverage import DEFAULT_GRACE, format_grace, parse_grace
from audit.auditor.sources.operator_api import LogClient
from audit.auditor.evidence.logcheck import LogView
from audit.auditor.monitor.hands import AuditHook
from audit.auditor.monitor.watch import MonitorState, compare, load_other_checkpoint, poll
from audit.tlog.note import Vkey
from audit.tlog.policy import Policy

from . import main
from ._values import PUBLIC_KEY
from ._witness_common import pinned_policy, reconciled, witness_options

DEFAULT_AUDIT_HOOK = "audit.auditor.verdict.verify:audit_record"


def load_hook(spec: str, *, required: bool) -> AuditHook | None:
    """Import ``module:function``; ``None`` when absent and not ``required``."""
    if spec.lower() == "none":
        return None
    module, _, name = spec.partition(":")
    try:
        hook: AuditHook = getattr(import_module(module), name)  # whatever it is, it is called as one
        return hook
    except (ImportError, AttributeError):
        if required:
            raise click.BadParameter(f"cannot import {spec}", param_hint="--audit-hook") from None
        return None


def run_once(client: LogClient, state_path: Path, *, url: str, public_key: str | None,
             hook: AuditHook | None, compare_paths: tuple[Path, ...], witnesses: tuple[Vkey, ...] = (),
             quorum: int = 0, grace: timedelta = DEFAULT_GRACE, policy: Policy | None = None) -> bool:
    """One round: poll, then compare with every other checkpoint; report; save if clean."""
    state = MonitorState.load(state_path, url=url)
    result = poll(client, state, public_key=public_key, audit_record=hook, witnesses=witnesses, quorum=quorum,
                  grace=grace, policy=policy)
    problems = list(result.problems)
    if not problems:
        for path in compare_paths:
            problems += compare(result.state, load_other_checkpoint(path), client, label=str(path))
    for note in result.notes:
        click.echo(f"note: {note}")
    for problem in problems:
        click.echo(f"tiplu monitor: {problem}", err=True)
    if result.accepted:  # the log checks passed: its growth is followed, whatever a hand did
        result.state.save(state_path)
    cp = result.checkpoint
    if problems or cp is None:  # no problem: the checkpoint was accepted
        return False
    click.echo(f"ok: {cp.origin} size {cp.size} root {cp.root.hex()} "
               f"(+{result.new_entries} entries checked, {result.audited} hands audited against the whole log, "
               f"{len(result.state.open_hands)} in progress"
               f"{', key pinned on first use' if state.public_key is None and not public_key else ''})")
    return True


class LogHook(Protocol):
    """An audit hook that also takes the whole log and the pinned policy to judge a record
    by (the default, :func:`audit.auditor.verdict.verify.audit_record`)."""

    def __call__(self, record: Mapping[str, Any], /, *, log: LogView | None = ...,
                 policy: Policy | None = ...) -> Any: ...


class PolicyHook(Protocol):
    """An audit hook that also takes the pinned policy (:func:`against_the_log`'s)."""

    def __call__(self, record: Mapping[str, Any], /, *, policy: Policy | None = ...) -> Any: ...


def against_the_log(hook: LogHook, client: LogClient, public_key: str | None = None,
                    origin: str | None = None) -> PolicyHook:
    """The default audit hook, judging each record against the operator's whole served log
    (fetched once for this round): a re-logged forgery is then ``log_duplicate`` and a record
    proved in a private log ``log_inconsistent`` / ``not_in_log``, as in a ledger audit.

    The served entries are first checked against the operator's checkpoint signed by
    ``public_key`` (the pinned key or the one the state holds; on first use, the key the
    operator publishes): served entries that are not that tree fail every audit of the
    round (``AUDIT_FAILED: ... log_inconsistent``) instead of judging records against them."""
    from audit.auditor.evidence.remote_log import RemoteLog

    log = RemoteLog(client, public_key=public_key, origin=origin)

    def audit(record: Mapping[str, Any], /, *, policy: Policy | None = None) -> Any:
        return hook(record, log=log.open(), policy=policy)
    return audit


def records_need_witnesses(hook: PolicyHook, policy: Policy) -> AuditHook:
    """The default audit hook under the pinned policy (:class:`audit.tlog.policy.Policy`): a
    revealed hand's record must carry a checkpoint with its witness quorum (``witness_quorum``
    otherwise), as ``tiplu audit --policy`` judges it -- by that very audit: the policy is
    passed to it, so the quorum is judged on the record it parsed, once."""
    def audit(record: Mapping[str, Any]) -> Any:
        return hook(record, policy=policy)
    return audit


@main.command("monitor")
@click.argument("url")
@click.option("--state", "state_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="JSON file keeping the last checkpoint accepted (created on first use).")
@click.option("--public-key", callback=PUBLIC_KEY, help="The operator's Ed25519 public key (hex). Default: trust the key on first use.")
@click.option("--once", is_flag=True, help="Poll once and exit (status 1 if any problem).")
@click.option("--interval", type=click.FloatRange(min=0.1), default=60.0, show_default=True,
              help="Seconds between polls when not --once.")
@click.option("--compare", "compare_paths", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Another monitor's state file (or a checkpoint file) to gossip with: detects a split view.")
@click.option("--audit-hook", default=DEFAULT_AUDIT_HOOK, show_default=True,
              help="module:function run on the record of every revealed hand; 'none' to skip audits.")
@witness_options
@click.option("--grace", "grace_text", default=format_grace(DEFAULT_GRACE), show_default=True, metavar="PERIOD",
              help="How long a hand's statements may stop (or a revealed hand stay unpublished) before it is "
                   "reported STALLED or UNPUBLISHED (90m, 2h, 1d).")
def monitor_command(url: str, state_path: Path, public_key: str | None, once: bool, interval: float,
                    compare_paths: tuple[Path, ...], audit_hook: str, witness_keys: tuple[str, ...],
                    quorum: int | None, grace_text: str, policy_file: str | None) -> None:
    """Watch the transparency log of the operator at URL.

    Verifies each new checkpoint's signature and its consistency with the last one
    accepted, checks every new entry's inclusion proof, and audits revealed hands.
    A fork, rollback, missing entry, bad signature, split view, failed audit, a hand
    stalled or left unpublished past the grace period, a statement out of the protocol's
    order, dated backwards or in the future, or a server seed used twice is one line on
    stderr.  With --once the exit status is then 1; otherwise the monitor keeps polling
    every --interval seconds.  With --policy (a pinned C2SP tlog-policy) or --witness, a
    checkpoint, or a revealed hand's record, lacking the quorum of valid cosignatures is
    WITNESS_QUORUM.  Every hand is audited against the whole served log (its timing:
    "whole-log").
    """
    from audit.auditor.verdict.trust import TrustAnchor

    grace = parse_grace(grace_text)
    policy = pinned_policy(policy_file, witness_keys, quorum)
    if public_key is not None and policy is not None:
        reconciled(TrustAnchor(public_key, "pinned"), policy)
    elif policy is not None and len(policy.logs) == 1:
        public_key = policy.logs[0].vkey.public_hex
    hook = load_hook(audit_hook, required=audit_hook != DEFAULT_AUDIT_HOOK)
    if hook is None and audit_hook.lower() != "none":
        click.echo(f"note: audit hook {audit_hook} is not available; revealed hands are not audited")
    # a pinned key that is one of several operators' at this site: watch that operator's own log
    from ..auditor.sources.scope import url_scope

    scope = url_scope(url.rstrip("/"), public_key) if public_key else None
    client = LogClient(url, operator=scope.operator if scope is not None else None)
    clean = True
    while True:
        round_hook = hook
        if hook is not None and audit_hook == DEFAULT_AUDIT_HOOK:
            from audit.auditor.verdict.verify import audit_record  # the hook loaded: the default's function

            known = MonitorState.load(state_path, url=url)
            logged = against_the_log(audit_record, client, public_key or known.public_key, known.origin)
            round_hook = (records_need_witnesses(logged, policy) if policy is not None and policy.requires_witnesses
                          else logged)
        clean = run_once(client, state_path, url=url, public_key=public_key, hook=round_hook,
                         compare_paths=compare_paths, grace=grace, policy=policy)
        if once:
            if not clean:
                sys.exit(1)
            return
        try:  # keep watching: a poll's problems are reported, the next poll comes all the same
            time.sleep(interval)
        except KeyboardInterrupt:
            sys.exit(0 if clean else 1)
