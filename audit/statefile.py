"""State files (``tiplu audit --state``, ``tiplu monitor --state``): read only what is one,
write atomically.

A path given as ``--state`` by mistake -- a hand record, a dangling symlink, a FIFO -- must
never be rewritten with checkpoint fields: :func:`read_state` refuses, in one line, any
file that is not a JSON object of a state file's keys with a ``checkpoint``; a missing
file is a first run, but a dangling symlink is refused (writing would replace the link).
:func:`write_state` writes a new file in the same directory, syncs it, then renames it over
the old one (:func:`os.replace`), so a crash leaves the old state or the new one, never
half of either; through a symlink it writes the file the link names.
"""
from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, Mapping

from replay.errors import MalformedError

#: every key a state file of either command holds
STATE_KEYS = frozenset({"version", "url", "public_key", "origin", "trust", "checkpoint", "open_hands",
                        "pending", "scan"})  # the monitor's hand checks (issue 27: audit.auditor.monitor.hands)


def _target(path: Path) -> Path:
    """The file a state path names: itself, or what its symlink points to."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def read_state(path: str | Path) -> dict[str, Any] | None:
    """The state file's JSON object, ``None`` when there is no file yet (a first run), else
    :class:`MalformedError` for anything that is not a state file."""
    path = Path(path)
    if path.is_symlink() and not path.exists():
        raise MalformedError(f"{path} is a symlink to nothing ({os.readlink(path)}): not a state file, not replaced")
    if not path.exists():
        return None
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise MalformedError(f"{path} is not a regular file: not a state file")
    try:
        with path.open("rb") as fh:
            raw = fh.read(1 << 20)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise MalformedError(f"{path} is not a state file ({exc}); it is left as it is") from None
    if not isinstance(data, dict) or "checkpoint" not in data or set(data) - STATE_KEYS:
        found = ", ".join(sorted(data)[:6]) if isinstance(data, dict) else type(data).__name__
        raise MalformedError(f"{path} is not a state file (a JSON object with a checkpoint; it holds {found}); "
                             "it is left as it is")
    return data


def write_state(path: str | Path, data: Mapping[str, Any]) -> None:
    """Replace the state file at ``path`` (or the file its symlink names) atomically."""
    target = _target(Path(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(dict(data), indent=2) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    try:
        dir_fd = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
