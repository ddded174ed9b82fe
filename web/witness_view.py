"""Which witnesses cosigned a checkpoint, and when: what the home page and the hand page show.

Only cosignatures that **verify** under the vkeys this server is configured with
(``TIPLU_WITNESSES``) are shown as cosigned, each with its timestamp (the time the witness
signed, which it vouches for).  These are the witnesses the *server* names: the page says
so, and that a player relies on witnesses by pinning independent ones' keys (``tiplu audit
--witness``, the offline verifier).  Nothing here asks a witness anything: the lines are the
ones a record carries, or the ones the site stored when the witnesses answered.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from flask import current_app


def _endpoints() -> list[Any]:
    witnessing = current_app.config.get("TIPLU_WITNESSING")
    return list(getattr(witnessing, "endpoints", None) or [])


def configured_vkeys() -> list[str]:
    """The witness vkeys this server names (part of a cached page's key)."""
    return [str(e.vkey) for e in _endpoints()]


def when(timestamp: int) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def cosignatures(checkpoint_text: str | None, *, log: Any = None) -> dict[str, Any] | None:
    """``{"cosigned": [{"name", "vkey", "timestamp", "time"}], "missing": [name], "named": n}``
    for the witnesses this server names, or ``None`` when it names none.  With ``log``, the
    cosignature lines the site stored for that checkpoint are added to its text first."""
    from audit.tlog.cosignature import verify_cosignatures
    from audit.tlog.witnessing import cosigned_text

    endpoints = _endpoints()
    if not endpoints:
        return None
    if checkpoint_text is None:
        return {"cosigned": [], "missing": [e.name for e in endpoints], "named": len(endpoints)}
    text = checkpoint_text
    try:
        if log is not None:
            text = cosigned_text(log, checkpoint_text, endpoints)
        results = verify_cosignatures(text, [e.vkey for e in endpoints])
    except (ValueError, TypeError):  # a text that is no note: nothing verifies
        return {"cosigned": [], "missing": [e.name for e in endpoints], "named": len(endpoints)}
    cosigned = [{"name": r.name, "vkey": r.witness, "timestamp": r.timestamp, "time": when(r.timestamp)}
                for r in results if r.ok and r.timestamp is not None]  # a verified cosignature has its timestamp
    return {"cosigned": cosigned, "missing": [r.name for r in results if not r.ok], "named": len(endpoints)}


def record_cosignatures(record: Any) -> dict[str, Any] | None:
    """:func:`cosignatures` of the checkpoint a record's log proofs carry (the lines it was published with)."""
    proofs = ((record or {}).get("fairness") or {}).get("log_proofs") if isinstance(record, dict) else None
    text = None
    if isinstance(proofs, list) and proofs and isinstance(proofs[0], str) and "\n\n" in proofs[0]:
        text = proofs[0].split("\n\n", 1)[1]
    return cosignatures(text)
