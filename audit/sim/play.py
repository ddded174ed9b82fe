"""Play one hand with bots: the engine decides what is legal, each game's bot chooses."""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any, Mapping

from replay.fairness import HandRandomness
from replay.game import Outcome, engine_for
from replay.stream import Stream

BOTS = {"kitti": "replay.kitti.bot", "rummy13": "replay.rummy.bot", "marriage": "replay.marriage.bot"}


@dataclass(frozen=True)
class PlayedHand:
    moves: tuple[dict[str, Any], ...]
    outcome: Outcome
    turns: int


def play_hand(randomness: HandRandomness, *, dealer: int, carry: Mapping[str, Any], rng: Stream,
              max_moves: int = 20_000) -> PlayedHand:
    """Play a hand to its end with the game's bot; the moves as record JSON."""
    engine = engine_for(randomness.ruleset)
    bot = import_module(BOTS[randomness.ruleset.game])
    state = engine.start(randomness, dealer=dealer, **dict(carry))
    moves = []
    while not engine.is_over(state):
        if len(moves) >= max_moves:
            raise RuntimeError(f"bot hand did not end within {max_moves} moves")
        move = bot.choose_move(engine, state, rng)
        state = engine.apply(state, move)
        moves.append(move.to_json())
    return PlayedHand(tuple(moves), engine.outcome(state), len(moves))
