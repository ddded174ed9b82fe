"""The moves of a Marriage round: frozen values with a JSON form and a text form.

Every move names the ``seat`` that makes it.  ``auto`` marks a move the table played for
a player who timed out (the auto-play draws from the stock and discards the card drawn);
it is recorded, not judged: an auto move must be as legal as any other.

==============  =====================================================  ==================
JSON ``move``   what                                                   rules
==============  =====================================================  ==================
``tunnela``     lay one dealt tunnela before the first draw            MN-19, MN-21, MC-13
``dealt_show``  show straight from the dealt hand, before the first    MN-20, MN-21
                draw: the sets still needed (or seven dublees)
``draw``        take the top of the stock or the latest discard        MC-14
``show``        after drawing: lay the three pure sets (less the       MN-14, MN-16, MC-15,
                tunnelas laid at the deal) or seven dublees            MC-18
``finish``      after drawing, having shown: the four combinations     D-7, MC-20, MC-21
                (or the eighth dublee) and the last discard
``discard``     end the turn with one card face up                     MC-14
==============  =====================================================  ==================

JSON: ``{"type": "draw", "seat": 2, "source": "stock", "card": "7H"}`` (``card`` optional
for a stock draw: the deck implies it; if given it must match), ``{"type": "discard",
"seat": 2, "card": "7H"}``, ``{"type": "show", "seat": 2, "sets": [["7H","8H","9H"], ...]}``
(a set of two cards is a dublee), ``{"type": "finish", "seat": 2, "groups": [[...], ...],
"discard": "KS"}``; ``"auto": true`` is added only to auto moves.

Text: ``2 draw stock 7H`` / ``2 draw discard 7H`` / ``2 discard 7H`` / ``2 tunnela 7H 7H 7H``
/ ``2 show 7H 8H 9H | 5S 5S 5S | ...`` / ``2 dealt_show ...`` / ``2 finish 3C 4C 5C | ...
/ KS``, with a trailing ``auto`` on auto moves.  :func:`parse_move_text` reads it back.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

from ..cards import Card, parse_card, parse_card_list
from ..errors import MalformedError

STOCK = "stock"
DISCARD = "discard"
SOURCES = (STOCK, DISCARD)

Group = tuple[Card, ...]


def _cards_json(cards: Group) -> list[str]:
    return [str(c) for c in cards]


def _groups_json(groups: tuple[Group, ...]) -> list[list[str]]:
    return [_cards_json(g) for g in groups]


def _groups_text(groups: tuple[Group, ...]) -> str:
    return " | ".join(" ".join(str(c) for c in g) for g in groups)


def _auto_json(d: dict[str, Any], auto: bool) -> dict[str, Any]:
    if auto:
        d["auto"] = True
    return d


def _auto_text(text: str, auto: bool) -> str:
    return text + " auto" if auto else text


@dataclass(frozen=True, slots=True)
class TunnelaShow:
    """Lay one dealt tunnela before the first draw (MN-19, MC-13); costs no draw, no turn."""

    seat: int
    cards: Group
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        return _auto_json({"type": "tunnela", "seat": self.seat, "cards": _cards_json(self.cards)}, self.auto)

    def __str__(self) -> str:
        return _auto_text(f"{self.seat} tunnela " + " ".join(map(str, self.cards)), self.auto)


@dataclass(frozen=True, slots=True)
class DealtShow:
    """Show from the dealt hand before the first draw (MN-20); ``sets`` may be empty when
    three tunnelas are already laid (MN-21).  Sets of two cards are seven dublees."""

    seat: int
    sets: tuple[Group, ...]
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        return _auto_json({"type": "dealt_show", "seat": self.seat, "sets": _groups_json(self.sets)}, self.auto)

    def __str__(self) -> str:
        return _auto_text(f"{self.seat} dealt_show {_groups_text(self.sets)}".rstrip(), self.auto)


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top of the stock (``card`` implied; checked if given) or the latest discard."""

    seat: int
    source: str
    card: Card | None = None
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "draw", "seat": self.seat, "source": self.source}
        if self.card is not None:
            d["card"] = str(self.card)
        return _auto_json(d, self.auto)

    def __str__(self) -> str:
        card = f" {self.card}" if self.card is not None else ""
        return _auto_text(f"{self.seat} draw {self.source}{card}", self.auto)


