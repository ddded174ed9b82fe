"""Option values checked where click parses them, so a bad value is a usage error.

The README's rule for every command: exit status **2** for a usage error -- a missing
argument, an unknown option, *a bad value* -- and 1 for anything else.  A value the library
refuses later (an unknown preset, a seed that is not hex) would surface as a
:class:`~replay.errors.TipluError` and exit 1; these callbacks run the same parser while
click reads the option, and turn its refusal into :class:`click.BadParameter` (exit 2, one
line naming the option).  The parsers' messages never echo a seed.
"""
from __future__ import annotations

from typing import Any, Callable

import json

import click

from replay.errors import MalformedError, TipluError


def load_settings(text: str | None) -> dict[str, Any] | None:
    """The value of a ``--settings JSON`` option: a JSON object of setting overrides, or None."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedError(f"--settings is not JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(value, dict):
        raise MalformedError("--settings must be a JSON object of setting overrides")
    return value


def checked(parse: Callable[[Any], Any]) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A click ``callback`` that checks the value (each value of a ``multiple`` option) with
    ``parse`` and keeps it as given; ``None`` (not given) passes."""
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is None:
            return value
        for v in value if isinstance(value, tuple) else (value,):
            try:
                parse(v)
            except TipluError as exc:
                raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
        return value
    return callback


def _preset(name: str) -> None:
    from replay.rulesets import resolve

    resolve(name, None)


def _point_value(text: str) -> Any:
    from replay.settlement import parse_point_value

    return parse_point_value(text)


def _commission_pct(text: str) -> Any:
    from replay.settlement import parse_commission_pct

    return parse_commission_pct(text)


def _server_seed(text: str) -> Any:
    from replay.fairness import parse_server_seed

    return parse_server_seed(text)


def _player_seed(text: str) -> Any:
    from replay.fairness import parse_player_seed

    return parse_player_seed(text)


def _digest(text: str) -> Any:
    from replay.fairness import parse_digest

    return parse_digest(text)


def _key(text: str) -> Any:
    from ..auditor.verdict.trust import parse_key

    return parse_key(text)


def _settings(text: str) -> Any:
    return load_settings(text)


SETTINGS = checked(_settings)
PRESET = checked(_preset)
SERVER_SEED = checked(_server_seed)
PLAYER_SEED = checked(_player_seed)
DIGEST = checked(_digest)
PUBLIC_KEY = checked(_key)
POINT_VALUE = checked(_point_value)
COMMISSION_PCT = checked(_commission_pct)


def pinned_trust(public_key: str | None, trust_file: str | None) -> Any:
    """The trust anchor of ``--public-key`` or ``--trust`` (``None`` when neither is given);
    both at once is a usage error."""
    from ..auditor.verdict.trust import TrustAnchor, load_trust_file

    if public_key and trust_file:
        raise click.UsageError("give --public-key or --trust, not both")
    return load_trust_file(trust_file) if trust_file else TrustAnchor(public_key, "pinned") if public_key else None
