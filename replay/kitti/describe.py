"""Kitti moves in words (:mod:`replay.describe`)."""
from __future__ import annotations

from typing import Any, Sequence

from ..describe import groups_words, seat_name
from .moves import Arrange, Fold


def describe(move: Any, players: Sequence[str]) -> str:
    who = seat_name(move.seat, players)
    if isinstance(move, Fold):
        return f"{who} folds"
    if isinstance(move, Arrange):
        how = " (arranged by the table)" if move.auto else ""
        return f"{who} arranges three sets, strongest first: {groups_words(move.sets)}{how}"
    return f"{who}: {move}"
