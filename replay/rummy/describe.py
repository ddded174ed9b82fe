"""13-card Rummy moves in words (:mod:`replay.describe`)."""
from __future__ import annotations

from typing import Any, Sequence

from ..cards import card_symbol
from ..describe import groups_words, seat_name
from .moves import Declare, Discard, Drop, Pick


def describe(move: Any, players: Sequence[str]) -> str:
    who = seat_name(move.seat, players)
    auto = " (played by the table)" if getattr(move, "auto", False) else ""
    if isinstance(move, Pick):
        if move.source == "closed":
            text = f"{who} picks from the closed pile"
        else:
            card = f" {card_symbol(move.card)}" if move.card is not None else ""
            text = f"{who} picks{card} from the open pile"
    elif isinstance(move, Discard):
        text = f"{who} discards {card_symbol(move.card)}"
    elif isinstance(move, Declare):
        text = f"{who} declares, {card_symbol(move.finish_card)} face down: {groups_words(move.groups)}"
    elif isinstance(move, Drop):
        text = f"{who} drops" + (" (dropped by the table)" if move.auto else "")
        auto = ""
    else:
        text = f"{who}: {move}"
    return text + auto
