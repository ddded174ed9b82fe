"""Who may write: bearer tokens (:mod:`audit.operator.tokens`), and the write rate limits.

The auth model (``docs/web.md``):

* no ``Authorization: Bearer ...`` header, or a token that is unknown, wrong or revoked
  -> 401 ``unauthorized``;
* an operator token acts only for its operator: its tables and hands (403 ``forbidden``
  otherwise); a seat token on an operator route -> 403;
* a seat token acts only on its own hand and seat (403 otherwise); an operator token on a
  seat route -> 403 too: a seat's seed is the player's, not the house's.

A request is authenticated once (:func:`current_principal`, kept in ``g``); the rate limits
of :mod:`web.limits` key on its result, so a client without a valid token never spends a
player's allowance.
"""
from __future__ import annotations

from flask import g, request

from audit.errors import AuthError
from audit.operator.tokens import Principal

from .db import get_ledger
from .errors import ApiError


def bearer_token() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AuthError("this route needs 'Authorization: Bearer <token>'")
    return token.strip()


def current_principal() -> Principal:
    """The request's principal (authenticated once per request); :class:`AuthError` (401) if none."""
    if "tiplu_principal" not in g:
        try:
            g.tiplu_principal = get_ledger().authenticate(bearer_token())
        except AuthError as exc:
            g.tiplu_principal = exc
    if isinstance(g.tiplu_principal, AuthError):
        raise g.tiplu_principal
    principal: Principal = g.tiplu_principal
    return principal


def principal_or_none() -> Principal | None:
    """The request's principal, or ``None`` when its token is missing or not valid."""
    try:
        return current_principal()
    except AuthError:
        return None


def require_operator(operator: str | None = None) -> Principal:
    """The operator token's principal; 403 for a seat token or another operator's resource."""
    who = current_principal()
    if not who.is_operator:
        raise ApiError(403, "forbidden", "a seat token cannot use the operator API")
    if operator is not None and who.operator != operator:
        raise ApiError(403, "forbidden", "this token's operator does not own that resource")
    return who


def require_seat(hand_id: str, seat: int) -> Principal:
    """The seat token's principal for exactly this hand and seat; 403 for anything else."""
    who = current_principal()
    if who.is_operator:
        raise ApiError(403, "forbidden", "a seat's seed is submitted with that seat's own token")
    if who.hand_id != hand_id or who.seat != seat:
        raise ApiError(403, "forbidden", "this token acts only for its own hand and seat")
    return who
