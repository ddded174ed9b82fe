"""Ground truth for the collusion review: bot tables, with planted superusers, played in
memory (no ledger, no signatures) so power and false-positive rates can be measured on
thousands of hands (``bench/collusion.py``, ``docs/collusion.md``).

The hands are dealt by the v1 protocol from labelled simulator streams and played by the
simulator's bots exactly as ``tiplu simulate`` plays them (:func:`audit.operator.sim.play.play_hand`);
their observations are the ones ``tiplu collusion`` would make of the published records,
by the same functions (:func:`audit.auditor.collusion.observe.decision_observations`).
"""
from __future__ import annotations

from typing import Mapping

from replay.fairness import hand_randomness
from replay.registry import game_for
from replay.rulesets import resolve
from replay.settlement import settle
from decimal import Decimal

from .observe import Observations, add_hand, decision_observations
from ...operator.sim.play import play_hand
from ...operator.sim.tables import SimStreams


def account(table: int, seat: int) -> str:
    """The account in ``seat`` of table ``table``: every table has its own players."""
    return f"t{table}-s{seat}"


def played_observations(preset: str, *, tables: int, players: int, hands: int, seed: str,
                        peek: Mapping[tuple[int, int], int] | None = None) -> Observations:
    """Play ``tables`` tables of ``hands`` hands each and observe every decision.
    ``peek`` maps ``(table, seat)`` to how often, per mille, that seat plays as a superuser."""
    ruleset = resolve(preset)
    game = game_for(ruleset.game)
    out = Observations()
    for t in range(tables):
        sim = SimStreams(f"{seed}/t{t}")
        names = [account(t, s) for s in range(players)]
        seat_peek = {s: k for (tt, s), k in (peek or {}).items() if tt == t}
        carry = dict(game.carry)
        dealer = players - 1
        for h in range(hands):
            hand_id = f"t{t}-h{h:05d}"
            randomness = hand_randomness(sim.bytes(f"server:{hand_id}", 32), hand_id, ruleset,
                                         [sim.bytes(f"player:{hand_id}:{s}", 16) for s in range(players)])
            played = play_hand(randomness, dealer=dealer, carry=carry, rng=sim.stream(f"bot:{hand_id}"),
                               peek=seat_peek or None)
            engine = game.engine(ruleset)
            state = engine.start(randomness, dealer=dealer, **game.table_options(carry))
            steps = []
            for i, raw in enumerate(played.moves):
                move = game.parse_move_json(raw)
                steps.append((i, state, move))
                state = engine.apply(state, move)
            found = decision_observations(game, engine, hand_id, steps)
            nets = settle(played.outcome.net_points, point_value=Decimal("0.25"), commission_pct=Decimal("5"),
                          pot_delta_points=played.outcome.pot_delta_points).nets
            add_hand(out, preset, names, found, nets)
            carry = game.next_carry(carry, played.outcome)
            dealer = (dealer + 1) % players
    return out
