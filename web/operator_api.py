"""The operator API, ``/api/v1/operator``: a hand's whole lifecycle over HTTP.

Every route needs an operator token (``Authorization: Bearer tpl_...``, issued by
``tiplu token new --operator NAME``) and acts only on that operator's tables and hands.
Each write is one ledger verb and answers with the signed statement it appended:

==========================================  =========================================
``POST /tables``                            new table ``{table_id, preset, overrides?, seats?, point_value?, commission_pct?}``
``POST /hands``                             new hand ``{table_id, players, dealer?, hand_id?}``
``POST /hands/<id>/commit``                 the server-seed commitment (R-21)
``POST /hands/<id>/seats/<n>/token``        a new seat token for that seat's player
``POST /hands/<id>/deal``                   close the shuffle's inputs (every seed in)
``POST /hands/<id>/finish``                 attach the record ``{moves}`` or ``{record}`` (checked)
``POST /hands/<id>/reveal``                 reveal the server seed (R-22), then publish the record
``POST /hands/<id>/publish``                publish a revealed hand's record (if its publication was lost)
``POST /hands/<id>/cancel``                 cancel before the deal ``{reason?}``
``GET  /whoami``                            the token's principal
==========================================  =========================================
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from . import data
from .api import json_body
from .auth import require_operator
from .limits import token_route
from .db import get_ledger
from .errors import ApiError
from .log_api import base_origin
from .params import body_id

bp = Blueprint("operator_api", __name__, url_prefix="/api/v1/operator")


def _own_hand(hand_id: str) -> Any:
    """The hand, after checking the token's operator owns it (403 otherwise)."""
    who = require_operator()
    view = get_ledger().get_hand(hand_id)
    if view.operator != who.operator:
        raise ApiError(403, "forbidden", "this token's operator does not own that hand")
    return view


def _signed(statement: dict[str, Any], hand_id: str, status: int = 200):
    return jsonify({"statement": statement, "hand": data.hand_json(get_ledger().get_hand(hand_id))}), status


@bp.get("/whoami")
@token_route
def whoami():
    return jsonify(require_operator().to_json())


@bp.post("/tables")
@token_route
def new_table():
    who = require_operator()
    body = json_body()
    kwargs = {k: body[k] for k in ("overrides", "seats", "point_value", "commission_pct") if k in body}
    for k in ("point_value", "commission_pct"):
        if k in kwargs and not isinstance(kwargs[k], str):
            raise ApiError(400, "malformed", f"{k} is a decimal string such as \"0.25\"")
    # the values are untrusted: the ledger checks each one (a typed error, a 400)
    table = get_ledger().new_table(body.get("table_id"), operator=who.operator, preset=body.get("preset"), **kwargs)  # type: ignore[arg-type]  # untrusted: the ledger checks it
    return jsonify(table.to_json()), 201


@bp.post("/hands")
@token_route
def new_hand():
    who = require_operator()
    body = json_body()
    ledger = get_ledger()
    table = ledger.table(body_id(body, "table_id", what="table id"))
    if table.operator != who.operator:
        raise ApiError(403, "forbidden", "this token's operator does not own that table")
    signed = ledger.new_hand(table.id, body.get("players"), dealer=body.get("dealer", 0), hand_id=body.get("hand_id"))  # type: ignore[arg-type]  # untrusted: the ledger checks it
    return _signed(signed, signed["statement"]["hand_id"], 201)


@bp.post("/hands/<hand_id>/commit")
@token_route
def commit(hand_id: str):
    view = _own_hand(hand_id)
    return _signed(get_ledger().commit(view.id), view.id)


@bp.post("/hands/<hand_id>/seats/<seat:seat>/token")
@token_route
def seat_token(hand_id: str, seat: int):
    """A token for one seat's player (shown once; stored hashed)."""
    view = _own_hand(hand_id)
    who, token = get_ledger().issue_seat_token(view.id, seat)
    return jsonify({**who.to_json(), "token": token}), 201


@bp.post("/hands/<hand_id>/deal")
@token_route
def deal(hand_id: str):
    view = _own_hand(hand_id)
    return _signed(get_ledger().deal(view.id), view.id)


@bp.post("/hands/<hand_id>/finish")
@token_route
def finish(hand_id: str):
    """Attach the record: ``{"moves": [...]}`` (the outcome and settlement computed from their
    replay) or ``{"record": {...}}`` (checked against the ledger and the replay, key for key);
    a record the audit would refuse is refused here, 400 ``malformed``, nothing stored."""
    view = _own_hand(hand_id)
    body = json_body()
    record, moves, played = body.get("record"), body.get("moves"), body.get("played")
    if ("record" in body) + ("moves" in body) + ("played" in body) != 1 \
            or (record is not None and not isinstance(record, dict)) \
            or (moves is not None and not isinstance(moves, list)) or ("played" in body and played is not True):
        raise ApiError(400, "malformed", "finish needs {\"moves\": [<move>, ...]}, {\"record\": <the hand record>} "
                                         "or {\"played\": true} (the moves played one by one)")
    return _signed(get_ledger().finish_checked(view.id, record=record, moves=moves, played=played is True), view.id)


@bp.post("/hands/<hand_id>/moves")
@token_route
def play_move(hand_id: str):
    """One move of a dealt hand ``{"move": {...}}``: appended to the hand's move chain; the
    signed move receipt (not a log leaf) for the game server to hand to every seat."""
    view = _own_hand(hand_id)
    move = json_body().get("move")
    if not isinstance(move, dict):
        raise ApiError(400, "malformed", "a move is {\"move\": <the move as the record will list it>}")
    return jsonify({"receipt": get_ledger().play_move(view.id, move)}), 201


@bp.post("/hands/<hand_id>/reveal")
@token_route
def reveal(hand_id: str):
    """Reveal, then publish: an audit of the ledger reports a revealed hand left unpublished."""
    view = _own_hand(hand_id)
    signed, _ = get_ledger().reveal_and_publish(view.id, origin=base_origin())
    return _signed(signed, view.id)


@bp.post("/hands/<hand_id>/publish")
@token_route
def publish(hand_id: str):
    """Publish the record of a revealed hand whose publication was lost (409 if published)."""
    view = _own_hand(hand_id)
    get_ledger().publish(view.id, origin=base_origin())
    return jsonify({"hand": data.hand_json(get_ledger().get_hand(view.id))}), 201


@bp.post("/hands/<hand_id>/cancel")
@token_route
def cancel(hand_id: str):
    view = _own_hand(hand_id)
    body = json_body(optional=True)
    kwargs = {"reason": body["reason"]} if "reason" in body else {}
    return _signed(get_ledger().cancel(view.id, **kwargs), view.id)
