"""A Rummy deal as people see it (:class:`replay.game.View`).

``hands`` -- each seat's hand; ``table`` -- the wild-card indicator, the wild rank (none
when the indicator is a joker), the closed pile (top first) and the open pile (oldest
first).  The text (``tiplu replay``) shows the hands and the open pile.
"""
from __future__ import annotations

from typing import Any

from ..game import View, cards_text
from .engine import RummyState

RANK_TEXT = "A23456789TJQK"


def view(state: RummyState) -> View:
    hands = tuple(cards_text(h) for h in state.hands)
    table: dict[str, Any] = {"indicator": str(state.indicator)}
    if state.wild is not None:
        table["wild_rank"] = RANK_TEXT[state.wild - 1]
    table["closed_pile"] = list(cards_text(state.closed))
    table["open_pile"] = list(cards_text(state.open_pile))
    return View(hands, table, text=("hands", "open_pile"))
