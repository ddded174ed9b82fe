"""The public JSON API, ``/api/v1`` (described in ``/openapi.json``, see :mod:`web.openapi`).

Reads (anyone): hands (list with filters and paging, one hand), a finished hand's
published record and its audit verdict, a hand's signed statements, tables with their HT
balances, operators and their public keys.  The transparency log's checkpoint and proofs
are under ``/api/v1/log`` (:mod:`web.log_api`); one hand's inclusion proofs, at one signed
checkpoint, at ``/api/v1/hands/<id>/log-proofs``.

Writes (a seat's own token, rate limited per token after authentication, :mod:`web.limits`): a seat submits its seed commitment and later
its seed, and gets the operator's signed receipt back.

Nothing here ever returns an unrevealed server seed: hands come from the ledger's public
views, records from :func:`audit.operator.publish.published_record`.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from audit.errors import NotFoundError
from audit.operator.ledger import HandState

from . import data
from .auth import require_seat
from .limits import seat_write
from .db import get_ledger
from .errors import ApiError
from .log_api import base_origin
from .params import query_int

bp = Blueprint("api", __name__, url_prefix="/api/v1")

MAX_PAGE = 200


def int_arg(name: str, default: int, *, lo: int = 0, hi: int | None = None) -> int:
    """A query parameter as a bounded whole number (:func:`web.params.query_int`)."""
    return query_int(name, default, lo=lo, **({} if hi is None else {"hi": hi}))


def json_body(*, optional: bool = False) -> dict[str, Any]:
    """The request's JSON object (400 ``malformed`` for anything else; 413 when too large).

    ``optional``: an empty body reads as ``{}``.
    """
    if optional and not request.get_data(cache=True):
        return {}
    try:
        body = request.get_json(silent=True, force=True)
    except RecursionError:  # JSON nested deeper than the interpreter's recursion limit
        raise ApiError(400, "malformed", "the request body is nested too deeply") from None
    if not isinstance(body, dict):
        raise ApiError(400, "malformed", "the request body must be a JSON object")
    return body


@bp.get("/hands")
def list_hands():
    """Hands, newest first; filters ``table_id``, ``state``, ``preset``; ``limit``/``offset`` paging."""
    ledger = get_ledger()
    state = request.args.get("state")
    if state is not None and state not in {s.value for s in HandState}:
        raise ApiError(400, "bad_request", f"state must be one of {', '.join(s.value for s in HandState)}")
    preset = request.args.get("preset")
    table_id = request.args.get("table_id")
    limit = int_arg("limit", 50, lo=1, hi=MAX_PAGE)
    offset = int_arg("offset", 0)
    page, total = ledger.hand_page(table_id=table_id, preset=preset, state=state, limit=limit, offset=offset)
    more = offset + limit < total
    return jsonify({"hands": [data.hand_json(v) for v in page], "total": total, "offset": offset,
                    "limit": limit, "next_offset": offset + limit if more else None})


@bp.get("/hands/<hand_id>")
def get_hand(hand_id: str):
    return jsonify(data.hand_json(get_ledger().get_hand(hand_id)))


def _record(hand_id: str) -> dict[str, Any]:
    record = data.record_of(get_ledger(), hand_id)
    if record is None:
        raise NotFoundError(f"hand {hand_id!r} has no record yet: it is published when the hand is finished")
    return record


@bp.get("/hands/<hand_id>/record")
def get_record(hand_id: str):
    """The published record (``tiplu.hand/3``); the server seed is ``null`` until revealed."""
    return jsonify(_record(hand_id))


@bp.get("/hands/<hand_id>/verdict")
@bp.post("/hands/<hand_id>/verdict")
def get_verdict(hand_id: str):
    """The audit verdict of the published record (``not_revealed`` until the reveal), with
    ``worked``: the recomputed settlement term by term (:mod:`replay.worked`), or null, and
    ``timing`` (``whole-log``: judged against the ledger).  ``POST {"policy": TEXT}``: under
    the caller's pinned C2SP tlog-policy too (:mod:`audit.tlog.policy`): a checkpoint without its
    witness quorum fails ``witness_quorum``; a policy that does not parse is a 400."""
    ledger = get_ledger()
    record = _record(hand_id)
    policy = None
    if request.method == "POST":
        from audit.tlog.policy import PolicyError, parse_policy

        body = request.get_json(silent=True)
        text = body.get("policy") if isinstance(body, dict) else None
        if not isinstance(text, str):
            raise ApiError(400, "bad_request", 'the body is {"policy": "<a C2SP tlog-policy text>"}')
        try:
            policy = parse_policy(text, name="the policy you sent")
        except PolicyError as exc:
            raise ApiError(400, "bad_request", str(exc)) from None
    verdict = data.verdict_for(ledger, ledger.get_hand(hand_id), record, policy=policy)
    replay = verdict.replay
    # the settlement the audit recomputed, term by term (replay.worked) -- never the operator's claim
    worked = replay.worked if replay is not None else None
    return jsonify({**verdict.to_json(), "worked": worked})


@bp.get("/hands/<hand_id>/statements")
def get_statements(hand_id: str):
    """Every signed statement of the hand, in log order."""
    ledger = get_ledger()
    view = ledger.get_hand(hand_id)
    # n: the statement's number in the hand, from 1 -- the numbering of every page and fault
    return jsonify({"hand_id": view.id, "statements": [{"n": n, **s.to_json()}
                                                       for n, s in enumerate(ledger.statements(view.id), start=1)]})


@bp.get("/hands/<hand_id>/move-receipts")
def get_move_receipts(hand_id: str):
    """The move receipts of moves ``since + 1 …`` (``?since=N``, at most 1000): heads of the
    hand's move chain, signed again from the ledger -- the very receipts that were given."""
    ledger = get_ledger()
    view = ledger.get_hand(hand_id)
    since = int_arg("since", 0, lo=0)
    return jsonify({"hand_id": view.id, "receipts": ledger.move_receipts(view.id, since=since)})