@dataclass(frozen=True, slots=True)
class Show:
    """After drawing: lay the pure sets still needed for three (MN-14, MC-15), or seven
    dublees (MN-16, MC-18).  Sets of two cards are dublees."""

    seat: int
    sets: tuple[Group, ...]
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        return _auto_json({"type": "show", "seat": self.seat, "sets": _groups_json(self.sets)}, self.auto)

    def __str__(self) -> str:
        return _auto_text(f"{self.seat} show {_groups_text(self.sets)}".rstrip(), self.auto)


@dataclass(frozen=True, slots=True)
class Finish:
    """End play (D-7): ``groups`` are the four combinations (or the eighth dublee, with the
    loose cards not listed) and ``discard`` the last card."""

    seat: int
    groups: tuple[Group, ...]
    discard: Card
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        return _auto_json({"type": "finish", "seat": self.seat, "groups": _groups_json(self.groups),
                           "discard": str(self.discard)}, self.auto)

    def __str__(self) -> str:
        return _auto_text(f"{self.seat} finish {_groups_text(self.groups)} / {self.discard}", self.auto)


@dataclass(frozen=True, slots=True)
class Discard:
    """End the turn with one card face up on the discards (MC-14)."""

    seat: int
    card: Card
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        return _auto_json({"type": "discard", "seat": self.seat, "card": str(self.card)}, self.auto)

    def __str__(self) -> str:
        return _auto_text(f"{self.seat} discard {self.card}", self.auto)


Move = Union[TunnelaShow, DealtShow, Draw, Show, Finish, Discard]


# --- parsing ------------------------------------------------------------------------------

def _field(data: Mapping[str, Any], name: str) -> Any:
    if name not in data:
        raise MalformedError(f"a {data.get('move')} move needs {name!r}", location=name)
    return data[name]


def _card(value: Any, where: str) -> Card:
    try:
        return parse_card(value)
    except MalformedError as exc:
        raise MalformedError(str(exc), location=where) from None


def _group(value: Any, where: str) -> Group:
    if not isinstance(value, list):
        raise MalformedError("expected a list of cards", location=where)
    try:
        return parse_card_list(value)
    except MalformedError:     # find the bad card again, to name where it is
        return tuple(_card(v, f"{where}/{i}") for i, v in enumerate(value))


def _groups(value: Any, where: str) -> tuple[Group, ...]:
    if not isinstance(value, list):
        raise MalformedError("expected a list of card lists", location=where)
    return tuple(_group(v, f"{where}/{i}") for i, v in enumerate(value))


_KEYS = {
    "tunnela": {"cards"}, "dealt_show": {"sets"}, "show": {"sets"}, "draw": {"source", "card"},
    "discard": {"card"}, "finish": {"groups", "discard"},
}


_ALLOWED = {kind: frozenset(keys | {"type", "seat", "auto"}) for kind, keys in _KEYS.items()}
#: the fields a move may have in a hand record: its own and the envelope's ``time``
#: (docs/records.md), which the replay does not read
_ALLOWED_IN_RECORD = {kind: keys | {"time"} for kind, keys in _ALLOWED.items()}


#: parsed draws and discards by their fields (seat, card text or None, auto[, source]; the
#: texts and ``auto`` are keys only once checked to be a ``str`` and a ``bool``): a move is
#: an immutable value, and these two are nearly every move of a round, so each is made
#: once; bounded, since a record may name any seat.
_MADE: dict[tuple[Any, ...], Move] = {}
_MADE_LIMIT = 4096


def _keep(key: tuple[Any, ...], move: Move) -> Move:
    if len(_MADE) < _MADE_LIMIT:
        _MADE[key] = move
    return move


