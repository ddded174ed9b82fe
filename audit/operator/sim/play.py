"""Play one hand with bots: the engine decides what is legal, each game's bot chooses."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from replay.fairness import HandRandomness
from replay.game import Outcome
from replay.registry import game_for
from replay.stream import Stream

from .bots import bot_for

if TYPE_CHECKING:
    from audit.operator.ledger import Ledger


@dataclass(frozen=True)
class PlayedHand:
    moves: tuple[dict[str, Any], ...]
    outcome: Outcome
    turns: int


def play_hand(randomness: HandRandomness, *, dealer: int, carry: Mapping[str, Any], rng: Stream,
              max_moves: int = 20_000, peek: Mapping[int, int] | None = None,
              collude: Mapping[int, tuple[int, int]] | None = None, peek_role: str = "peeking") -> PlayedHand:
    """Play a hand to its end with the game's bot (:func:`audit.operator.sim.bots.bot_for`); the
    moves as record JSON.  ``peek`` maps a seat to how often, per mille of its decisions,
    it plays as a superuser that sees the hidden cards (:func:`~audit.operator.sim.bots.bot_for`, role ``peeking``).
    ``collude`` maps a seat to ``(partner, per mille)``: how often it plays knowing its
    partner's hand (:func:`audit.operator.sim.bots.bot_for`, role ``colluding``).  ``peek_role``:
    which superuser peeks (``joker_peeking``: Marriage's joker hunter)."""
    game = game_for(randomness.ruleset.game)
    engine = game.engine(randomness.ruleset)
    choose_move = bot_for(game.name)
    peeking = bot_for(game.name, peek_role) if peek else None
    colluding = bot_for(game.name, "colluding") if collude else None
    state = engine.start(randomness, dealer=dealer, **game.table_options(carry))
    moves: list[dict[str, Any]] = []
    while not engine.is_over(state):
        if len(moves) >= max_moves:
            raise RuntimeError(f"bot hand did not end within {max_moves} moves")
        seat = engine.to_move(state)
        if peeking is not None and peek is not None and seat is not None and seat in peek \
                and rng.randbelow(1000) < peek[seat]:
            move = peeking(engine, state, rng)
        elif colluding is not None and collude is not None and seat is not None and seat in collude \
                and rng.randbelow(1000) < collude[seat][1]:
            move = colluding(engine, state, rng, collude[seat][0])
        else:
            move = choose_move(engine, state, rng)
        state = engine.apply(state, move)
        moves.append(move.to_json())
    return PlayedHand(tuple(moves), engine.outcome(state), len(moves))



def bot_moves(ledger: Ledger, hand_id: str) -> list[dict[str, Any]]:
    """OPERATOR ONLY (it deals with the private server seed): the moves the game's bot plays
    in dealt hand ``hand_id`` of ``ledger`` -- for trying the CLI without a game server
    (``tiplu hand bot-moves``; the README's walk-through)."""
    import hashlib

    from ..finishing import table_place

    view = ledger.get_hand(hand_id)
    carry, _ = table_place(ledger, view.id, view.table_id)
    key = hashlib.sha256(b"tiplu/bot-moves/v1/" + view.id.encode("utf-8")).digest()
    rng = Stream(key, hashlib.sha256(b"tiplu/bot-moves/v1/material").digest(), f"bot:{view.id}")
    played = play_hand(ledger.operator_randomness(view.id), dealer=view.dealer, carry=carry, rng=rng)
    return list(played.moves)
