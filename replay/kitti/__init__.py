"""Kitti: nine cards, three sets, one decision (rules ``K-1`` ... ``K-22``, ``D-12`` ... ``D-17``).

See ``docs/kitti.md``.  Modules: :mod:`.ranking` (sets), :mod:`.arrangement` (the 280
splits), :mod:`.showdown` (settling a deal in points), :mod:`.moves`, :mod:`.engine`
(the :class:`replay.game.Engine` protocol), :mod:`.strategy` (default arrangement),
:mod:`.table` (a sequence of deals, money), :mod:`.view` (a deal as people see it),
:mod:`.eval_requests` (the answers to ``tiplu eval kitti``'s requests).

This package exports the game as one object, :data:`GAME` (:class:`replay.game.Game`).
A table carries its pot from hand to hand (``table.carry`` = ``{"pot_before": points}``, D-14).
"""
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from ..game import DealLayout, Game, Outcome
from .describe import describe
from .engine import KittiEngine
from .eval_requests import evaluate
from .moves import parse_move, parse_move_text
from .signals import hidden_signals
from .view import view
from . import worked

def carry_after(carry: Mapping[str, Any], outcome: Outcome) -> dict[str, Any]:
    """D-14: the pot the next deal starts with is this deal's pot plus its change."""
    return {"pot_before": carry["pot_before"] + outcome.pot_delta_points}


GAME = Game(name="kitti", engine=KittiEngine, parse_move_json=parse_move,
            parse_move_text=parse_move_text, view=view,
            deal_layout=DealLayout(stock_label="Undealt, never used", stock_title="Undealt cards"),    # K-1: nothing is turned up
            eval_handlers=evaluate, describe_move=describe, carry=MappingProxyType({"pot_before": 0}), carry_after=carry_after,
            hidden_signals=hidden_signals, worked_template=Path(__file__).with_name("worked.html"), worked_heading=worked.heading)
