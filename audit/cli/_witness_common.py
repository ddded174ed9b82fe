"""What proves a record's timing, as options: ``--policy FILE`` (a pinned C2SP tlog-policy)
and the older ``--witness VKEY`` (repeatable) with ``--quorum K``, of ``tiplu audit``,
``tiplu monitor``, ``tiplu receipt verify`` and ``tiplu stats``."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, TypeVar

import click

from replay.errors import MalformedError

if TYPE_CHECKING:
    from audit.auditor.verdict.trust import TrustAnchor
    from audit.tlog.note import Vkey
    from audit.tlog.policy import Policy

F = TypeVar("F", bound=Callable[..., object])

POLICY_HELP = ("A pinned C2SP tlog-policy file (c2sp.org/tlog-policy): the logs (their keys pin the operator) "
               "and the witnesses whose quorum must have cosigned each record's checkpoint. A quorum met "
               "proves the timing ('witnessed'); under a quorum other than 'none' a missing one fails "
               "with witness_quorum.")


def policy_option(f: F) -> F:
    return click.option("--policy", "policy_file", type=click.Path(dir_okay=False), default=None,
                        metavar="FILE", help=POLICY_HELP)(f)


def witness_options(f: F) -> F:
    f = click.option("--quorum", type=click.IntRange(min=0), default=None,
                     help="How many of the --witness keys must have cosigned (default: all of them).")(f)
    f = click.option("--witness", "witness_keys", multiple=True, metavar="VKEY",
                     help="A witness vkey (C2SP, <name>+<hex id>+<base64 0x04||key>) whose cosignature counts; "
                          "repeatable. (A --policy file says the same and more.)")(f)
    return policy_option(f)


def pinned_policy(policy_file: str | None, witness_keys: tuple[str, ...] = (), quorum: int | None = None
                  ) -> Policy | None:
    """The auditor's :class:`~audit.tlog.policy.Policy`: from ``--policy`` or from ``--witness``/``--quorum``
    (not both), or ``None``.  A file that does not parse is a usage error (exit 2)."""
    from audit.tlog.policy import PolicyError, load_policy, policy_of_witnesses

    if policy_file and (witness_keys or quorum is not None):
        raise click.UsageError("give the witnesses once: --policy FILE, or --witness/--quorum, not both")
    try:
        if policy_file:
            return load_policy(policy_file)
        if witness_keys or quorum:
            return policy_of_witnesses(list(witness_keys), quorum)
    except PolicyError as exc:
        raise click.BadParameter(str(exc), param_hint="--policy" if policy_file else "--witness") from None
    except MalformedError as exc:
        raise click.BadParameter(str(exc), param_hint="--witness") from None
    return None


def reconciled(trust: TrustAnchor | None, policy: Policy | None) -> TrustAnchor | None:
    """:func:`audit.auditor.verdict.trust.reconcile`, a conflict being a usage error (exit 2)."""
    from audit.auditor.verdict.trust import TrustConflictError, reconcile

    try:
        return reconcile(trust, policy)
    except TrustConflictError as exc:
        raise click.BadParameter(str(exc), param_hint="--policy") from None


def witness_policy(values: tuple[str, ...], quorum: int | None) -> tuple[tuple[Vkey, ...], int]:
    """The parsed witness vkeys and the quorum (all of them unless given); a typed error if impossible."""
    from audit.tlog.cosignature import distinct_keys, parse_witness_list

    witnesses = tuple(parse_witness_list(values))
    n = distinct_keys(witnesses)  # one key under two names counts once
    if quorum is None:
        quorum = n
    if quorum > n:
        raise MalformedError(f"--quorum {quorum} needs at least {quorum} distinct --witness keys (got {n})")
    return witnesses, quorum
