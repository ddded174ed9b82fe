"""Rulesets as data (D-1).

A preset is a JSON file in its game's folder, ``replay/<game>/presets/`` (found by
:mod:`replay.registry`, the one registry of games and their presets): every setting is
declared there once, with its default, its rule ID and a sentence of documentation
(``docs/rulesets.md`` is made from those files and a test checks that it is current).  A *resolved* ruleset is the
preset's defaults with a table's overrides applied; its canonical JSON hash is bound into
the hand's commitment, so rules cannot change after the deal.

    >>> rs = resolve("kitti", {"win_rule": "consecutive"})
    >>> rs["win_rule"], len(rs.hash)
    ('consecutive', 64)
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Mapping

from .canonical import canonical_hash, canonical_json
from .errors import RulesetError
from .registry import is_preset, load_preset_spec, presets

RULESET_FORMAT = "tiplu.ruleset/1"
PRESETS: tuple[str, ...] = presets()  # the built-in presets, in listing order (replay.registry)
MAX_SAFE_INTEGER = 2**53 - 1  # the in-browser verifier reads settings with JSON.parse


def preset_spec(preset: object) -> Mapping[str, Any]:
    """The declaration of a preset: title, game, and each setting's default, rule and doc."""
    if not is_preset(preset):
        raise RulesetError(f"unknown preset {str(preset)[:64]!r}; known: {', '.join(presets())}")
    return load_preset_spec(preset)


def _json_type(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def _check_value(name: str, spec: Mapping[str, Any], value: Any) -> None:
    default = spec["default"]
    if _json_type(value) != _json_type(default):
        raise RulesetError(f"setting {name!r} must be a JSON {_json_type(default)}, got {_json_type(value)}")
    if "choices" in spec and value not in spec["choices"]:
        raise RulesetError(f"setting {name!r} must be one of {spec['choices']}, got {value!r}")
    if "min" in spec and value < spec["min"]:
        raise RulesetError(f"setting {name!r} must be at least {spec['min']}, got {value!r}")
    if "max" in spec and value > spec["max"]:
        raise RulesetError(f"setting {name!r} must be at most {spec['max']}, got {value!r}")
    _check_shape(name, default, value)
    try:
        canonical_json(value)
    except ValueError as exc:
        raise RulesetError(f"setting {name!r}: {exc}") from None
    if not _safe_integers(value):
        raise RulesetError(f"setting {name!r}: integers must lie within +-(2**53 - 1) (JavaScript reads them exactly)")


def _check_shape(name: str, default: Any, value: Any, path: str = "") -> None:
    """A nested setting has its default's shape: the same keys in every object, and array
    elements of the default's first element's shape (so an engine never meets a missing key)."""
    where = f"setting {name!r}" + (f" at {path}" if path else "")
    if _json_type(value) != _json_type(default):
        raise RulesetError(f"{where} must be a JSON {_json_type(default)}, got {_json_type(value)}")
    if isinstance(default, dict):
        if set(value) != set(default):
            raise RulesetError(f"{where} must have exactly the keys {sorted(default)}")
        for k in default:
            _check_shape(name, default[k], value[k], f"{path}.{k}")
    elif isinstance(default, list) and default:
        for i, v in enumerate(value):
            _check_shape(name, default[0], v, f"{path}[{i}]")


def _safe_integers(value: Any) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        return -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER
    if isinstance(value, dict):
        return all(_safe_integers(v) for v in value.values())
    if isinstance(value, list):
        return all(_safe_integers(v) for v in value)
    return True


@dataclass(frozen=True)
class Ruleset:
    """A resolved ruleset: a preset and the value of every one of its settings.

    Immutable by convention below the top level: ``settings`` is a read-only mapping, but
    nested lists and objects are plain JSON values shared with every reader -- never
    mutate them (``to_json()`` returns a private copy).
    """

    preset: str
    game: str
    settings: Mapping[str, Any] = field(repr=False, compare=False)

    def __getitem__(self, name: str) -> Any:
        return self.settings[name]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ruleset) and self.hash == other.hash

    def __hash__(self) -> int:
        return hash(self.hash)

    def to_json(self) -> dict[str, Any]:
        return {"format": RULESET_FORMAT, "preset": self.preset, "game": self.game,
                "settings": json.loads(json.dumps(dict(self.settings)))}

    @cached_property
    def hash(self) -> str:
        """Hex SHA-256 of the canonical JSON of :meth:`to_json`."""
        return canonical_hash(self.to_json())

    def overrides(self) -> dict[str, Any]:
        """The settings that differ from the preset's defaults."""
        spec = preset_spec(self.preset)["settings"]
        return {k: v for k, v in self.settings.items() if v != spec[k]["default"]}

    def __repr__(self) -> str:
        return f"resolve({self.preset!r}, {self.overrides()!r})"

    @classmethod
    def from_json(cls, data: Any) -> "Ruleset":
        """Validate a resolved ruleset as found in a hand record."""
        if not isinstance(data, dict) or data.get("format") != RULESET_FORMAT:
            raise RulesetError(f"a ruleset must be an object with format {RULESET_FORMAT!r}")
        spec = preset_spec(data.get("preset"))
        if data.get("game") != spec["game"]:
            raise RulesetError(f"preset {data['preset']!r} is game {spec['game']!r}, not {data.get('game')!r}")
        settings = data.get("settings")
        if not isinstance(settings, dict) or set(settings) != set(spec["settings"]):
            raise RulesetError(f"a ruleset must give every setting of {data['preset']!r} and no other")
        return resolve(data["preset"], settings)


def resolve(preset: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The preset's defaults with ``overrides`` applied and validated."""
    spec = preset_spec(preset)
    settings = {name: s["default"] for name, s in spec["settings"].items()}
    if overrides is not None and not isinstance(overrides, Mapping):
        raise RulesetError("settings overrides must be a JSON object")
    for name, value in (overrides or {}).items():
        if name not in settings:
            raise RulesetError(f"preset {preset!r} has no setting {name!r}")
        _check_value(name, spec["settings"][name], value)
        settings[name] = value
    frozen = json.loads(json.dumps(settings))  # a private deep copy
    return Ruleset(preset, spec["game"], MappingProxyType(frozen))


def allowed_players(ruleset: Ruleset) -> tuple[int, ...]:
    """The table sizes a ruleset allows."""
    p = ruleset["players"]
    if "allowed" in p:
        return tuple(sorted(p["allowed"]))
    return tuple(range(p["min"], p["max"] + 1))
