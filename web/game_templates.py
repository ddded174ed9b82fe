"""The templates a game brings from its own folder: the hand page's worked point terms
(``Game.worked_template``, a Jinja partial beside the game's package, ``replay/<game>/worked.html``).

``web/templates/_worked.html`` includes ``games/<name>/worked.html``; this loader finds
that name through the registry, so a new game's words are its own and no template of the
site names a game.  A game without one gets the page's plain list of each seat's sum.
"""
from __future__ import annotations

from typing import Callable

import jinja2

from replay.errors import RulesetError
from replay.registry import game_for

PREFIX = "games/"
NAME = "/worked.html"


def worked_template(game: str) -> str | None:
    """The template name of ``game``'s worked point terms, or ``None`` if it has none."""
    try:
        path = game_for(game).worked_template
    except RulesetError:
        return None
    return f"{PREFIX}{game}{NAME}" if path is not None else None


def _load(name: str) -> tuple[str, str, Callable[[], bool]] | None:
    if not (name.startswith(PREFIX) and name.endswith(NAME)):
        return None
    try:
        path = game_for(name[len(PREFIX):-len(NAME)]).worked_template
    except RulesetError:
        return None
    if path is None:
        return None
    mtime = path.stat().st_mtime
    return path.read_text(encoding="utf-8"), str(path), lambda: path.stat().st_mtime == mtime


def loader() -> jinja2.BaseLoader:
    """The loader of ``games/<name>/worked.html`` (add it behind the site's own)."""
    return jinja2.FunctionLoader(_load)


def with_games(base: jinja2.BaseLoader | None) -> jinja2.BaseLoader:
    """``base`` first, then the games' templates."""
    return jinja2.ChoiceLoader([base, loader()] if base is not None else [loader()])