@bp.get("/hands/<hand_id>/log-proofs")
def get_log_proofs(hand_id: str):
    """The proofs that the hand's statements are in the transparency log.

    ``{"hand_id", "checkpoint", "size", "root", "time", "public_key"?, "statements": [{"n",
    "kind", "index", "leaf_hash", "path"}]}``: the log's signed checkpoint of its current size
    (signed now if the log grew, exactly as ``/api/v1/log/checkpoint``) and, for each statement
    of the hand in ledger order (``n`` = 1, 2, ...), its log index (``seq - 1``), the log's
    leaf hash and its inclusion proof at the checkpoint's size.  A verifier recomputes each
    leaf hash from the statement it holds; the served ``leaf_hash`` only helps find the proof.
    """
    from .log_api import checkpoint_json, current_checkpoint

    ledger = get_ledger()
    view = ledger.get_hand(hand_id)
    statements = list(ledger.statements(view.id))  # before the checkpoint: it covers them all
    log = ledger.transparency_log()
    cp = current_checkpoint(log, view.operator)  # the hand's own operator's log, never another's
    proofs = []
    for n, s in enumerate(statements, start=1):
        index = s.seq - 1  # leaf i is the i-th statement in seq order (seq counts from 1)
        proofs.append({"n": n, "kind": s.kind, "index": index,
                       "leaf_hash": log.leaf_hash(index).hex(),
                       "path": [h.hex() for h in log.inclusion_proof(index, cp.size)]})
    return jsonify({"hand_id": view.id, **checkpoint_json(cp, log), "statements": proofs})


@bp.get("/tables")
def list_tables():
    ledger = get_ledger()
    return jsonify({"tables": [t.to_json() for t in ledger.tables()]})


@bp.get("/tables/<table_id>")
def get_table(table_id: str):
    """A table, its hands in order, HT balances and commission from the recomputed settlements."""
    return jsonify(data.table_money(get_ledger(), table_id))


@bp.get("/operators")
def list_operators():
    return jsonify({"operators": [_operator_json(op) for op in get_ledger().operators()]})


def _operator_json(op: Any) -> dict[str, Any]:
    return {"name": op.name, "public_key": op.public_key, "key_id": op.key_id, "created_at": op.created_at}


@bp.get("/operators/<name>")
def get_operator(name: str):
    """An operator's Ed25519 public key: all anyone needs to check its statements."""
    return jsonify(_operator_json(get_ledger().operator(name)))


# -- a seat's own writes ---------------------------------------------------------------

def _receipt(signed: dict[str, Any], hand_id: str) -> dict[str, Any]:
    """The player's receipt (:mod:`audit.operator.receipts`): the signed statement plus its inclusion
    proof at a checkpoint signed now by the operator's key."""

    ledger = get_ledger()
    key = ledger.signing_key(ledger.get_hand(hand_id).operator)
    return ledger.receipt(signed, key=key, origin=base_origin())


@bp.post("/hands/<hand_id>/seats/<seat:seat>/commit")
@seat_write
def seat_commit(hand_id: str, seat: int):
    """A seat's seed commitment ``{"commitment": hex}``; returns the player's receipt for the
    signed ``seat-receipt`` (with its inclusion proof in the transparency log)."""
    require_seat(hand_id, seat)
    body = json_body()
    signed = get_ledger().seed_commit(hand_id, seat, body.get("commitment"))  # type: ignore[arg-type]  # untrusted: the ledger checks it
    return jsonify({"receipt": _receipt(signed, hand_id)}), 201


@bp.post("/hands/<hand_id>/seats/<seat:seat>/reveal")
@seat_write
def seat_reveal(hand_id: str, seat: int):
    """A seat's seed ``{"seed": hex}`` once every seat has committed; the receipt for the
    signed ``seat-reveal``."""
    require_seat(hand_id, seat)
    body = json_body()
    signed = get_ledger().seed_reveal(hand_id, seat, body.get("seed"))  # type: ignore[arg-type]  # untrusted: the ledger checks it
    return jsonify({"receipt": _receipt(signed, hand_id)}), 201
