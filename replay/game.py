"""The one small interface every game engine implements, and the registry of games.

An engine is built from a resolved :class:`~replay.rulesets.Ruleset` and is otherwise
stateless: game state is an immutable value (or confined to the engine's own copy) and
``apply`` returns the next state, so a replay can stop, branch and resume anywhere.

    engine = engine_for(ruleset)
    state = engine.start(randomness, dealer=0)         # deal from the v1 shoe
    while not engine.is_over(state):
        seat = engine.to_move(state)
        move = choose(engine.legal_moves(state))
        state = engine.apply(state, move)              # IllegalMoveError if not allowed
    outcome = engine.outcome(state)                     # points, breakdown, net points

Moves are frozen values with a JSON form (``engine.parse_move(d)`` / ``move.to_json()``)
and a text form (``str(move)``); both round-trip.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

from .errors import RulesetError
from .fairness import HandRandomness
from .rulesets import Ruleset


@dataclass(frozen=True)
class Outcome:
    """How a hand ended, in points.

    ``points`` -- each seat's game score (maal for Marriage, counted points for Rummy,
    rounds won for Kitti); ``net_points`` -- what each seat gains (+) or pays (-) in
    points, which with ``pot_delta_points`` sums to zero; ``winner`` -- the seat that
    finished / declared / took the pot, or ``None``; ``breakdown`` -- per seat, the JSON
    detail an auditor or the website shows (maal items, groups, rounds ...).
    """

    points: tuple[int, ...]
    net_points: tuple[int, ...]
    winner: int | None
    breakdown: tuple[Mapping[str, Any], ...] = ()
    pot_delta_points: int = 0
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "net_points": list(self.net_points),
            "winner": self.winner,
            "breakdown": [dict(b) for b in self.breakdown],
            "pot_delta_points": self.pot_delta_points,
            "detail": dict(self.detail),
        }


@runtime_checkable
class Move(Protocol):
    seat: int

    def to_json(self) -> dict[str, Any]: ...


@runtime_checkable
class Engine(Protocol):
    """What every game engine provides."""

    game: str
    ruleset: Ruleset

    def start(self, randomness: HandRandomness, *, dealer: int, **table: Any) -> Any:
        """The state right after the deal."""

    def to_move(self, state: Any) -> int | None:
        """The seat expected to act next, or ``None`` when the hand is over."""

    def legal_moves(self, state: Any) -> Sequence[Move]:
        """Every move the rules allow now (for bots and for tests)."""

    def apply(self, state: Any, move: Move) -> Any:
        """The state after ``move``; :class:`~replay.errors.IllegalMoveError` if not allowed."""

    def is_over(self, state: Any) -> bool: ...

    def outcome(self, state: Any) -> Outcome: ...

    def parse_move(self, data: Mapping[str, Any]) -> Move:
        """A move from its JSON form; :class:`~replay.errors.MalformedError` if it does not parse."""


# game name -> "module:class"; imported on first use so that a game's module loads only when needed.
GAMES: dict[str, str] = {
    "kitti": "replay.kitti.engine:KittiEngine",
    "rummy13": "replay.rummy.engine:RummyEngine",
    "marriage": "replay.marriage.engine:MarriageEngine",
}


def engine_for(ruleset: Ruleset) -> Engine:
    """The engine of the ruleset's game."""
    try:
        target = GAMES[ruleset.game]
    except KeyError:
        raise RulesetError(f"no engine for game {ruleset.game!r}") from None
    module, name = target.split(":")
    return getattr(import_module(module), name)(ruleset)
