"""The one registry of games: every preset, and the package whose ``GAME`` plays it.

A game is one folder, ``replay/<game>/``, whose ``__init__.py`` exports one
:class:`~replay.game.Game` as ``GAME`` (engine, move parsers, ``view``, deal layout, eval
handlers, carry) and whose ``presets/`` folder declares its presets: one JSON file per
preset (``replay/marriage/presets/nepal.json`` declares ``"preset": "marriage/nepal"``,
``"game": "marriage"``), and ``order.json`` -- ``{"position": 1, "presets": [...], "demo": {...}}``,
the folder's presets in the order tiplu lists them, the game's place among the games and,
optionally, each preset's tables in ``tiplu demo``'s archive (:func:`demo_tables`).
The registry finds the games by scanning ``replay/``'s folders for a ``presets/`` folder;
there is no central list to edit.  Everything that needs a game --
:func:`replay.game.engine_for`, :func:`replay.deal.deal`,
:func:`replay.replayer.replay_record`, ``tiplu eval``, the renderers -- finds it here from
the preset's ``game``; a game's package is imported only when it is first needed (reading
the presets imports nothing).

Adding a game: its folder.  A game outside ``replay/`` (a test's toy game) is added at run
time by :func:`register`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module, resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping, TypeGuard

from .errors import RulesetError

if TYPE_CHECKING:
    from .game import Game

ORDER_FILE = "order.json"   # in each game's presets/ folder


@dataclass(frozen=True)
class _Builtin:
    package: str                      # "replay.marriage"
    spec: Mapping[str, Any]           # the preset's declaration, as its file holds it
    demo: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))   # its order.json "demo" entry


@cache
def _builtins() -> dict[str, _Builtin]:
    return scan(resources.files(__package__), __package__)


def scan(root: Any, package: str) -> dict[str, _Builtin]:
    """Every preset declared in a ``<root>/<game>/presets/`` folder (``root`` the folder of
    ``package``, a path or a :mod:`importlib.resources` traversable), in listing order: games
    by ``position`` (then folder name), each game's presets in its ``order.json`` order.
    Reads the declarations only; imports nothing.  :class:`RulesetError` if a folder's files
    and its ``order.json`` disagree, a folder declares two games, or two files or two
    games declare one preset."""
    games = []
    for folder in root.iterdir():
        presets_dir = folder / "presets"
        if not folder.is_dir() or not presets_dir.is_dir():
            continue
        where = f"{package.replace('.', '/')}/{folder.name}/presets"
        try:
            order = json.loads((presets_dir / ORDER_FILE).read_text(encoding="utf-8"))
            declared = [json.loads(f.read_text(encoding="utf-8"))
                        for f in sorted(presets_dir.iterdir(), key=lambda f: f.name)
                        if f.name.endswith(".json") and f.name != ORDER_FILE]
            specs = {spec["preset"]: spec for spec in declared}
            position, listed, demo = order["position"], order["presets"], order.get("demo", {})
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise RulesetError(f"{where}: cannot read the presets ({exc})") from None
        if len(specs) != len(declared):
            raise RulesetError(f"{where}: two files declare one preset")
        if sorted(listed) != sorted(specs):
            raise RulesetError(f"{where}/{ORDER_FILE} lists {listed}, the folder declares {sorted(specs)}")
        if len({s["game"] for s in specs.values()}) != 1:
            raise RulesetError(f"{where}: one folder is one game, not {sorted({s['game'] for s in specs.values()})}")
        if not set(demo) <= set(specs):
            raise RulesetError(f"{where}/{ORDER_FILE}: a demo for {sorted(set(demo) - set(specs))}, not a preset here")
        games.append((position, folder.name, [(p, _Builtin(f"{package}.{folder.name}", specs[p],
                                                           MappingProxyType(demo.get(p, {})))) for p in listed]))
    out: dict[str, _Builtin] = {}
    for _, _, entries in sorted(games, key=lambda g: (g[0], g[1])):
        for preset, builtin in entries:
            if preset in out:
                raise RulesetError(f"preset {preset!r} is declared by two games")
            out[preset] = builtin
    return out


_registered_specs: dict[str, Mapping[str, Any]] = {}   # presets added by register()
_registered_games: dict[str, "Game"] = {}


def presets() -> tuple[str, ...]:
    """Every known preset: the built-in ones in order, then any registered at run time."""
    return tuple(_builtins()) + tuple(p for p in _registered_specs if p not in _builtins())


def is_preset(preset: object) -> TypeGuard[str]:
    """Whether ``preset`` names a known preset (so it is a string)."""
    return isinstance(preset, str) and (preset in _builtins() or preset in _registered_specs)


def load_preset_spec(preset: str) -> Mapping[str, Any]:
    """The declaration of a known preset (see :func:`replay.rulesets.preset_spec`)."""
    if preset in _registered_specs:
        return _registered_specs[preset]
    return _builtins()[preset].spec


def demo_tables(preset: str) -> Mapping[str, Any]:
    """The preset's tables in ``tiplu demo``'s archive, from its game's ``order.json``:
    ``{"tables": [[players, hands], ...], "small": [players, hands]}`` (``--small``); empty for
    a preset with none (a game registered at run time)."""
    builtin = _builtins().get(preset)
    return builtin.demo if builtin is not None else MappingProxyType({})


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
    for builtin in _builtins().values():
        if builtin.spec["game"] == name:
            package = builtin.package
            game: Game = import_module(package).GAME
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
    ``replay/<game>/presets`` file would hold it).  :class:`RulesetError` if a name is taken or a
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


def _builtin_names() -> frozenset[str]:
    return _builtin_game_names()


@cache
def _builtin_game_names() -> frozenset[str]:
    return frozenset(b.spec["game"] for b in _builtins().values())


def is_game(name: Any) -> bool:
    """Whether ``name`` is a known game's name (built in, or registered at run time)."""
    return isinstance(name, str) and (name in _builtin_game_names() or name in _registered_games)
