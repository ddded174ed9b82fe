"""Checks of what a caller hands the ledger: ids, player names, seats and seeds.

Each returns the checked value or raises :class:`~replay.errors.MalformedError`; nothing is
written before these pass.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Callable

from replay.errors import MalformedError

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
MAX_PLAYER_NAME = 64


def check_id(text: object, *, what: str) -> str:
    """An identifier: 1-64 of ``A-Z a-z 0-9 . _ : -``, starting with a letter or digit."""
    if not isinstance(text, str) or not _ID.fullmatch(text):
        raise MalformedError(f"{what} must be 1-64 characters of A-Z a-z 0-9 . _ : - (starting with a letter or digit)")
    return text


#: characters a player name may not hold (Unicode categories): controls (Cc: newline, tab, NUL,
#: ...), format characters (Cf: the bidi embeddings, overrides and isolates U+202A-202E and
#: U+2066-2069, marks U+200E/U+200F/U+061C, zero-width U+200B-200D, U+FEFF), surrogates,
#: private-use and unassigned code points, and line/paragraph separators.
_NAME_BANNED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def check_player_name(name: object) -> str:
    """A player name (docs/ledger.md, "Names"): 1-64 characters, no outer spaces, no space but
    U+0020, and nothing that changes how text around it is shown (see :data:`_NAME_BANNED`)."""
    if not isinstance(name, str) or not name.strip() or name != name.strip() or len(name) > MAX_PLAYER_NAME:
        raise MalformedError(f"a player name is 1-{MAX_PLAYER_NAME} characters without outer spaces")
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in _NAME_BANNED or (cat == "Zs" and ch != " "):
            raise MalformedError(f"a player name may not contain U+{ord(ch):04X} (a control, format or "
                                 "bidi character, or a space other than U+0020)")
    return name


def check_seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedError("a seat is a whole number (0 = first seat)")
    return value


def seed_bytes(seed: bytes | str, parse: Callable[[object], bytes]) -> bytes:
    return parse(seed.hex() if isinstance(seed, (bytes, bytearray)) else seed)


__all__ = ["check_id", "check_player_name", "check_seat", "seed_bytes", "MAX_PLAYER_NAME"]
