"""A state as people see it, for the CLI replay and the website: the game's own view.

:func:`render_state` is the game's ``view(state)`` (:class:`replay.game.View`, found
through :mod:`replay.registry` from the engine's game) as JSON, with its text ``lines``.
"""
from __future__ import annotations

from typing import Any

from replay.game import Engine
from replay.registry import game_for


def render_state(engine: Engine, state: Any) -> dict[str, Any]:
    """``view.to_json()`` plus ``lines``, the text ``tiplu replay`` prints."""
    view = game_for(engine.game).view(state)
    return {**view.to_json(), "lines": list(view.lines)}
