"""``/openapi.json``: the OpenAPI 3.1 description of every ``/api`` route, written as data.

:data:`PATHS` describes the public API and the operator API; :data:`LOG_PATHS` the
transparency log's routes (served only when :mod:`web.log_api` is registered).
``tests/web/test_web_openapi.py`` checks that every registered ``/api`` route is described
here and that every path described here is registered.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify

from replay.settlement import COMMISSION_PCT_PATTERN, POINT_VALUE_PATTERN

bp = Blueprint("openapi", __name__)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _err(*codes: int) -> dict[str, Any]:
    text = {400: "Malformed request", 401: "No or invalid token", 403: "Token not allowed here",
            404: "Not found", 409: "Not allowed in the hand's current state", 413: "Body too large",
            422: "Does not match (commitment, signature)", 429: "Rate limited",
            503: "Not configured, misconfigured (no ledger, an unusable secret store), or busy (every read slot taken)"}
    return {str(c): {"description": text[c], "content": {"application/json": {"schema": _ref("Error")}}}
            for c in codes}


def _param(name: str, where: str = "path", schema: dict[str, Any] | None = None, description: str = "",
           required: bool | None = None) -> dict[str, Any]:
    return {"name": name, "in": where, "required": where == "path" if required is None else required,
            "schema": schema or {"type": "string"}, **({"description": description} if description else {})}


HAND_ID = _param("hand_id", description="the hand id")
SEAT = _param("seat", schema={"type": "integer", "minimum": 0, "maximum": 63}, description="seat number, 0 = first seat")
OPERATOR_AUTH: list[dict[str, list[str]]] = [{"operatorToken": []}]
SEAT_AUTH: list[dict[str, list[str]]] = [{"seatToken": []}]


def _body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def _op_write(summary: str, *, body: dict[str, Any] | None = None, status: str = "200") -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "tags": ["operator"], "security": OPERATOR_AUTH,
                          "parameters": [HAND_ID],
                          "responses": {status: _json(_ref("SignedStep")), **_err(400, 401, 403, 404, 409, 413, 422)}}
    if body is not None:
        op["requestBody"] = _body(body, required=not body.get("x-optional", False))
    return op


PATHS: dict[str, dict[str, Any]] = {
    "/api/v1/hands": {"get": {
        "summary": "Hands, newest first", "tags": ["public"],
        "parameters": [_param("table_id", "query"), _param("preset", "query"),
                       _param("state", "query", {"type": "string", "enum": [
                           "created", "committed", "seeds-committed", "seeds-revealed", "dealt", "finished",
                           "revealed", "cancelled"]}),
                       _param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}),
                       _param("offset", "query", {"type": "integer", "minimum": 0, "default": 0})],
        "responses": {"200": _json({"type": "object", "properties": {
            "hands": {"type": "array", "items": _ref("Hand")}, "total": {"type": "integer"},
            "offset": {"type": "integer"}, "limit": {"type": "integer"},
            "next_offset": {"type": ["integer", "null"]}}}), **_err(400)}}},
    "/api/v1/hands/{hand_id}": {"get": {
        "summary": "One hand's public view (server_seed is null until revealed)", "tags": ["public"],
        "parameters": [HAND_ID], "responses": {"200": _json(_ref("Hand")), **_err(400, 404)}}},
    "/api/v1/hands/{hand_id}/record": {"get": {
        "summary": "The published hand record (tiplu.hand/3); 404 until the hand is finished", "tags": ["public"],
        "parameters": [HAND_ID],
        "responses": {"200": _json({"type": "object", "description": "docs/records.md"}), **_err(400, 404)}}},
    "/api/v1/hands/{hand_id}/verdict": {"get": {
        "summary": "The audit verdict of the published record", "tags": ["public"], "parameters": [HAND_ID],
        "description": "Judged against the operator's whole log: `timing.status` is `whole-log`.",
        "responses": {"200": _json(_ref("Verdict")), **_err(400, 404)}},
        "post": {
        "summary": "The audit verdict of the published record under your pinned C2SP tlog-policy",
        "description": "Body {\"policy\": <the policy's text>}: as GET, and a record whose checkpoint lacks the "
                       "policy's witness quorum fails with witness_quorum; `timing.witnesses` lists the cosignatures "
                       "that counted. A policy that does not parse is a 400 naming its line.",
        "tags": ["public"], "parameters": [HAND_ID],
        "requestBody": _body({"type": "object", "properties": {"policy": {"type": "string", "maxLength": 65536}},
                              "required": ["policy"]}),
        "responses": {"200": _json(_ref("Verdict")), **_err(400, 404, 413)}}},
    "/api/v1/hands/{hand_id}/statements": {"get": {
        "summary": "Every signed statement of the hand, in log order", "tags": ["public"], "parameters": [HAND_ID],
        "responses": {"200": _json({"type": "object", "properties": {
            "hand_id": {"type": "string"}, "statements": {"type": "array", "items": _ref("StoredStatement")}}}),
            **_err(400, 404)}}},
    "/api/v1/hands/{hand_id}/log-proofs": {"get": {
        "summary": "The log's signed checkpoint and each of the hand's statements' inclusion proof at its size",
        "description": "Signs a new checkpoint first if the log grew (as /api/v1/log/checkpoint). A verifier "
                       "recomputes each leaf hash from the statement it holds; see docs/transparency-log.md.",
        "tags": ["public", "log"], "parameters": [HAND_ID],
        "responses": {"200": _json(_ref("LogProofs")), **_err(400, 404, 503)}}},
    "/api/v1/hands/{hand_id}/move-receipts": {"get": {
        "summary": "The move receipts of the hand's moves after `since` (at most 1000), signed again from the "
                   "stored heads: the very receipts that were given. Heads only: no move is in them",
        "tags": ["public"], "parameters": [HAND_ID, _param("since", "query", {"type": "integer", "minimum": 0},
                                                             "receipts of moves after this many (default 0)",
                                                             required=False)],
        "responses": {"200": _json({"type": "object", "properties": {
            "hand_id": {"type": "string"}, "receipts": {"type": "array", "items": _ref("MoveReceipt")}}}),
            **_err(400, 404)}}},
    "/api/v1/hands/{hand_id}/seats/{seat}/commit": {"post": {
        "summary": "A seat submits its seed commitment; returns the signed seat-receipt", "tags": ["seat"],
        "security": SEAT_AUTH, "parameters": [HAND_ID, SEAT],
        "requestBody": _body({"type": "object", "required": ["commitment"],
                              "properties": {"commitment": {"type": "string", "pattern": "^[0-9a-f]{64}$"}}}),
        "responses": {"201": _json({"type": "object", "properties": {"receipt": _ref("Receipt")}}),
                      **_err(400, 401, 403, 404, 409, 413, 429)}}},
    "/api/v1/hands/{hand_id}/seats/{seat}/reveal": {"post": {
        "summary": "A seat reveals its seed (after every seat committed); returns the signed seat-reveal",
        "tags": ["seat"], "security": SEAT_AUTH, "parameters": [HAND_ID, SEAT],
        "requestBody": _body({"type": "object", "required": ["seed"],
                              "properties": {"seed": {"type": "string", "pattern": "^([0-9a-f]{2}){16,64}$"}}}),
        "responses": {"201": _json({"type": "object", "properties": {"receipt": _ref("Receipt")}}),
                      **_err(400, 401, 403, 404, 409, 413, 422, 429)}}},
    "/api/v1/tables": {"get": {
        "summary": "Every table", "tags": ["public"],
        "responses": {"200": _json({"type": "object", "properties": {
            "tables": {"type": "array", "items": _ref("Table")}}})}}},
    "/api/v1/tables/{table_id}": {"get": {
        "summary": "A table: its hands in order, HT balances and commission from the recomputed settlements",
        "tags": ["public"], "parameters": [_param("table_id")],
        "responses": {"200": _json(_ref("TableMoney")), **_err(400, 404)}}},
    "/api/v1/operators": {"get": {
        "summary": "Every operator and its public key", "tags": ["public"],
        "responses": {"200": _json({"type": "object", "properties": {
            "operators": {"type": "array", "items": _ref("Operator")}}})}}},
    "/api/v1/operators/{name}": {"get": {
        "summary": "An operator's Ed25519 public key", "tags": ["public"], "parameters": [_param("name")],
        "responses": {"200": _json(_ref("Operator")), **_err(400, 404)}}},
    "/api/v1/stats": {"get": {
        "summary": "Deal statistics of every audit-passing published hand (docs/stats.md)", "tags": ["public"],
        "responses": {"200": _json({"type": "object", "required": ["format", "hands", "considered", "games"],
                                    "properties": {"format": {"const": "tiplu.stats/1"},
                                                   "hands": {"type": "integer"}, "considered": {"type": "integer"},
                                                   "excluded": {"type": "object"},
                                                   "games": {"type": "array", "items": {"type": "object"}}}}),
                      "503": {"description": "Still being computed (every published record is audited first); "
                                             "retry in a few seconds",
                              "content": {"application/json": {"schema": _ref("Error")}}}}}},
    "/api/v1/collusion": {"get": {
        "summary": "The superuser and collusion review of every audit-passing published hand (docs/collusion.md): "
                   "per account and signal a one-sided test, flags at a 1 % false discovery rate, the pair graph",
        "tags": ["public"],
        "responses": {"200": _json({"type": "object", "required": ["hands", "alpha", "flags", "accounts", "pairs"],
                                    "properties": {"hands": {"type": "integer"}, "alpha": {"type": "number"},
                                                   "min_decisions": {"type": "integer"},
                                                   "meaning": {"type": "string"},
                                                   "flags": {"type": "array", "items": {"type": "object"}},
                                                   "accounts": {"type": "array", "items": {"type": "object"}},
                                                   "pairs": {"type": "array", "items": {"type": "object"}},
                                                   "groups": {"type": "array"}}}),
                      "503": {"description": "Still being computed (every published record is audited first); "
                                             "retry in a few seconds",
                              "content": {"application/json": {"schema": _ref("Error")}}}}}},
    "/api/v1/operator/whoami": {"get": {
        "summary": "The operator token's principal", "tags": ["operator"], "security": OPERATOR_AUTH,
        "responses": {"200": _json(_ref("Principal")), **_err(401, 403)}}},
    "/api/v1/operator/tables": {"post": {
        "summary": "New table", "tags": ["operator"], "security": OPERATOR_AUTH,
        "requestBody": _body({"type": "object", "required": ["table_id", "preset"], "properties": {
            "table_id": {"type": "string"}, "preset": {"type": "string"}, "overrides": {"type": "object"},
            "seats": {"type": "integer"},
            "point_value": {"type": "string", "examples": ["0.25"], "pattern": POINT_VALUE_PATTERN,
                            "description": "HT per point: an amount more than 0 (docs/records.md, Table money)"},
            "commission_pct": {"type": "string", "examples": ["5"], "pattern": COMMISSION_PCT_PATTERN,
                               "description": "Percent of each winner's gain: at least 0 and less than 100"}}}),
        "responses": {"201": _json(_ref("Table")), **_err(400, 401, 403, 404, 409, 413)}}},
    "/api/v1/operator/hands": {"post": {
        "summary": "New hand at one of the operator's tables; returns the signed hand statement",
        "tags": ["operator"], "security": OPERATOR_AUTH,
        "requestBody": _body({"type": "object", "required": ["table_id", "players"], "properties": {
            "table_id": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}},
            "dealer": {"type": "integer", "minimum": 0}, "hand_id": {"type": "string"}}}),
        "responses": {"201": _json(_ref("SignedStep")), **_err(400, 401, 403, 404, 409, 413)}}},
    "/api/v1/operator/hands/{hand_id}/commit": {"post": _op_write("Commit to a fresh server seed (R-21)")},
    "/api/v1/operator/hands/{hand_id}/seats/{seat}/token": {"post": {
        "summary": "A new token for one seat's player (shown once, stored hashed)", "tags": ["operator"],
        "security": OPERATOR_AUTH, "parameters": [HAND_ID, SEAT],
        "responses": {"201": _json({"allOf": [_ref("Principal"), {"type": "object", "properties": {
            "token": {"type": "string"}}}]}), **_err(400, 401, 403, 404)}}},
    "/api/v1/operator/hands/{hand_id}/deal": {"post": _op_write("Deal: every seed is in")},
    "/api/v1/operator/hands/{hand_id}/finish": {"post": _op_write(
        "Attach the hand record: its moves (outcome and settlement computed from their replay) or the whole "
        "record (checked against the ledger and the replay; 400 malformed, nothing stored, if the audit would "
        "refuse it)",
        body={"type": "object", "oneOf": [{"required": ["moves"]}, {"required": ["record"]}, {"required": ["played"]}],
              "properties": {"moves": {"type": "array", "items": {"type": "object"}},
                             "record": {"type": "object"},
                             "played": {"const": True, "description": "the moves played one by one (POST .../moves)"}}})},
    "/api/v1/operator/hands/{hand_id}/moves": {"post": {
        "summary": "Play a move of a dealt hand: appended to its move chain; returns the signed move receipt "
                   "(tiplu.move-receipt/1, not a log leaf) to hand to every seat", "tags": ["operator"],
        "security": OPERATOR_AUTH, "parameters": [HAND_ID],
        "requestBody": _body({"type": "object", "required": ["move"], "properties": {"move": {
            "type": "object", "required": ["type", "seat"],
            "description": "the move as the record will list it; 'time' is added when absent"}}}),
        "responses": {"201": _json({"type": "object", "properties": {"receipt": _ref("MoveReceipt")}}),
                      **_err(400, 401, 403, 404, 409, 413)}}},
    "/api/v1/operator/hands/{hand_id}/reveal": {"post": _op_write(
        "Reveal the server seed (R-22), then publish the hand's record")},
    "/api/v1/operator/hands/{hand_id}/publish": {"post": {
        "summary": "Publish a revealed hand's record whose publication was lost", "tags": ["operator"],
        "security": OPERATOR_AUTH, "parameters": [HAND_ID],
        "responses": {"201": _json({"type": "object", "properties": {"hand": _ref("Hand")}}),
                      **_err(401, 403, 404, 409)}}},
    "/api/v1/operator/hands/{hand_id}/cancel": {"post": _op_write(
        "Cancel before the deal", body={"type": "object", "x-optional": True,
                                        "properties": {"reason": {"type": "string", "maxLength": 200}}})},
}

#: a checkpoint's issue time in the JSON beside it (the signed text has none since format 3)
_ISSUED = {"type": ["string", "null"], "description": "when this server signed the checkpoint, as its ledger noted it beside the checkpoint: NOT in the signed body (a checkpoint is origin, size and root only), so it proves nothing; witnesses' cosignature timestamps do"}

LOG_PATHS: dict[str, dict[str, Any]] = {
    "/api/v1/log/checkpoint": {"get": {
        "summary": "The transparency log's latest signed checkpoint", "tags": ["log"],
        "description": "With witnesses configured (TIPLU_WITNESSES) the checkpoint text carries their "
                       "cosignature lines (C2SP cosignature/v1) and `witnesses` / `witnesses_missing` say who cosigned.",
        "responses": {"200": _json({"type": "object", "properties": {
            "checkpoint": {"type": "string"}, "size": {"type": "integer"}, "root": {"type": "string"},
            "time": _ISSUED, "public_key": {"type": "string"},
            "witnesses": {"type": "array", "items": _ref("WitnessStatus")},
            "witnesses_missing": {"type": "array", "items": {"type": "string"}}}}), **_err(503)}}},
    "/api/v1/log/policy": {"get": {
        "summary": "The operator's own C2SP tlog-policy (text/plain): its logs, its witnesses, a quorum of any",
        "description": "What the operator says about itself. An auditor pins its own policy (--policy FILE, the "
                       "paste box of /verify); no audit reads this one. See docs/transparency-log.md.",
        "tags": ["log"],
        "responses": {"200": {"description": "OK", "content": {"text/plain": {"schema": {"type": "string"}}}},
                      **_err(503)}}},
    "/api/v1/log/entries": {"get": {
        "summary": "Log entries start <= index < end (at most 256)", "tags": ["log"],
        "parameters": [_param("start", "query", {"type": "integer"}, required=True),
                       _param("end", "query", {"type": "integer"})],
        "responses": {"200": _json({"type": "object"}), **_err(400, 404)}}},
    "/api/v1/log/proof/inclusion": {"get": {
        "summary": "Inclusion proof of one entry", "tags": ["log"],
        "parameters": [_param("index", "query", {"type": "integer"}, required=True),
                       _param("size", "query", {"type": "integer"})],
        "responses": {"200": _json({"type": "object"}), **_err(400, 404)}}},
    "/api/v1/log/proof/consistency": {"get": {
        "summary": "Consistency proof between two log sizes", "tags": ["log"],
        "parameters": [_param("first", "query", {"type": "integer"}, required=True),
                       _param("second", "query", {"type": "integer"})],
        "responses": {"200": _json({"type": "object"}), **_err(400, 404)}}},
}

_HEX = {"type": "string", "pattern": "^[0-9a-f]+$"}
_NHEX = {"type": ["string", "null"], "pattern": "^[0-9a-f]+$"}

COMPONENTS: dict[str, Any] = {
    "securitySchemes": {
        "operatorToken": {"type": "http", "scheme": "bearer",
                          "description": "An operator token: `tiplu token new --operator NAME`"},
        "seatToken": {"type": "http", "scheme": "bearer",
                      "description": "One seat's token: `tiplu token new --hand H --seat N`, or the operator API"},
    },
    "schemas": {
        "Error": {"type": "object", "required": ["error"], "properties": {"error": {
            "type": "object", "required": ["status", "code", "message"], "additionalProperties": False,
            "properties": {"status": {"type": "integer"}, "code": {"type": "string"},
                           "message": {"type": "string"}}}}},
        "Signed": {"type": "object", "required": ["statement", "key", "sig"], "properties": {
            "statement": {"type": "object"}, "key": _HEX, "sig": _HEX}},
        "Receipt": {"type": "object", "required": ["format", "hand_id", "statements", "log_proofs"], "properties": {
            "format": {"const": "tiplu.receipt/3"}, "hand_id": {"type": "string"}, "seat": {"type": "integer"},
            "statements": {"type": "array", "items": _ref("Signed"),
                           "description": "a seat receipt: the hand statement, the hand's commitment, then the "
                                          "seat-receipt (which binds the hand statement's hash)"},
            "log_proofs": {"type": "array", "items": {"type": "string"},
                           "description": "one C2SP tlog-proof (c2sp.org/tlog-proof@v1) per statement, "
                                          "all at one signed checkpoint"}}},
        "MoveReceipt": {"type": "object", "required": ["statement", "key", "sig"], "properties": {
            "statement": {"type": "object", "required": ["type", "hand_id", "n_moves", "head", "time"], "properties": {
                "type": {"const": "tiplu.move-receipt/1"}, "hand_id": {"type": "string"},
                "n_moves": {"type": "integer", "minimum": 1}, "head": _HEX, "time": {"type": "string"}}},
            "key": _HEX, "sig": _HEX}},
        "LogProofs": {"type": "object", "required": ["hand_id", "checkpoint", "size", "root", "time", "statements"],
                      "properties": {
            "hand_id": {"type": "string"}, "checkpoint": {"type": "string", "description": "signed note text"},
            "size": {"type": "integer"}, "root": _HEX, "time": _ISSUED,
            "public_key": {**_HEX, "description": "the checkpoint signer's key, when the server knows it"},
            "witnesses": {"type": "array", "items": _ref("WitnessStatus")},
            "witnesses_missing": {"type": "array", "items": {"type": "string"}},
            "statements": {"type": "array", "items": {"type": "object", "properties": {
                "n": {"type": "integer", "description": "1-based position among the hand's statements"},
                "kind": {"type": "string"}, "index": {"type": "integer", "description": "leaf index (seq - 1)"},
                "leaf_hash": _HEX, "path": {"type": "array", "items": _HEX}}}}}},
        "WitnessStatus": {"type": "object", "required": ["name", "vkey", "url", "cosigned", "reason"], "properties": {
            "name": {"type": "string"}, "vkey": {"type": "string", "description": "C2SP vkey, type 0x04"},
            "url": {"type": "string"}, "cosigned": {"type": "boolean"}, "reason": {"type": ["string", "null"]}}},
        "StoredStatement": {"allOf": [_ref("Signed"), {"type": "object", "properties": {
            "seq": {"type": "integer"}, "hand_id": {"type": "string"}, "kind": {"type": "string"},
            "n": {"type": "integer", "description": "the statement's number in its hand, from 1 (as faults name it)"}}}]},
        "Seat": {"type": "object", "properties": {"seat": {"type": "integer"}, "player": {"type": "string"},
                                                  "commitment": _NHEX, "seed": _NHEX}},
        "Hand": {"type": "object", "properties": {
            "hand_id": {"type": "string"}, "table_id": {"type": "string"}, "operator": {"type": "string"},
            "preset": {"type": "string"}, "ruleset_hash": _HEX, "dealer": {"type": "integer"},
            "state": {"type": "string"}, "seats": {"type": "array", "items": _ref("Seat")},
            "server_seed_commitment": _NHEX,
            "server_seed": {**_NHEX, "description": "null until the hand is revealed (or cancelled)"},
            "record_hash": _NHEX, "missing_seats": {"type": ["array", "null"]},
            "published": {"type": "boolean", "description": "whether the hand's record is published"},
            "created_at": {"type": "string"}, "links": {"type": "object"}}},
        "SignedStep": {"type": "object", "properties": {"statement": _ref("Signed"), "hand": _ref("Hand")}},
        "Verdict": {"type": "object", "properties": {
            "hand_id": {"type": ["string", "null"]}, "table_id": {"type": ["string", "null"]},
            "preset": {"type": ["string", "null"]}, "ok": {"type": "boolean"}, "reason": {"type": ["string", "null"]},
            "first_bad_move": {"type": ["integer", "null"], "description": "the first move a root cause names"},
            "timing": {"type": ["object", "null"], "description": "what proved the timing (docs/format-3.md): "
                       "status witnessed | whole-log | unproven, policy, witnesses [{name, timestamp}], message"},
            "worked": {"type": ["object", "null"], "description": "the verdict API only: the settlement the audit "
                       "recomputed, term by term (points: T + w − n·S for Marriage, the pot for Kitti, points for "
                       "Rummy; money: points × point value, commission on each gain)"},
            "root_causes": {"type": "integer", "description": "faults[:root_causes] are the root causes; the rest "
                                                              "are their consequences"},
            "faults": {"type": "array", "items": {
                "type": "object", "properties": {"reason": {"type": "string"}, "message": {"type": "string"},
                                                 "move_index": {"type": ["integer", "null"]},
                                                 "rule": {"type": ["string", "null"]},
                                                 "statement": {"type": ["integer", "null"],
                                                               "description": "the signed statement's number, from 1"},
                                                 "caused_by": {"type": ["integer", "null"],
                                                               "description": "index in faults of the root cause "
                                                                              "this follows from; null for a root cause"}}}}}},
        "Table": {"type": "object", "properties": {
            "id": {"type": "string"}, "operator": {"type": "string"}, "preset": {"type": "string"},
            "ruleset": {"type": "object"}, "ruleset_hash": _HEX, "seats": {"type": "integer"},
            "point_value": {"type": "string"}, "commission_pct": {"type": "string"}, "created_at": {"type": "string"}}},
        "TableMoney": {"type": "object", "properties": {
            "table": _ref("Table"), "hands": {"type": "array", "items": {"type": "object"}},
            "balances": {"type": "object", "additionalProperties": {"type": "string"}},
            "commission": {"type": "string", "description": "from the hands that pass the audit only"},
            "audited_hands": {"type": "integer"}, "passed_hands": {"type": "integer"},
            "unreconciled": {"type": "integer", "description": "audited hands whose money is not counted (rejected, "
                                                               "or settled on a pot the audit rejects)"},
            "reconciliation": {"type": ["object", "null"], "description": "balances + commission + pot_change = sum, "
                               "always 0.00 (D-2, D-14)", "properties": {
                "balances": {"type": "string"}, "commission": {"type": "string"}, "pot_change": {"type": "string"},
                "sum": {"type": "string"}, "hands_counted": {"type": "integer"}, "hands_not_counted": {"type": "integer"}}},
            "rejected": {"type": "array", "items": {"type": "object", "properties": {
                "hand_id": {"type": ["string", "null"]}, "where": {"type": "string"},
                "reason": {"type": ["string", "null"]},
                "claimed": {"type": ["object", "null"], "description": "what the operator claimed: nets by player "
                                                                      "and commission, as published, not checked"}}}},
            "pot": {"type": ["integer", "null"]},
            "carry_faults": {"type": "array", "items": {"type": "string"}}}},
        "Operator": {"type": "object", "properties": {
            "name": {"type": "string"}, "public_key": _HEX, "key_id": {"type": "string"},
            "created_at": {"type": "string"}}},
        "Principal": {"type": "object", "properties": {
            "token_id": {"type": "string"}, "role": {"type": "string", "enum": ["operator", "seat"]},
            "operator": {"type": "string"}, "hand_id": {"type": ["string", "null"]},
            "seat": {"type": ["integer", "null"]}}},
    },
}


def _with_common_errors(paths: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every operation with the errors every route of its kind can answer, whatever its entry
    above lists: a path parameter or a body can be malformed (400); a body can be too large
    (413); a token route is rate limited per address on failed authentication (429, web/limits.py);
    anything that signs needs the secret store (503); an anonymous read can find every read
    slot taken (503 ``busy``).  So no route's description can leave one out."""
    out: dict[str, dict[str, Any]] = {}
    for path, ops in paths.items():
        out[path] = {}
        for method, op in ops.items():
            codes = set()
            if "{" in path or method == "post":
                codes.add(400)
            if method == "post":
                codes |= {413, 503}
            if op.get("security"):
                codes |= {401, 429}
            elif method == "get":
                codes.add(503)  # an anonymous read past the read slots: 503 busy (web/limits.py)
            responses = dict(op["responses"])
            for code, resp in _err(*sorted(codes)).items():
                responses.setdefault(code, resp)
            out[path][method] = {**op, "responses": responses}
    return out


def document(*, with_log: bool) -> dict[str, Any]:
    """The OpenAPI 3.1 document (with the log's paths when the log API is served)."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "Tiplu API", "version": "1",
                 "description": "Provably-fair hand records, verdicts and the operator lifecycle. "
                                "Every error is {\"error\": {\"status\", \"code\", \"message\"}}. See docs/web.md."},
        "paths": _with_common_errors({**PATHS, **(LOG_PATHS if with_log else {})}),
        "components": COMPONENTS,
    }


@bp.get("/openapi.json")
def openapi_json():
    return jsonify(document(with_log="tiplu_log" in current_app.blueprints))
