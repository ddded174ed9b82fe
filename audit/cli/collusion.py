"""``tiplu collusion``: review flags for accounts whose choices line up with hidden cards."""
from __future__ import annotations

import json
import sys

import click

from . import main


@main.command("collusion")
@click.argument("source", default="-")
@click.option("--public-key", help="The operator's Ed25519 public key (hex) every record is audited against; "
              "default: the key each record names (then nothing is pinned).")
@click.option("--trust", "trust_file", type=click.Path(dir_okay=False),
              help="A tiplu.trust/1 file pinning the operator's key; see docs/transparency-log.md.")
@click.option("--min-decisions", type=click.IntRange(2, 1_000_000), default=None,
              help="Decisions an account needs on a signal before it is tested (default 50).")
@click.option("--json", "as_json", is_flag=True, help="Print every account's tests, the flags and the pairs as JSON.")
@click.option("--progress/--no-progress", default=None, help="Show progress on stderr (default: when stderr is a terminal).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Review in this many local processes.")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="Review on a dask.distributed scheduler, or local:N (pip install 'tiplu[dask]').")
def collusion_command(source: str, public_key: str | None, trust_file: str | None, min_decisions: int | None,
                      as_json: bool, progress: bool | None, workers: int, dask_address: str | None) -> None:
    """Superuser and collusion review of a source of records (.json, JSON lines, a ledger .db, a URL).

    Every record is audited; for each hand that passes, every decision is replayed and
    compared with the cards its maker could not see (docs/collusion.md).  Per account and
    signal a one-sided test, with false discovery rate control across all of them.  A flag
    is a reason to review, never a finding of cheating.  Pairs of accounts are tested the same
    way (feeding, play together, token flows).  Exits 1 if any account or pair is flagged.
    """
    from ..auditor.collusion import observe_items, review
    from ..auditor.collusion.significance import MIN_DECISIONS
    from ..auditor.sources.reader import iter_source
    from ._values import pinned_trust

    trust = pinned_trust(public_key, trust_file)
    show = sys.stderr.isatty() if progress is None else progress

    def tick(n: int) -> None:
        click.echo(f"reviewed {n} records", err=True)

    if workers > 1 or dask_address:
        from ..auditor.collusion.parallel import observe_parallel

        obs = observe_parallel(iter_source(source), trust=trust, workers=workers, dask_address=dask_address,
                               progress=tick if show else None)
    else:
        obs = observe_items(iter_source(source), trust=trust, progress=tick if show else None)
    report = review(obs, min_decisions=min_decisions or MIN_DECISIONS)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, sort_keys=True))
    else:
        for line in report.lines():
            click.echo(line)
    if report.flags or report.pair_flags:
        sys.exit(1)
