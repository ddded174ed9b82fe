"""The building blocks of the OpenAPI description (:mod:`web.openapi`): a schema reference, a
JSON answer, the error answers by status, a parameter, a request body, an operator write,
and the security requirements of the two kinds of token."""
from __future__ import annotations

from typing import Any

def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def json_ok(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def errors(*codes: int) -> dict[str, Any]:
    text = {400: "Malformed request", 401: "No or invalid token", 403: "Token not allowed here",
            404: "Not found", 409: "Not allowed in the hand's current state", 413: "Body too large",
            422: "Does not match (commitment, signature)", 429: "Rate limited",
            503: "Not configured, misconfigured (no ledger, an unusable secret store), or busy (every read slot taken)"}
    return {str(c): {"description": text[c], "content": {"application/json": {"schema": ref("Error")}}}
            for c in codes}


def param(name: str, where: str = "path", schema: dict[str, Any] | None = None, description: str = "",
           required: bool | None = None) -> dict[str, Any]:
    return {"name": name, "in": where, "required": where == "path" if required is None else required,
            "schema": schema or {"type": "string"}, **({"description": description} if description else {})}


HAND_ID = param("hand_id", description="the hand id")
SEAT = param("seat", schema={"type": "integer", "minimum": 0, "maximum": 63}, description="seat number, 0 = first seat")
OPERATOR_AUTH: list[dict[str, list[str]]] = [{"operatorToken": []}]
SEAT_AUTH: list[dict[str, list[str]]] = [{"seatToken": []}]


def request_body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def operator_write(summary: str, *, body: dict[str, Any] | None = None, status: str = "200") -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "tags": ["operator"], "security": OPERATOR_AUTH,
                          "parameters": [HAND_ID],
                          "responses": {status: json_ok(ref("SignedStep")), **errors(400, 401, 403, 404, 409, 413, 422)}}
    if body is not None:
        op["requestBody"] = request_body(body, required=not body.get("x-optional", False))
    return op


#: a checkpoint's issue time in the JSON beside it (the signed text has none since format 3)
ISSUED = {"type": ["string", "null"], "description": "when this server signed the checkpoint, as its ledger noted it beside the checkpoint: NOT in the signed body (a checkpoint is origin, size and root only), so it proves nothing; witnesses' cosignature timestamps do"}
