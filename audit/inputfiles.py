"""Input files the CLI reads: only regular files, and never more than a bound.

A FIFO given as a file blocks ``open`` until a writer comes (``tiplu audit pipe.jsonl``
hung); ``/dev/zero`` never ends and has no newline (an unbounded read ran out of memory).
Standard input (``-``) is how a stream is given; every path must name a regular file, and
no read takes more than :data:`MAX_RECORD_BYTES` for one record or one line.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO

from replay.errors import MalformedError

#: one hand record (a ``.json`` file, one JSON line, one ``tiplu eval`` request) at most
MAX_RECORD_BYTES = 32 * 1024 * 1024


def require_regular(source: str) -> Path:
    """``source`` as a path to an existing regular file, else one clear :class:`MalformedError`
    (checked with ``stat``, so a FIFO or a device is never opened)."""
    path = Path(source)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise MalformedError(f"no such file: {source}") from None
    except OSError as exc:
        raise MalformedError(f"cannot read {source}: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
        raise MalformedError(f"{source} is {kind}, not a file of records (give a file, or '-' and pipe it in)")
    return path


def read_bounded(stream: IO[bytes], what: str, limit: int = MAX_RECORD_BYTES) -> bytes:
    """All of ``stream`` (binary) if it is at most ``limit`` bytes, else :class:`MalformedError`."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise MalformedError(f"{what} is larger than {limit // (1024 * 1024)} MiB: not one hand record "
                             "(an archive? 'tiplu audit' reads JSON lines)")
    return data


def read_file_bounded(source: str, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of regular file ``source``, at most ``limit`` (:func:`require_regular`, :func:`read_bounded`)."""
    path = require_regular(source)
    with path.open("rb") as fh:
        return read_bounded(fh, source, limit)
