"""``--witness VKEY`` (repeatable) and ``--quorum K``: the witness policy of ``tiplu audit`` and ``tiplu monitor``."""
from __future__ import annotations

import click

from replay.errors import MalformedError


def witness_options(f):
    f = click.option("--quorum", type=click.IntRange(min=0), default=None,
                     help="How many of the --witness keys must have cosigned (default: all of them).")(f)
    f = click.option("--witness", "witness_keys", multiple=True, metavar="VKEY",
                     help="A witness vkey (C2SP, <name>+<hex id>+<base64 0x04||key>) whose cosignature counts; "
                          "repeatable.")(f)
    return f


def witness_policy(values: tuple[str, ...], quorum: int | None) -> tuple[tuple, int]:
    """The parsed witness vkeys and the quorum (all of them unless given); a typed error if impossible."""
    from audit.tlog.cosignature import distinct_keys, parse_witness_list

    witnesses = tuple(parse_witness_list(values))
    n = distinct_keys(witnesses)  # one key under two names counts once
    if quorum is None:
        quorum = n
    if quorum > n:
        raise MalformedError(f"--quorum {quorum} needs at least {quorum} distinct --witness keys (got {n})")
    return witnesses, quorum
