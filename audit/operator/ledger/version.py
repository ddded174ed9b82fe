"""A ledger file's version, for a server's caches: what changes whenever the ledger does.

``(device, inode, data_version)``: SQLite's ``PRAGMA data_version`` on a connection of this
object's own, which never writes, changes whenever *another* connection -- this process's
or another's -- commits to the file; the device and inode change when the file is replaced.
``None`` when the file is missing, empty, in memory or not readable: then nothing is known
to be unchanged (``web/read_cache.py`` keeps nothing).  One SQLite call under a lock.
"""
from __future__ import annotations

import os
import sqlite3
import threading
from typing import Optional

from .store import is_memory_path

Version = Optional[tuple[int, int, int]]


class LedgerVersion:
    """Call it for the ledger file's current version (see the module's docstring)."""

    def __init__(self, path: str) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._file: tuple[int, int] | None = None

    def __call__(self) -> Version:
        if is_memory_path(self.path):
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        if not st.st_size:
            return None
        file = (st.st_dev, st.st_ino)
        with self._lock:
            try:
                if self._conn is None or file != self._file:
                    self.close()
                    self._conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
                    self._file = file
                return (*file, self._conn.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.Error:
                self.close()
                return None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
