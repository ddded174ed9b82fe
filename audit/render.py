"""A state as people see it, for the CLI replay and the website: the game's own view.

:func:`render_state` is the game's ``view(state)`` (:class:`replay.game.View`, found
through :mod:`replay.registry` from the engine's game) as ``tiplu replay`` shows it: the
parts its text shows, and the text ``lines``.  The website draws ``view.to_json()``.
"""
from __future__ import annotations

from typing import Any

from replay.game import Engine
from replay.registry import game_for


def render_state(engine: Engine, state: Any) -> dict[str, Any]:
    """``view.text_json()`` plus ``lines``, the text ``tiplu replay`` prints."""
    view = game_for(engine.game).view(state)
    return {**view.text_json(), "lines": view.lines()}
