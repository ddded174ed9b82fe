"""Moves in words, for people: ``"chandra draws from the stock"``, ``"discards 5♠"``.

Each game's ``GAME.describe_move(move, players)`` is its own module ``replay/<game>/describe.py``;
:func:`describe_move` is the one entry point the website's replay viewer and ``tiplu replay``
share.  Cards are written with suit symbols (:func:`replay.cards.card_symbol`).  The words
are for reading only: a record's notation is the move's ``str`` and JSON.
"""
from __future__ import annotations

from typing import Any, Sequence


def seat_name(seat: int, players: Sequence[str]) -> str:
    return players[seat] if 0 <= seat < len(players) else f"seat {seat}"


def groups_words(groups: Sequence[Sequence[Any]]) -> str:
    from .cards import cards_symbols
    return " | ".join(cards_symbols(g) for g in groups)


def describe_move(engine: Any, move: Any, players: Sequence[str]) -> str:
    """``move`` in words, by the engine's game's describer (its notation if it has none)."""
    from .registry import game_for

    if move is None:
        return ""
    describe = game_for(engine.game).describe_move
    return str(move) if describe is None else describe(move, players)
