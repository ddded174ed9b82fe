"""A Kitti deal as people see it (:class:`replay.game.View`): each seat's nine cards."""
from __future__ import annotations

from ..game import View, cards_text
from .engine import KittiState


def view(state: KittiState) -> View:
    hands = tuple(cards_text(h) for h in state.hands)
    return View(hands, {}, text=("hands",))
