"""Whose log is which: one signed log per operator of a ledger.  The one place that says it.

A ledger can hold several operators.  Each operator has **its own log**: the origin
:func:`operator_origin` names it, and only that operator's key signs its checkpoints.  So a
record's checkpoint is always signed by its own operator's key, and a served checkpoint
never names one key beside another's signature (``docs/transparency-log.md``, "One log per
operator").

The Merkle tree under every operator's log is the ledger's one tree (leaf ``i`` is the
ledger's ``i``-th statement): an operator's log is that tree as that operator signs it.
What the operators sign apart is the *checkpoint*, so each has its own origin, its own
checkpoints, its own witnesses' view (a witness keys its state by origin).

Addresses (every route and client asks these functions, never spells them):

* the origin of operator ``X``'s log: ``<base origin>/X`` (the site's ``TIPLU_LOG_ORIGIN``
  is the base; :func:`operator_origin`);
* the JSON checkpoint: ``GET /api/v1/log/checkpoint?operator=X`` (:func:`checkpoint_api`);
  without ``operator``, the log of the operator whose key is the site's log key;
* C2SP ``tlog-tiles`` resources of that log under :func:`tiles_prefix` (``/log/X/``:
  ``checkpoint``, ``tile/...``, ``tile/entries/...``).
"""
from __future__ import annotations

import re
from urllib.parse import quote

from replay.errors import MalformedError

#: the query parameter naming an operator's log on the log API
OPERATOR_PARAM = "operator"

#: an operator name, as the ledger allows it (``audit.ledger.inputs.check_id``)
_OPERATOR_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")


def check_id(text: object, *, what: str) -> str:
    if not isinstance(text, str) or not _OPERATOR_RE.fullmatch(text):
        raise MalformedError(f"{what} must be 1-64 characters of A-Z a-z 0-9 . _ : - (starting with a letter or digit)")
    return text


def operator_origin(base: str, operator: str) -> str:
    """The origin (checkpoint line 1, and its signature's key name) of ``operator``'s log."""
    check_id(operator, what="operator name")
    base = base.rstrip("/")
    if not base or any(c.isspace() or c in "+\u2014" for c in base):
        raise MalformedError(f"a log origin base is a non-empty name without spaces, '+' or '\u2014': {base!r}")
    return f"{base}/{operator}"


def checkpoint_api(operator: str | None = None) -> str:
    """The path of the JSON checkpoint of ``operator``'s log (the site's own log without one)."""
    path = "/api/v1/log/checkpoint"
    return path if operator is None else f"{path}?{OPERATOR_PARAM}={quote(check_id(operator, what='operator name'), safe='')}"


def tiles_prefix(operator: str) -> str:
    """The URL prefix of ``operator``'s log as C2SP ``tlog-tiles`` static resources."""
    return f"/log/{quote(check_id(operator, what='operator name'), safe='')}/"
