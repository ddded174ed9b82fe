"""The one registry of games: every preset, and the package whose ``GAME`` plays it.

A game is one folder, ``replay/<game>/``, whose ``__init__.py`` exports one
:class:`~replay.game.Game` as ``GAME`` (engine, move parsers, ``view``, deal layout, eval
handlers, carry).  A preset is declared in ``replay/presets/<preset, "/" as "-">.json``,
which names its game.  Everything that needs a game -- :func:`replay.game.engine_for`,
:func:`replay.deal.deal`, :func:`replay.replayer.replay_record`, ``tiplu eval``, the
renderers -- finds it here from the preset's ``game``; a game's package is imported only
when it is first needed.

Adding a game: its folder, its preset files, and one line in :data:`PRESET_PACKAGES`.
A game outside ``replay/`` (a test's toy game) is added at run time by :func:`register`.
"""
from __future__ import annotations

import json
from functools import cache
from importlib import import_module, resources
from typing import TYPE_CHECKING, Any, Mapping

from .errors import RulesetError

if TYPE_CHECKING:
    from .game import Game

# preset -> the package whose GAME plays it, in the order tiplu lists presets.
PRESET_PACKAGES: dict[str, str] = {
    "marriage/nepal": "replay.marriage",
    "marriage/classic": "replay.marriage",
    "kitti": "replay.kitti",
    "rummy13": "replay.rummy",
}

_registered_specs: dict[str, Mapping[str, Any]] = {}   # presets added by register()
_registered_games: dict[str, "Game"] = {}


def presets() -> tuple[str, ...]:
    """Every known preset: the built-in ones in order, then any registered at run time."""
    return tuple(PRESET_PACKAGES) + tuple(p for p in _registered_specs if p not in PRESET_PACKAGES)


def is_preset(preset: Any) -> bool:
    return isinstance(preset, str) and (preset in PRESET_PACKAGES or preset in _registered_specs)


def preset_file(preset: str) -> str:
    """The file name of a built-in preset's declaration in ``replay/presets/``."""
    return preset.replace("/", "-") + ".json"


def load_preset_spec(preset: str) -> Mapping[str, Any]:
    """The declaration of a known preset (see :func:`replay.rulesets.preset_spec`)."""
    if preset in _registered_specs:
        return _registered_specs[preset]
    return _builtin_spec(preset)


@cache
def _builtin_spec(preset: str) -> Mapping[str, Any]:
    text = resources.files("replay.presets").joinpath(preset_file(preset)).read_text(encoding="utf-8")
    return json.loads(text)


def game_for(name: str) -> "Game":
    """The game called ``name`` (a ruleset's ``game``); :class:`RulesetError` if none is."""
    game = _registered_games.get(name)
    if game is None:
        game = _builtin_game(name) if isinstance(name, str) else None
    if game is None:
        raise RulesetError(f"no engine for game {name!r}")
    return game


@cache
def _builtin_game(name: str) -> "Game | None":
    for preset, package in PRESET_PACKAGES.items():
        if _builtin_spec(preset)["game"] == name:
            game = import_module(package).GAME
            if game.name != name:
                raise RulesetError(f"{package}.GAME is game {game.name!r}, not {name!r}")
            return game
    return None


def game_names() -> tuple[str, ...]:
    """Every known game's name, in preset order."""
    names = [load_preset_spec(p)["game"] for p in presets()]
    return tuple(dict.fromkeys(names))


def register(game: "Game", presets: Mapping[str, Mapping[str, Any]]) -> None:
    """Add a game from outside ``replay/`` and its presets (each preset's declaration, as a
    ``replay/presets`` file would hold it).  :class:`RulesetError` if a name is taken or a
    declaration names another game."""
    if game.name in _registered_games or game.name in _builtin_names():
        raise RulesetError(f"game {game.name!r} is already registered")
    for preset, spec in presets.items():
        if is_preset(preset):
            raise RulesetError(f"preset {preset!r} is already registered")
        if spec.get("preset") != preset or spec.get("game") != game.name:
            raise RulesetError(f"preset {preset!r} must declare itself and game {game.name!r}")
    _registered_games[game.name] = game
    for preset, spec in presets.items():
        _registered_specs[preset] = json.loads(json.dumps(spec))


def unregister(name: str) -> None:
    """Remove a game added by :func:`register`, and its presets (for tests)."""
    _registered_games.pop(name, None)
    for preset in [p for p, s in _registered_specs.items() if s["game"] == name]:
        del _registered_specs[preset]


def _builtin_names() -> set[str]:
    return {_builtin_spec(p)["game"] for p in PRESET_PACKAGES}
