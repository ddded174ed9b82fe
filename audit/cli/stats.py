"""``tiplu stats``: where the cards of audit-passing hands fell, against chance."""
from __future__ import annotations

import json
import sys

import click

from . import main
from ._witness_common import pinned_policy, policy_option, reconciled


@main.command("stats")
@click.argument("source", default="-")
@click.option("--public-key", help="The operator's Ed25519 public key (hex) every record is audited against; "
              "default: the key each record names (then nothing is pinned: say so when you quote the result).")
@click.option("--trust", "trust_file", type=click.Path(dir_okay=False),
              help="A tiplu.trust/1 file pinning the operator's key (and log origin); see docs/transparency-log.md.")
@policy_option
@click.option("--json", "as_json", is_flag=True, help="Print every chart's counts, expected counts and test as JSON.")
@click.option("--progress/--no-progress", default=None, help="Show progress on stderr (default: when stderr is a terminal).")
def stats_command(source: str, public_key: str | None, trust_file: str | None, as_json: bool,
                  progress: bool | None, policy_file: str | None) -> None:
    """Deal statistics of a source of records (.json, JSON lines, a ledger .db, an operator URL).

    Every record is audited; only log-bound (tiplu.hand/2) records that pass count.  A
    ledger or URL is audited against its whole log; with --policy a record whose checkpoint
    lacks the policy's witness quorum does not count; the report says how many of the hands
    used had their timing proven (witnessed, whole-log) and how many are unproven.  Per
    game: each card and rank by seat, each rank by stretch of the stock, the turned-up card
    and indicator, jokers by seat and the winner by seat and by place after the dealer,
    each with a chi-square test
    at 99%.  Exits 1 if a test of the deal is flagged (docs/stats.md).
    """
    from ..auditor.stats.deals import stats_of_items, summary_lines

    show = sys.stderr.isatty() if progress is None else progress

    def tick(n: int) -> None:
        click.echo(f"audited {n} records", err=True)

    from ..auditor.verdict.trust import TrustAnchor
    from ._values import pinned_trust

    trust = pinned_trust(public_key, trust_file)
    policy = pinned_policy(policy_file)
    trust = reconciled(trust, policy)
    if trust is None and policy is not None and len(policy.logs) == 1:
        trust = TrustAnchor(policy.logs[0].vkey.public_hex, "policy", policy.logs[0].origin)
    from ..auditor.sources.source import Source

    src = Source.of(source)
    log, _ = src.open_log(trust)
    stats = stats_of_items(src.items(), trust=trust, progress=tick if show else None, policy=policy, log=log)
    data = stats.to_json()
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True))
    else:
        for line in summary_lines(data):
            click.echo(line)
    if any(g["deal_flagged"] for g in data["games"]):
        sys.exit(1)
