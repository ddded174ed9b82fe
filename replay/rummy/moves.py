"""Rummy moves: frozen values with a JSON form and a text form that both round-trip.

=========  ======================================================  =====================
move       JSON                                                    text
=========  ======================================================  =====================
Pick       ``{"type":"pick","seat":1,"source":"closed"}``            ``1 pick closed``
           ``{"type":"pick","seat":1,"source":"open","card":"7H"}``  ``1 pick open 7H``
Discard    ``{"type":"discard","seat":1,"card":"KS"}``               ``1 discard KS``
Declare    ``{"type":"declare","seat":1,"finish_card":"KS",``             ``1 declare KS: 2H 3H
           ``"groups":[["2H","3H","4H"], ...]}``                     4H | ...``
Drop       ``{"type":"drop","seat":1}``                              ``1 drop``
=========  ======================================================  =====================

``"auto": true`` (text: a trailing `` auto``) marks a move the table played for a chair
whose clock ran out (R-3, D-23): an automatic pick from the closed pile, the discard of
the card picked, and the drop after ``max_missed_turns`` such turns in a row.  A closed
pick may omit its card (the deck decides it); if given, it must match.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

from ..cards import Card, parse_card, parse_cards
from ..errors import MalformedError

SOURCES = ("closed", "open")


@dataclass(frozen=True, slots=True)
class Pick:
    """Take the top card of the closed or the open pile (R-6)."""

    seat: int
    source: str = "closed"
    card: Card | None = None
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "pick", "seat": self.seat, "source": self.source}
        if self.card is not None:
            out["card"] = str(self.card)
        if self.auto:
            out["auto"] = True
        return out

    def __str__(self) -> str:
        card = f" {self.card}" if self.card is not None else ""
        return f"{self.seat} pick {self.source}{card}{' auto' if self.auto else ''}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put one card on the open pile, ending the turn (R-6)."""

    seat: int
    card: Card
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "discard", "seat": self.seat, "card": str(self.card)}
        if self.auto:
            out["auto"] = True
        return out

    def __str__(self) -> str:
        return f"{self.seat} discard {self.card}{' auto' if self.auto else ''}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Place ``finish_card`` face down and show the other 13 cards in ``groups`` (R-7, D-21)."""

    seat: int
    finish_card: Card
    groups: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": "declare", "seat": self.seat, "finish_card": str(self.finish_card),
                "groups": [[str(c) for c in g] for g in self.groups]}

    def __str__(self) -> str:
        shown = " | ".join(" ".join(str(c) for c in g) for g in self.groups)
        return f"{self.seat} declare {self.finish_card}: {shown}"


@dataclass(frozen=True, slots=True)
class Drop:
    """Leave the deal: first drop before any pick (R-16), middle drop after (R-17); with
    ``auto`` the table drops a chair that missed too many turns (R-19, D-23)."""

    seat: int
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "drop", "seat": self.seat}
        if self.auto:
            out["auto"] = True
        return out

    def __str__(self) -> str:
        return f"{self.seat} drop{' auto' if self.auto else ''}"


Move = Union[Pick, Discard, Declare, Drop]


def _seat(data: Mapping[str, Any]) -> int:
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise MalformedError("a move needs a non-negative integer 'seat'", location="seat")
    return seat


def _auto(data: Mapping[str, Any]) -> bool:
    auto = data.get("auto", False)
    if not isinstance(auto, bool):
        raise MalformedError("'auto' must be true or false", location="auto")
    return auto


#: The fields each move type may carry besides "type" and "seat".
_FIELDS = {"pick": {"source", "card", "auto"}, "discard": {"card", "auto"},
           "declare": {"finish_card", "groups"}, "drop": {"auto"}}
#: ... and with them: the keys a move of each type may have
_KEYS = {kind: frozenset(fields | {"type", "seat"}) for kind, fields in _FIELDS.items()}
#: Parsed picks, discards and drops by their checked fields (type, seat, source, card text,
#: auto): frozen values, so one may stand for every move with the same fields.  Bounded.
_PARSED: dict[tuple[str, int, str | None, object, bool], Move] = {}
_PARSED_LIMIT = 4096


