"""Shared helpers for the witness tests: logs as in-memory trees, signed checkpoints, requests."""
from __future__ import annotations

import base64
import threading
from datetime import datetime, timezone

from audit.signing import SigningKey
from audit.tlog.checkpoint import sign_checkpoint
from audit.tlog.merkle import MemoryTree
from audit.tlog.note import TYPE_ED25519, Vkey
from werkzeug.serving import make_server

LOG_KEY = SigningKey.from_hex("11" * 32)
WITNESS_KEY = SigningKey.from_hex("33" * 32)
WITNESS_NAME = "witness.test/w1"
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def log_vkey(origin: str, key: SigningKey = LOG_KEY) -> Vkey:
    return Vkey.for_key(origin, TYPE_ED25519, bytes.fromhex(key.public_hex))


class FakeLog:
    """An append-only tree that signs Tiplu checkpoints (``fork`` makes a rival branch)."""

    def __init__(self, origin: str, key: SigningKey = LOG_KEY, *, tag: str = "") -> None:
        self.origin, self.key, self.tag = origin, key, tag
        self.tree = MemoryTree()
        self.n = 0

    def grow(self, k: int) -> None:
        for _ in range(k):
            self.tree.append(f"{self.origin}:{self.tag}:{self.tree.size}".encode())

    def fork(self, tag: str, at: int | None = None) -> "FakeLog":
        """A copy of the first ``at`` leaves (default all), then growing with other leaves."""
        other = FakeLog(self.origin, self.key, tag=tag)
        at = self.tree.size if at is None else at
        for i in range(at):
            other.tree.append_leaf_hash(self.tree.levels[0][i])
        return other

    def checkpoint(self, size: int | None = None) -> str:
        size = self.tree.size if size is None else size
        self.n += 1
        return sign_checkpoint(self.key, origin=self.origin, size=size, root=self.tree.root(size)).text

    def request(self, old: int, size: int | None = None, *, checkpoint: str | None = None) -> bytes:
        size = self.tree.size if size is None else size
        proof = self.tree.consistency_proof(old, size) if 0 < old < size else []
        lines = "".join(base64.b64encode(h).decode() + "\n" for h in proof)
        return (f"old {old}\n{lines}\n" + (checkpoint or self.checkpoint(size))).encode("utf-8")


class Served:
    """A WSGI app served on 127.0.0.1 in a thread (werkzeug)."""

    def __init__(self, app, port: int = 0):
        self.server = make_server("127.0.0.1", port, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
