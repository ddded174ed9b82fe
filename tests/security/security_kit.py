"""Checks shared by the security tests: the one error shape, no traceback, no secret."""
from __future__ import annotations

import base64
import json
from typing import Iterable

ERROR_KEYS = {"status", "code", "message"}


def secret_forms(seed_hex: str) -> list[str]:
    """Every way a server seed could leak in text: hex (both cases), base64 (standard, URL-safe, unpadded)."""
    raw = bytes.fromhex(seed_hex)
    forms = {seed_hex.lower(), seed_hex.upper()}
    for enc in (base64.b64encode(raw), base64.urlsafe_b64encode(raw)):
        text = enc.decode("ascii")
        forms |= {text, text.rstrip("=")}
    return sorted(forms)


def find_leaks(text: str, seeds: Iterable[str]) -> list[str]:
    """The seeds (hex) any form of which occurs in ``text``."""
    return [s for s in seeds if any(form in text for form in secret_forms(s))]


def check_api_response(status: int, body: bytes, content_type: str, *, where: str) -> None:
    """No 5xx, no traceback; every 4xx is the one JSON error shape with the same status."""
    text = body.decode("utf-8", "replace")
    assert status < 500, f"{where}: {status} {text[:300]}"
    assert "Traceback" not in text and 'File "' not in text, f"{where}: a traceback in the response"
    if status >= 400:
        assert content_type.startswith("application/json"), f"{where}: {status} is not JSON ({content_type})"
        body_json = json.loads(text)
        assert set(body_json) == {"error"} and set(body_json["error"]) == ERROR_KEYS, f"{where}: {text[:300]}"
        err = body_json["error"]
        assert err["status"] == status and isinstance(err["code"], str) and isinstance(err["message"], str), where


def copy_db(src_path: str, dst_path: str) -> str:
    """An online-backup copy of a ledger and its secret store (what an operator's backup does)."""
    from audit.operator.ledger.secret_store import copy_ledger

    copy_ledger(src_path, dst_path)
    return dst_path
