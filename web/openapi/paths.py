"""The public API's and the operator API's routes, described (:data:`PATHS`): what
``/openapi.json`` says of each, before the errors every route of its kind can answer are added
(:func:`web.openapi.document`)."""
from __future__ import annotations

from typing import Any

from replay.settlement import COMMISSION_PCT_PATTERN, POINT_VALUE_PATTERN

from .parts import HAND_ID, OPERATOR_AUTH, SEAT, SEAT_AUTH, errors, json_ok, operator_write, param, ref, request_body

PATHS: dict[str, dict[str, Any]] = {
    "/api/v1/hands": {"get": {
        "summary": "Hands, newest first", "tags": ["public"],
        "parameters": [param("table_id", "query"), param("preset", "query"),
                       param("state", "query", {"type": "string", "enum": [
                           "created", "committed", "seeds-committed", "seeds-revealed", "dealt", "finished",
                           "revealed", "cancelled"]}),
                       param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}),
                       param("offset", "query", {"type": "integer", "minimum": 0, "default": 0})],
        "responses": {"200": json_ok({"type": "object", "properties": {
            "hands": {"type": "array", "items": ref("Hand")}, "total": {"type": "integer"},
            "offset": {"type": "integer"}, "limit": {"type": "integer"},
            "next_offset": {"type": ["integer", "null"]}}}), **errors(400)}}},
    "/api/v1/hands/{hand_id}": {"get": {
        "summary": "One hand's public view (server_seed is null until revealed)", "tags": ["public"],
        "parameters": [HAND_ID], "responses": {"200": json_ok(ref("Hand")), **errors(400, 404)}}},
    "/api/v1/hands/{hand_id}/record": {"get": {
        "summary": "The published hand record (tiplu.hand/3); 404 until the hand is finished", "tags": ["public"],
        "parameters": [HAND_ID],
        "responses": {"200": json_ok({"type": "object", "description": "docs/records.md"}), **errors(400, 404)}}},
    "/api/v1/hands/{hand_id}/verdict": {"get": {
        "summary": "The audit verdict of the published record", "tags": ["public"], "parameters": [HAND_ID],
        "description": "Judged against the operator's whole log: `timing.status` is `whole-log`.",
        "responses": {"200": json_ok(ref("Verdict")), **errors(400, 404)}},
        "post": {
        "summary": "The audit verdict of the published record under your pinned C2SP tlog-policy",
        "description": "Body {\"policy\": <the policy's text>}: as GET, and a record whose checkpoint lacks the "
                       "policy's witness quorum fails with witness_quorum; `timing.witnesses` lists the cosignatures "
                       "that counted. A policy that does not parse is a 400 naming its line.",
        "tags": ["public"], "parameters": [HAND_ID],
        "requestBody": request_body({"type": "object", "properties": {"policy": {"type": "string", "maxLength": 65536}},
                              "required": ["policy"]}),
        "responses": {"200": json_ok(ref("Verdict")), **errors(400, 404, 413)}}},
    "/api/v1/hands/{hand_id}/statements": {"get": {
        "summary": "Every signed statement of the hand, in log order", "tags": ["public"], "parameters": [HAND_ID],
        "responses": {"200": json_ok({"type": "object", "properties": {
            "hand_id": {"type": "string"}, "statements": {"type": "array", "items": ref("StoredStatement")}}}),
            **errors(400, 404)}}},
    "/api/v1/hands/{hand_id}/log-proofs": {"get": {
        "summary": "The log's signed checkpoint and each of the hand's statements' inclusion proof at its size",
        "description": "Signs a new checkpoint first if the log grew (as /api/v1/log/checkpoint). A verifier "
                       "recomputes each leaf hash from the statement it holds; see docs/transparency-log.md.",
        "tags": ["public", "log"], "parameters": [HAND_ID],
        "responses": {"200": json_ok(ref("LogProofs")), **errors(400, 404, 503)}}},
    "/api/v1/hands/{hand_id}/move-receipts": {"get": {
        "summary": "The move receipts of the hand's moves after `since` (at most 1000), signed again from the "
                   "stored heads: the very receipts that were given. Heads only: no move is in them",
        "tags": ["public"], "parameters": [HAND_ID, param("since", "query", {"type": "integer", "minimum": 0},
                                                             "receipts of moves after this many (default 0)",
                                                             required=False)],
        "responses": {"200": json_ok({"type": "object", "properties": {
            "hand_id": {"type": "string"}, "receipts": {"type": "array", "items": ref("MoveReceipt")}}}),
            **errors(400, 404)}}},
    "/api/v1/hands/{hand_id}/seats/{seat}/commit": {"post": {
        "summary": "A seat submits its seed commitment; returns the signed seat-receipt", "tags": ["seat"],
        "security": SEAT_AUTH, "parameters": [HAND_ID, SEAT],
        "requestBody": request_body({"type": "object", "required": ["commitment"],
                              "properties": {"commitment": {"type": "string", "pattern": "^[0-9a-f]{64}$"}}}),
        "responses": {"201": json_ok({"type": "object", "properties": {"receipt": ref("Receipt")}}),
                      **errors(400, 401, 403, 404, 409, 413, 429)}}},
    "/api/v1/hands/{hand_id}/seats/{seat}/reveal": {"post": {
        "summary": "A seat reveals its seed (after every seat committed); returns the signed seat-reveal",
        "tags": ["seat"], "security": SEAT_AUTH, "parameters": [HAND_ID, SEAT],
        "requestBody": request_body({"type": "object", "required": ["seed"],
                              "properties": {"seed": {"type": "string", "pattern": "^([0-9a-f]{2}){16,64}$"}}}),
        "responses": {"201": json_ok({"type": "object", "properties": {"receipt": ref("Receipt")}}),
                      **errors(400, 401, 403, 404, 409, 413, 422, 429)}}},
    "/api/v1/tables": {"get": {
        "summary": "Every table", "tags": ["public"],
        "responses": {"200": json_ok({"type": "object", "properties": {
            "tables": {"type": "array", "items": ref("Table")}}})}}},
    "/api/v1/tables/{table_id}": {"get": {
        "summary": "A table: its hands in order, HT balances and commission from the recomputed settlements",
        "tags": ["public"], "parameters": [param("table_id")],
        "responses": {"200": json_ok(ref("TableMoney")), **errors(400, 404)}}},
    "/api/v1/operators": {"get": {
        "summary": "Every operator and its public key", "tags": ["public"],
        "responses": {"200": json_ok({"type": "object", "properties": {
            "operators": {"type": "array", "items": ref("Operator")}}})}}},
    "/api/v1/operators/{name}": {"get": {
        "summary": "An operator's Ed25519 public key", "tags": ["public"], "parameters": [param("name")],
        "responses": {"200": json_ok(ref("Operator")), **errors(400, 404)}}},
    "/api/v1/stats": {"get": {
        "summary": "Deal statistics of every audit-passing published hand (docs/stats.md)", "tags": ["public"],
        "responses": {"200": json_ok({"type": "object", "required": ["format", "hands", "considered", "games"],
                                    "properties": {"format": {"const": "tiplu.stats/1"},
                                                   "hands": {"type": "integer"}, "considered": {"type": "integer"},
                                                   "excluded": {"type": "object"},
                                                   "games": {"type": "array", "items": {"type": "object"}}}}),
                      "503": {"description": "Still being computed (every published record is audited first); "
                                             "retry in a few seconds",
                              "content": {"application/json": {"schema": ref("Error")}}}}}},
    "/api/v1/collusion": {"get": {
        "summary": "The superuser and collusion review of every audit-passing published hand (docs/collusion.md): "
                   "per account and signal a one-sided test, flags at a 1 % false discovery rate, the pair graph",
        "tags": ["public"],
        "responses": {"200": json_ok({"type": "object", "required": ["hands", "alpha", "flags", "accounts", "pairs"],
                                    "properties": {"hands": {"type": "integer"}, "alpha": {"type": "number"},
                                                   "min_decisions": {"type": "integer"},
                                                   "meaning": {"type": "string"},
                                                   "flags": {"type": "array", "items": {"type": "object"}},
                                                   "accounts": {"type": "array", "items": {"type": "object"}},
                                                   "pairs": {"type": "array", "items": {"type": "object"}},
                                                   "groups": {"type": "array"}}}),
                      "503": {"description": "Still being computed (every published record is audited first); "
                                             "retry in a few seconds",
                              "content": {"application/json": {"schema": ref("Error")}}}}}},
    "/api/v1/operator/whoami": {"get": {
        "summary": "The operator token's principal", "tags": ["operator"], "security": OPERATOR_AUTH,
        "responses": {"200": json_ok(ref("Principal")), **errors(401, 403)}}},
    "/api/v1/operator/tables": {"post": {
        "summary": "New table", "tags": ["operator"], "security": OPERATOR_AUTH,
        "requestBody": request_body({"type": "object", "required": ["table_id", "preset"], "properties": {
            "table_id": {"type": "string"}, "preset": {"type": "string"}, "overrides": {"type": "object"},
            "seats": {"type": "integer"},
            "point_value": {"type": "string", "examples": ["0.25"], "pattern": POINT_VALUE_PATTERN,
                            "description": "HT per point: an amount more than 0 (docs/records.md, Table money)"},
            "commission_pct": {"type": "string", "examples": ["5"], "pattern": COMMISSION_PCT_PATTERN,
                               "description": "Percent of each winner's gain: at least 0 and less than 100"}}}),
        "responses": {"201": json_ok(ref("Table")), **errors(400, 401, 403, 404, 409, 413)}}},
    "/api/v1/operator/hands": {"post": {
        "summary": "New hand at one of the operator's tables; returns the signed hand statement",
        "tags": ["operator"], "security": OPERATOR_AUTH,
        "requestBody": request_body({"type": "object", "required": ["table_id", "players"], "properties": {
            "table_id": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}},
            "dealer": {"type": "integer", "minimum": 0}, "hand_id": {"type": "string"}}}),
        "responses": {"201": json_ok(ref("SignedStep")), **errors(400, 401, 403, 404, 409, 413)}}},
    "/api/v1/operator/hands/{hand_id}/commit": {"post": operator_write("Commit to a fresh server seed (R-21)")},
    "/api/v1/operator/hands/{hand_id}/seats/{seat}/token": {"post": {
        "summary": "A new token for one seat's player (shown once, stored hashed)", "tags": ["operator"],
        "security": OPERATOR_AUTH, "parameters": [HAND_ID, SEAT],
        "responses": {"201": json_ok({"allOf": [ref("Principal"), {"type": "object", "properties": {
            "token": {"type": "string"}}}]}), **errors(400, 401, 403, 404)}}},
    "/api/v1/operator/hands/{hand_id}/deal": {"post": operator_write("Deal: every seed is in")},
    "/api/v1/operator/hands/{hand_id}/finish": {"post": operator_write(
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
        "requestBody": request_body({"type": "object", "required": ["move"], "properties": {"move": {
            "type": "object", "required": ["type", "seat"],
            "description": "the move as the record will list it; 'time' is added when absent"}}}),
        "responses": {"201": json_ok({"type": "object", "properties": {"receipt": ref("MoveReceipt")}}),
                      **errors(400, 401, 403, 404, 409, 413)}}},
    "/api/v1/operator/hands/{hand_id}/reveal": {"post": operator_write(
        "Reveal the server seed (R-22), then publish the hand's record")},
    "/api/v1/operator/hands/{hand_id}/publish": {"post": {
        "summary": "Publish a revealed hand's record whose publication was lost", "tags": ["operator"],
        "security": OPERATOR_AUTH, "parameters": [HAND_ID],
        "responses": {"201": json_ok({"type": "object", "properties": {"hand": ref("Hand")}}),
                      **errors(401, 403, 404, 409)}}},
    "/api/v1/operator/hands/{hand_id}/cancel": {"post": operator_write(
        "Cancel before the deal", body={"type": "object", "x-optional": True,
                                        "properties": {"reason": {"type": "string", "maxLength": 200}}})},
}