#: ... and in a hand record, where each move also carries the envelope's ``time`` (ignored)
_KEYS_IN_RECORD = {kind: keys | {"time"} for kind, keys in _KEYS.items()}


def parse_move(data: Mapping[str, Any]) -> Move:
    """A move from its JSON form; :class:`MalformedError` if it does not parse."""
    return _parse(data, _KEYS)


def parse_record_move(data: Mapping[str, Any]) -> Move:
    """A move as a hand record holds it: :func:`parse_move` of it without the envelope's
    ``time`` field (ignored, as :func:`replay.replayer.engine_move` drops it), without
    copying it."""
    return _parse(data, _KEYS_IN_RECORD)


def _parse(data: Mapping[str, Any], allowed: dict[str, frozenset[str]]) -> Move:
    if type(data) is not dict and not isinstance(data, Mapping):
        raise MalformedError("a move must be a JSON object")
    kind = data.get("type")
    seat = data.get("seat")
    if type(seat) is not int or seat < 0:
        seat = _seat(data)
    if not isinstance(kind, str) or (keys := allowed.get(kind)) is None:
        raise MalformedError(f"unknown move type {kind!r}", location="type")
    if not data.keys() <= keys:
        extra = set(data) - keys
        raise MalformedError(f"unexpected fields {sorted(extra)} in a {kind} move")
    if kind == "declare":
        groups = data.get("groups")
        if "finish_card" not in data or not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
            raise MalformedError("a declare needs 'finish_card' and 'groups' (a list of lists of cards)")
        return Declare(seat, parse_card(data["finish_card"]), tuple(parse_cards(g) for g in groups))
    # checked in this order (the first fault is the one reported): source, card, auto
    source: str | None
    text: object   # the card's JSON value, a string once it parsed
    if kind == "pick":
        source = data.get("source", "closed")
        if not isinstance(source, str) or source not in SOURCES:
            raise MalformedError("source must be 'closed' or 'open'", location="source")
        text = data.get("card")
    elif kind == "discard":
        if "card" not in data:
            raise MalformedError("a discard needs a 'card'", location="card")
        text = data["card"]
        source = None
    else:
        source = text = None
    auto = data.get("auto", False)
    # the same checked fields as a move parsed before: its (frozen) value, nothing left to check
    if type(auto) is bool and (type(text) is str or (text is None and kind != "discard")):
        hit = _PARSED.get((kind, seat, source, text, auto))
        if hit is not None:
            return hit
    card = parse_card(text) if text is not None or kind == "discard" else None  # a discard needs its card
    if type(auto) is not bool:
        auto = _auto(data)
    key = (kind, seat, source, text, auto)   # text: a card's text (it parsed) or None
    if source is not None:   # a pick (only a pick has a source)
        move: Move = Pick(seat, source, card, auto)
    elif card is not None:   # a discard (a drop has no card; a discard's was parsed above)
        move = Discard(seat, card, auto)
    else:
        move = Drop(seat, auto)
    if len(_PARSED) >= _PARSED_LIMIT:
        _PARSED.clear()
    _PARSED[key] = move
    return move


def parse_move_text(text: str) -> Move:
    """A move from its text form (``str(move)``)."""
    if not isinstance(text, str):
        raise MalformedError("a move text must be a string")
    words = text.split()
    try:
        seat = int(words[0])
        kind = words[1]
    except (IndexError, ValueError):
        raise MalformedError(f"not a rummy move: {text!r}") from None
    auto = bool(words) and words[-1] == "auto"
    if auto:
        words = words[:-1]
    data: dict[str, Any] = {"type": kind, "seat": seat}
    if auto:
        data["auto"] = True
    if kind == "pick" and len(words) in (3, 4):
        data["source"] = words[2]
        if len(words) == 4:
            data["card"] = words[3]
    elif kind == "discard" and len(words) == 3:
        data["card"] = words[2]
    elif kind == "declare" and len(words) >= 3 and words[2].endswith(":") and not auto:
        data["finish_card"] = words[2][:-1]
        shown = text.split(":", 1)[1]
        data["groups"] = [g.split() for g in shown.split("|")]
    elif not (kind == "drop" and len(words) == 2):
        raise MalformedError(f"not a rummy move: {text!r}")
    return parse_move(data)
