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


#: markup characters: refused in names and cancel reasons, which pages, terminals and other
#: tools show (a page escapes them, but a name is no place for a tag)
_MARKUP = frozenset("<>")
#: below this code point every letter a name needs has a precomposed form (Latin, IPA, Greek,
#: Cyrillic): a combining mark left on such a base after NFKC only stacks or strikes glyphs
_PRECOMPOSED_BELOW = 0x0530
#: the most combining marks one letter may carry (a Devanagari conjunct needs up to three)
MAX_MARKS = 3
#: scripts whose letters look alike: one name may use letters of only one of them
_LOOKALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")


def _normal(text: str, *, what: str) -> None:
    """Refuse text that NFKC normalisation would change: fullwidth or other compatibility
    forms ("\uff41sha" is "asha" to a reader), decomposed accents, ligatures."""
    if unicodedata.normalize("NFKC", text) != text:
        bad = next((ch for ch in text if unicodedata.normalize("NFKC", ch) != ch), None)
        shown = f"U+{ord(bad):04X} ({unicodedata.name(bad, 'unnamed')})" if bad else "a decomposed character"
        raise MalformedError(f"{what} must be in Unicode NFKC form: it holds {shown}, which reads as "
                             f"{unicodedata.normalize('NFKC', text)!r}")


def _shown_characters(text: str, *, what: str) -> None:
    """Refuse characters that change how text around them is shown (:data:`_NAME_BANNED`,
    spaces other than U+0020) and markup (``<``, ``>``)."""
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in _NAME_BANNED or (cat == "Zs" and ch != " "):
            raise MalformedError(f"{what} may not contain U+{ord(ch):04X} (a control, format or "
                                 "bidi character, or a space other than U+0020)")
        if ch in _MARKUP:
            raise MalformedError(f"{what} may not contain {ch!r} (markup)")


def _marks(name: str) -> None:
    """Refuse combining marks that only disguise a name: an enclosing mark, a mark with no
    letter under it, a mark on a Latin/Greek/Cyrillic letter or on punctuation (those have
    precomposed letters, which NFKC would have chosen), more than :data:`MAX_MARKS` on one
    letter.  Marks that scripts such as Devanagari or Bengali need are kept."""
    base, run = None, 0
    for ch in name:
        cat = unicodedata.category(ch)
        if cat not in ("Mn", "Mc", "Me"):
            base, run = ch, 0
            continue
        run += 1
        if cat == "Me" or base is None or (cat == "Mn" and ord(base) < _PRECOMPOSED_BELOW) or run > MAX_MARKS:
            raise MalformedError(f"a player name may not carry the combining mark U+{ord(ch):04X} "
                                 f"({unicodedata.name(ch, 'unnamed')}) there")


def _one_lookalike_script(name: str) -> None:
    """Refuse a name mixing letters of Latin, Greek and Cyrillic ("\u0430sha" with a Cyrillic
    a): the classic confusable."""
    seen = {unicodedata.name(ch, "").split(" ")[0] for ch in name if ch.isalpha()} & set(_LOOKALIKE_SCRIPTS)
    if len(seen) > 1:
        raise MalformedError(f"a player name may not mix {' and '.join(s.title() for s in sorted(seen))} letters (they look alike)")


def check_player_name(name: object) -> str:
    """A player name (docs/ledger.md, "Names"): 1-64 characters, no outer spaces, no space but
    U+0020, nothing that changes how text around it is shown (see :data:`_NAME_BANNED`), no
    markup, in NFKC form, no combining mark that only disguises it, no mix of look-alike
    scripts.  Refused, never silently rewritten: a name is signed as given."""
    if not isinstance(name, str) or not name.strip() or name != name.strip() or len(name) > MAX_PLAYER_NAME:
        raise MalformedError(f"a player name is 1-{MAX_PLAYER_NAME} characters without outer spaces")
    _shown_characters(name, what="a player name")
    _normal(name, what="a player name")
    _marks(name)
    _one_lookalike_script(name)
    return name


def name_key(name: str) -> str:
    """What two names at one hand must not share: their case-folded NFKC form ("Asha" and
    "asha" are one name to a reader)."""
    return unicodedata.normalize("NFKC", name.casefold())


MAX_REASON = 200


def check_reason(reason: object) -> str:
    """A cancel reason: 1-200 characters of one line, in NFKC form, with no control, format or
    bidi character and no markup (it is signed, logged and shown on pages and terminals)."""
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        raise MalformedError(f"a cancel reason is a short text (1-{MAX_REASON} characters)")
    _shown_characters(reason, what="a cancel reason")
    _normal(reason, what="a cancel reason")
    return reason


def check_seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedError("a seat is a whole number (0 = first seat)")
    return value


def seed_bytes(seed: bytes | str, parse: Callable[[object], bytes]) -> bytes:
    return parse(seed.hex() if isinstance(seed, (bytes, bytearray)) else seed)


__all__ = ["check_id", "check_player_name", "check_reason", "check_seat", "name_key", "seed_bytes", "MAX_PLAYER_NAME",
           "MAX_REASON"]
