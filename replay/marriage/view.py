"""A Marriage round as people see it (:class:`replay.game.View`).

``hands`` -- each seat's hand; ``table`` -- the tiplu once turned up, the sets each seat
has laid (tunnelas at the deal first) when any has, the stock (top first) and the discard
pile (oldest first).  The text (``tiplu replay``) shows every seat's hand, the stock and
the discards.
"""
from __future__ import annotations

from typing import Any

from ..game import View, cards_text
from .state import RoundState


def view(state: RoundState) -> View:
    hands = tuple(cards_text(s.hand) for s in state.seats)
    table: dict[str, Any] = {}
    if state.tiplu is not None:
        table["tiplu"] = str(state.tiplu)
    shown = [[list(cards_text(g)) for g in (s.tunnelas_at_deal + s.shown)] for s in state.seats]
    if any(shown):
        table["shown"] = shown
    table["stock"] = list(cards_text(state.stock))
    table["discards"] = list(cards_text(state.discards))
    return View(hands, table, text=("hands", "stock", "discards"))