def _parse(data: Mapping[str, Any], allowed: dict[str, frozenset[str]]) -> Move:
    if type(data) is not dict and not isinstance(data, Mapping):
        raise MalformedError("a move must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise MalformedError(f"unknown move {kind!r}; known: {', '.join(_KEYS)}", location="type")
    if not allowed[kind].issuperset(data):
        extra = sorted(set(data) - allowed[kind])
        raise MalformedError(f"a {kind} move has no field {extra[0]!r}", location=extra[0])
    seat = data["seat"] if "seat" in data else _field(data, "seat")
    if type(seat) is not int and (not isinstance(seat, int) or isinstance(seat, bool)) or seat < 0:
        raise MalformedError("seat must be a non-negative integer", location="seat")
    auto = data.get("auto", False)
    if auto is not False and auto is not True:
        raise MalformedError("auto must be true or false", location="auto")
    if kind == "discard":
        text = data["card"] if "card" in data else _field(data, "card")
        if type(text) is str:
            key: tuple[Any, ...] = (seat, text, auto)
            move = _MADE.get(key)
            if move is not None:
                return move
            return _keep(key, Discard(seat, _card(text, "card"), auto))
        return Discard(seat, _card(text, "card"), auto)
    if kind == "draw":
        source = data["source"] if "source" in data else _field(data, "source")
        if not isinstance(source, str) or source not in SOURCES:
            raise MalformedError(f"source must be one of {SOURCES}", location="source")
        text = data.get("card")
        if text is None or type(text) is str:
            key = (seat, text, auto, source)
            move = _MADE.get(key)
            if move is not None:
                return move
            return _keep(key, Draw(seat, source, None if text is None else _card(text, "card"), auto))
        return Draw(seat, source, _card(text, "card"), auto)
    if kind == "tunnela":
        return TunnelaShow(seat, _group(_field(data, "cards"), "cards"), auto)
    if kind == "dealt_show":
        return DealtShow(seat, _groups(_field(data, "sets"), "sets"), auto)
    if kind == "show":
        return Show(seat, _groups(_field(data, "sets"), "sets"), auto)
    return Finish(seat, _groups(_field(data, "groups"), "groups"), _card(_field(data, "discard"), "discard"), auto)


def parse_move(data: Mapping[str, Any]) -> Move:
    """A move from its JSON form; :class:`MalformedError` if it does not parse."""
    return _parse(data, _ALLOWED)


_RECORD_DRAW = _ALLOWED_IN_RECORD["draw"]
_RECORD_DISCARD = _ALLOWED_IN_RECORD["discard"]


def parse_record_move(data: Mapping[str, Any]) -> Move:
    """A move as a hand record holds it: :func:`parse_move` of it without the envelope's
    ``time`` field (ignored, as :func:`replay.replayer.engine_move` drops it), without
    copying it.

    A draw or discard already made (kept in ``_MADE`` by :func:`_parse`, under fields
    whose types it checked first) is answered at once when the move's fields are of those
    same types -- an ``int`` seat, ``str`` texts, ``auto`` absent or a ``bool`` -- and it has
    no other field; anything else, or a move not kept yet, is :func:`_parse`'s to read
    (so every refusal is worded there)."""
    if type(data) is dict:
        kind = data.get("type")
        if kind == "draw":
            seat, text, auto = data.get("seat"), data.get("card"), data.get("auto", False)
            if (type(seat) is int and (text is None or type(text) is str) and (auto is False or auto is True)
                    and _RECORD_DRAW.issuperset(data)):
                source = data.get("source")
                if type(source) is str:
                    move = _MADE.get((seat, text, auto, source))
                    if move is not None:
                        return move
        elif kind == "discard":
            seat, text, auto = data.get("seat"), data.get("card"), data.get("auto", False)
            if (type(seat) is int and type(text) is str and (auto is False or auto is True)
                    and _RECORD_DISCARD.issuperset(data)):
                move = _MADE.get((seat, text, auto))
                if move is not None:
                    return move
    return _parse(data, _ALLOWED_IN_RECORD)


def _text_groups(text: str) -> tuple[Group, ...]:
    text = text.strip()
    if not text:
        return ()
    return tuple(tuple(_card(t, "text") for t in part.split()) for part in text.split("|"))


def parse_move_text(text: str) -> Move:
    """A move from its text form (``str(move)``); :class:`MalformedError` if it does not parse."""
    if not isinstance(text, str):
        raise MalformedError("a move text must be a string")
    words = text.split()
    auto = bool(words) and words[-1] == "auto"
    if auto:
        words = words[:-1]
    if len(words) < 2 or not (words[0].isascii() and words[0].isdigit()):
        raise MalformedError(f"not a move: {text!r} (expected e.g. '2 draw stock')")
    seat, kind, rest = int(words[0]), words[1], words[2:]
    body = " ".join(rest)
    if kind == "tunnela":
        return TunnelaShow(seat, tuple(_card(t, "text") for t in rest), auto)
    if kind == "dealt_show":
        return DealtShow(seat, _text_groups(body), auto)
    if kind == "show":
        return Show(seat, _text_groups(body), auto)
    if kind == "draw" and rest and rest[0] in SOURCES and len(rest) <= 2:
        return Draw(seat, rest[0], _card(rest[1], "text") if len(rest) == 2 else None, auto)
    if kind == "discard" and len(rest) == 1:
        return Discard(seat, _card(rest[0], "text"), auto)
    if kind == "finish" and "/" in body:
        groups, _, last = body.rpartition("/")
        return Finish(seat, _text_groups(groups), _card(last.strip(), "text"), auto)
    raise MalformedError(f"not a move: {text!r}")
