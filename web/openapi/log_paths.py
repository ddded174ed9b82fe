"""The transparency log's routes, described (:data:`LOG_PATHS`): in ``/openapi.json`` only when
:mod:`web.log_api` is served."""
from __future__ import annotations

from typing import Any

from .parts import ISSUED, errors, json_ok, param, ref


LOG_PATHS: dict[str, dict[str, Any]] = {
    "/api/v1/log/checkpoint": {"get": {
        "summary": "The transparency log's latest signed checkpoint", "tags": ["log"],
        "description": "With witnesses configured (TIPLU_WITNESSES) the checkpoint text carries their "
                       "cosignature lines (C2SP cosignature/v1) and `witnesses` / `witnesses_missing` say who cosigned.",
        "responses": {"200": json_ok({"type": "object", "properties": {
            "checkpoint": {"type": "string"}, "size": {"type": "integer"}, "root": {"type": "string"},
            "time": ISSUED, "public_key": {"type": "string"},
            "witnesses": {"type": "array", "items": ref("WitnessStatus")},
            "witnesses_missing": {"type": "array", "items": {"type": "string"}}}}), **errors(503)}}},
    "/api/v1/log/policy": {"get": {
        "summary": "The operator's own C2SP tlog-policy (text/plain): its logs, its witnesses, a quorum of any",
        "description": "What the operator says about itself. An auditor pins its own policy (--policy FILE, the "
                       "paste box of /verify); no audit reads this one. See docs/transparency-log.md.",
        "tags": ["log"],
        "responses": {"200": {"description": "OK", "content": {"text/plain": {"schema": {"type": "string"}}}},
                      **errors(503)}}},
    "/api/v1/log/entries": {"get": {
        "summary": "Log entries start <= index < end (at most 256)", "tags": ["log"],
        "parameters": [param("start", "query", {"type": "integer"}, required=True),
                       param("end", "query", {"type": "integer"})],
        "responses": {"200": json_ok({"type": "object"}), **errors(400, 404)}}},
    "/api/v1/log/proof/inclusion": {"get": {
        "summary": "Inclusion proof of one entry", "tags": ["log"],
        "parameters": [param("index", "query", {"type": "integer"}, required=True),
                       param("size", "query", {"type": "integer"})],
        "responses": {"200": json_ok({"type": "object"}), **errors(400, 404)}}},
    "/api/v1/log/proof/consistency": {"get": {
        "summary": "Consistency proof between two log sizes", "tags": ["log"],
        "parameters": [param("first", "query", {"type": "integer"}, required=True),
                       param("second", "query", {"type": "integer"})],
        "responses": {"200": json_ok({"type": "object"}), **errors(400, 404)}}},
}
