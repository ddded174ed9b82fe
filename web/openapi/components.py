"""The OpenAPI description's components (:data:`COMPONENTS`): the two token schemes and the
schemas of the answers (the error shape, a hand, a signed step, a record, a verdict, ...)."""
from __future__ import annotations

from typing import Any

from .parts import ISSUED, ref

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
            "statements": {"type": "array", "items": ref("Signed"),
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
            "size": {"type": "integer"}, "root": _HEX, "time": ISSUED,
            "public_key": {**_HEX, "description": "the checkpoint signer's key, when the server knows it"},
            "witnesses": {"type": "array", "items": ref("WitnessStatus")},
            "witnesses_missing": {"type": "array", "items": {"type": "string"}},
            "statements": {"type": "array", "items": {"type": "object", "properties": {
                "n": {"type": "integer", "description": "1-based position among the hand's statements"},
                "kind": {"type": "string"}, "index": {"type": "integer", "description": "leaf index (seq - 1)"},
                "leaf_hash": _HEX, "path": {"type": "array", "items": _HEX}}}}}},
        "WitnessStatus": {"type": "object", "required": ["name", "vkey", "url", "cosigned", "reason"], "properties": {
            "name": {"type": "string"}, "vkey": {"type": "string", "description": "C2SP vkey, type 0x04"},
            "url": {"type": "string"}, "cosigned": {"type": "boolean"}, "reason": {"type": ["string", "null"]}}},
        "StoredStatement": {"allOf": [ref("Signed"), {"type": "object", "properties": {
            "seq": {"type": "integer"}, "hand_id": {"type": "string"}, "kind": {"type": "string"},
            "n": {"type": "integer", "description": "the statement's number in its hand, from 1 (as faults name it)"}}}]},
        "Seat": {"type": "object", "properties": {"seat": {"type": "integer"}, "player": {"type": "string"},
                                                  "commitment": _NHEX, "seed": _NHEX}},
        "Hand": {"type": "object", "properties": {
            "hand_id": {"type": "string"}, "table_id": {"type": "string"}, "operator": {"type": "string"},
            "preset": {"type": "string"}, "ruleset_hash": _HEX, "dealer": {"type": "integer"},
            "state": {"type": "string"}, "seats": {"type": "array", "items": ref("Seat")},
            "server_seed_commitment": _NHEX,
            "server_seed": {**_NHEX, "description": "null until the hand is revealed (or cancelled)"},
            "record_hash": _NHEX, "missing_seats": {"type": ["array", "null"]},
            "published": {"type": "boolean", "description": "whether the hand's record is published"},
            "created_at": {"type": "string"}, "links": {"type": "object"}}},
        "SignedStep": {"type": "object", "properties": {"statement": ref("Signed"), "hand": ref("Hand")}},
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
            "table": ref("Table"), "hands": {"type": "array", "items": {"type": "object"}},
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
