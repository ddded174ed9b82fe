"""A checkpoint with the legacy (pre-format-3) body -- origin, size, root and a ``time`` line,
all four signed -- as the log signed them before format 3 (docs/format-3.md).  The code no
longer makes these: the tests make them here to show where they are still accepted (inside a
``tiplu.hand/2`` record or a ``tiplu.receipt/2`` receipt) and where they are not."""
from __future__ import annotations

import base64

from audit.signing import SigningKey
from audit.tlog.checkpoint import SIGNATURE_DASH, note_key_id


def legacy_checkpoint(key: SigningKey, *, origin: str, size: int, root: bytes, time: str = "2026-11-30T14:35:00Z",
                      extra: str | None = None) -> str:
    """The text of a four-line checkpoint signed by ``key`` (``extra``: another line instead of
    the time line, to show that only the time line was ever accepted)."""
    fourth = f"time {time}" if extra is None else extra
    body = f"{origin}\n{size}\n{base64.b64encode(root).decode()}\n{fourth}\n".encode()
    sig = bytes.fromhex(key.sign_bytes(body))
    line = f"{SIGNATURE_DASH}{origin} {base64.b64encode(note_key_id(origin, key.public_hex) + sig).decode()}\n"
    return body.decode() + "\n" + line
