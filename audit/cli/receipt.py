"""``tiplu receipt verify RECEIPT RECORD``: does a published record contradict a player's receipt?

Exit status 0: consistent (and what an offline check cannot show is said); 1: contradicted,
each contradiction one line (``--json``: the evidence, both sides), or under ``--policy`` the
record's checkpoint lacks the witness quorum the policy requires; 2: bad input (a file
that does not parse, a receipt that does not hold under the key, a record of another hand).
See :mod:`audit.auditor.verdict.receipt_check`.
"""
from __future__ import annotations

import json
import sys
from typing import Any

import click

from replay.errors import TipluError
from replay.records import load_json

from . import main
from ._witness_common import pinned_policy, policy_option, reconciled


@main.group("receipt")
def receipt_group() -> None:
    """A player's seat receipts (tiplu.receipt/3) and move receipts."""


def _load(path: str, what: str) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            return load_json(fh.read())
    except OSError as exc:
        raise TipluError(f"cannot read the {what} {path}: {exc.strerror or exc}") from None
    except (TipluError, UnicodeDecodeError) as exc:
        raise TipluError(f"the {what} {path} is not JSON: {exc}") from None


@receipt_group.command("verify")
@click.argument("receipt_path", metavar="RECEIPT")
@click.argument("record_path", metavar="RECORD")
@click.option("--public-key", metavar="HEX", help="The operator key you pinned (default: the key the receipt "
                                                  "names, which is NOT a trust anchor).")
@click.option("--moves", "moves_path", metavar="FILE", help="Your move receipts (tiplu.move-receipt/1), a JSON "
                                                           "array or JSON lines: the record's moves must give "
                                                           "each one's head.")
@policy_option
@click.option("--json", "as_json", is_flag=True, help="Print the report (with the evidence) as JSON.")
def receipt_verify(receipt_path: str, record_path: str, public_key: str | None, moves_path: str | None,
                   as_json: bool, policy_file: str | None) -> None:
    """Check a published RECORD against your RECEIPT: same logged statements, same server
    commitment, ruleset hash, terms and names, one root per checkpoint size, and (--moves)
    the moves as played.  With --policy, the record's checkpoint is judged under your
    pinned C2SP tlog-policy too (its log pins the key when --public-key is not given): the
    report says whether witnesses proved its timing, and a missing quorum the policy
    requires is a failure.  Exit 0 consistent, 1 contradicted (or the policy's witness
    quorum missing), 2 bad input."""
    from ..auditor.verdict.move_receipts import load_move_receipts
    from ..auditor.verdict.receipt_check import compare
    from ..auditor.verdict.timing import judge_timing
    from ..auditor.verdict.trust import TrustAnchor

    policy = pinned_policy(policy_file)
    if public_key is not None and policy is not None:
        reconciled(TrustAnchor(public_key, "pinned"), policy)
    elif policy is not None and policy.logs:
        public_key = policy.logs[0].vkey.public_hex
    try:
        moves = None
        if moves_path is not None:
            try:
                with open(moves_path, encoding="utf-8") as fh:
                    moves = load_move_receipts(fh.read())
            except OSError as exc:
                raise TipluError(f"cannot read the move receipts {moves_path}: {exc.strerror or exc}") from None
            except (TipluError, UnicodeDecodeError) as exc:
                raise TipluError(f"the move receipts {moves_path} are not JSON: {exc}") from None
        record = _load(record_path, "record")
        report = compare(_load(receipt_path, "receipt"), record, public_key=public_key, move_receipts=moves)
    except TipluError as exc:
        click.echo(f"tiplu: error: {exc}", err=True)
        sys.exit(2)
    if policy is not None and policy.logs and public_key == policy.logs[0].vkey.public_hex:
        report.trust.setdefault("policy", policy.label)
    timing, faults = judge_timing(record, [], policy=policy)
    failed = bool(faults) or not report.consistent
    if as_json:
        data = report.to_json()
        data["timing"] = timing.to_json()
        data["witness_quorum"] = faults[0].message if faults else None
        click.echo(json.dumps(data, indent=2, sort_keys=True))
    else:
        trust = report.trust
        click.echo(f"key {trust['public_key']} ({trust['basis']}"
                   + (f": {trust['note']}" if "note" in trust else "") + ")")
        for c in report.contradictions:
            click.echo(f"CONTRADICTED: {c.message}")
        for line in report.checked:
            click.echo(f"ok: {line}")
        for line in report.not_checked:
            click.echo(f"not checked offline: {line}")
        for fault in faults:
            click.echo(f"FAIL witness_quorum: {fault.message}")
        click.echo(f"timing: {timing.status}: {timing.message}")
        click.echo(f"hand {report.hand_id} seat {report.seat}: "
                   + ("the record agrees with your receipt" if report.consistent
                      else f"the record CONTRADICTS your receipt ({len(report.contradictions)} ways)"))
    sys.exit(1 if failed else 0)
