"""Marriage moves in words (:mod:`replay.describe`)."""
from __future__ import annotations

from typing import Sequence

from ..cards import card_symbol, cards_symbols
from ..describe import groups_words, seat_name
from ..game import Move
from .moves import DealtShow, Discard, Draw, Finish, Show, TunnelaShow


def describe(move: Move, players: Sequence[str]) -> str:
    who = seat_name(move.seat, players)
    auto = " (played by the table)" if getattr(move, "auto", False) else ""
    if isinstance(move, Draw):
        where = "the stock" if move.source == "stock" else "the discards"
        text = (f"{who} takes {card_symbol(move.card)} from the discards" if move.source != "stock" and move.card is not None
                else f"{who} draws from {where}")
    elif isinstance(move, Discard):
        text = f"{who} discards {card_symbol(move.card)}"
    elif isinstance(move, TunnelaShow):
        text = f"{who} shows a tunnela at the deal: {cards_symbols(move.cards)}"
    elif isinstance(move, DealtShow):
        text = f"{who} shows from the dealt hand: {groups_words(move.sets)}" if move.sets else f"{who} shows (three tunnelas)"
    elif isinstance(move, Show):
        kind = "dublees" if move.sets and all(len(g) == 2 for g in move.sets) else "pure sets"
        text = f"{who} shows {kind}: {groups_words(move.sets)}"
    elif isinstance(move, Finish):
        text = f"{who} finishes: {groups_words(move.groups)}, discards {card_symbol(move.discard)}"
    else:
        text = f"{who}: {move}"
    return text + auto
