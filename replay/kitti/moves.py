"""Kitti moves: ``Fold`` and ``Arrange``, with a JSON form and a text form that round-trip.

JSON::

    {"type": "fold", "seat": 2}
    {"type": "arrange", "seat": 0, "sets": [["AS","AH","AD"], ["KS","QS","JS"], ["9C","9D","2H"]]}
    {"type": "arrange", "seat": 1, "sets": [...], "auto": true}     # a timeout, see below

Text (``str(move)``; :func:`parse_move_text` reads it back)::

    2 fold
    0 arrange AS AH AD / KS QS JS / 9C 9D 2H
    1 arrange auto ...

``auto`` marks the arrangement a seat received because it timed out: it must be the
default arrangement of :func:`replay.kitti.strategy.default_arrangement`, so an operator
cannot choose a bad one for an absent player (the engine checks it).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import Card, format_cards, parse_card_list, parse_cards
from ..errors import MalformedError
from .arrangement import CardSets


@dataclass(frozen=True, slots=True)
class Fold:
    """K-2 / K-5: the seat folds; its stake stays in the pot."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "fold", "seat": self.seat}

    def __str__(self) -> str:
        return f"{self.seat} fold"


@dataclass(frozen=True, slots=True)
class Arrange:
    """K-2 / K-6: the seat's nine cards as three sets, strongest first."""

    seat: int
    sets: CardSets   # three sets of three once the engine has checked the arrangement (K-2)
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "arrange", "seat": self.seat,
                               "sets": [[str(c) for c in s] for s in self.sets]}
        if self.auto:
            out["auto"] = True
        return out

    def __str__(self) -> str:
        body = " / ".join(format_cards(s) for s in self.sets)
        return f"{self.seat} arrange {'auto ' if self.auto else ''}{body}"


Move = Fold | Arrange


def _seat(data: Mapping[str, Any], n_seats: int | None) -> int:
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise MalformedError("a move needs a 'seat' (a non-negative integer)")
    if n_seats is not None and seat >= n_seats:
        raise MalformedError(f"seat {seat} is not at a table of {n_seats}")
    return seat


def parse_sets(raw: Any) -> CardSets:
    """Three lists of card texts as a tuple of three card tuples (counts unchecked here)."""
    if not isinstance(raw, (list, tuple)):
        raise MalformedError("'sets' must be a list of three lists of cards")
    out = []
    for s in raw:
        if not isinstance(s, (list, tuple)):
            raise MalformedError("'sets' must be a list of three lists of cards")
        out.append(parse_card_list(s))   # parse_cards of the list: the same cards or error
    return tuple(out)


_FOLD_FIELDS = frozenset({"type", "seat"})
_ARRANGE_FIELDS = frozenset({"type", "seat", "sets", "auto"})
_FOLD_RECORD, _ARRANGE_RECORD = _FOLD_FIELDS | {"time"}, _ARRANGE_FIELDS | {"time"}


def parse_record_move(raw: Mapping[str, Any]) -> Move:
    """The move of a record's move object, its envelope field ``time`` ignored: the move (or
    the error) :func:`parse_move` gives for a copy without ``time``, read without the copy."""
    try:
        return parse_move(raw, _envelope=True)
    except MalformedError:   # say what is wrong exactly as about the copy
        return parse_move({k: v for k, v in raw.items() if k != "time"})


def parse_move(data: Mapping[str, Any], *, n_seats: int | None = None, _envelope: bool = False) -> Move:
    """A move from its JSON form; :class:`MalformedError` if it does not parse.  (``_envelope``:
    a record's ``time`` field is let through, for :func:`parse_record_move`.)"""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise MalformedError("a move must be a JSON object")
    kind = data.get("type")
    if kind == "fold":
        if not data.keys() <= (_FOLD_RECORD if _envelope else _FOLD_FIELDS):
            raise MalformedError(f"a fold has only 'type' and 'seat', got {sorted(data)}")
        return Fold(_seat(data, n_seats))
    if kind == "arrange":
        if not data.keys() <= (_ARRANGE_RECORD if _envelope else _ARRANGE_FIELDS):
            raise MalformedError(f"unknown fields in an arrange move: {sorted(set(data) - {'type', 'seat', 'sets', 'auto'})}")
        auto = data.get("auto", False)
        if not isinstance(auto, bool):
            raise MalformedError("'auto' must be true or false")
        return Arrange(_seat(data, n_seats), parse_sets(data.get("sets")), auto)
    raise MalformedError(f"a Kitti move's type is 'fold' or 'arrange', not {kind!r}")


def parse_move_text(text: str) -> Move:
    """A move from its text form (``str(move)``)."""
    parts = text.split(" ", 2) if isinstance(text, str) else []
    if len(parts) < 2 or not (parts[0].isascii() and parts[0].isdigit()):
        raise MalformedError(f"not a Kitti move: {text!r}")
    seat = int(parts[0])
    if parts[1] == "fold" and len(parts) == 2:
        return Fold(seat)
    if parts[1] == "arrange" and len(parts) == 3:
        body, auto = parts[2], False
        if body.startswith("auto "):
            body, auto = body[5:], True
        return Arrange(seat, tuple(parse_cards(s.split()) for s in body.split(" / ")), auto)
    raise MalformedError(f"not a Kitti move: {text!r}")


def sets_json(sets: CardSets) -> list[list[str]]:
    return [[str(c) for c in s] for s in sets]


def hand_json(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]
