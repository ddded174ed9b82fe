"""Ground truth for the collusion review: bot tables, with planted superusers, played in
memory (no ledger, no signatures) so power and false-positive rates can be measured on
thousands of hands (``bench/collusion.py``, ``docs/collusion.md``).

The hands are dealt by the v1 protocol from labelled simulator streams and played by the
simulator's bots exactly as ``tiplu simulate`` plays them (:func:`audit.operator.sim.play.play_hand`);
their observations are the ones ``tiplu collusion`` would make of the published records,
by the same functions (:func:`audit.auditor.collusion.observe.decision_observations`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

from replay.fairness import hand_randomness
from replay.registry import game_for
from replay.rulesets import resolve
from replay.settlement import settle
from decimal import Decimal

from .observe import HandPart, Observations, add_part, decision_observations
from .pair_signals import hand_pair_observations
from ...operator.sim.play import play_hand
from ...operator.sim.tables import SimStreams


@dataclass
class _Table:
    """One simulated table of the run: its number, streams, accounts, cheats, and where its play stands."""

    table: int
    sim: SimStreams
    names: tuple[str, ...]
    peek: dict[int, int] | None  # seat -> per mille of decisions it peeks
    collude: dict[int, tuple[int, int]] | None  # seat -> (partner, per mille)
    carry: Mapping[str, Any]
    dealer: int


def account(table: int, seat: int) -> str:
    """The account in ``seat`` of table ``table``: every table has its own players."""
    return f"t{table}-s{seat}"


def played_observations(preset: str, *, tables: int, players: int, hands: int, seed: str,
                        peek: Mapping[tuple[int, int], int] | None = None,
                        collude: Mapping[int, tuple[int, int, int]] | None = None,
                        peek_role: str = "peeking", table_ids: Sequence[int] | None = None) -> Observations:
    """Play ``tables`` tables of ``hands`` hands each and observe every decision.
    ``peek`` maps ``(table, seat)`` to how often, per mille, that seat plays as a superuser;
    ``collude`` maps a table to ``(seat, seat, per mille)``: a colluding pair at it
    (:mod:`audit.operator.sim.collude`); ``peek_role``: which superuser peeks
    (:func:`audit.operator.sim.bots.bot_for`); ``table_ids``: play only these of the tables
    (each table's hands depend on its number alone, so a run can be split across processes)."""
    out = Observations()
    for _t, _h, part in played_parts(preset, tables=tables, players=players, hands=hands, seed=seed,
                                     peek=peek, collude=collude, peek_role=peek_role, table_ids=table_ids):
        add_part(out, part)
    return out


def played_parts(preset: str, *, tables: int, players: int, hands: int, seed: str,
                 peek: Mapping[tuple[int, int], int] | None = None,
                 collude: Mapping[int, tuple[int, int, int]] | None = None,
                 peek_role: str = "peeking",
                 table_ids: Sequence[int] | None = None) -> Iterator[tuple[int, int, HandPart]]:
    """:func:`played_observations` hand by hand: ``(table, hand, its part of the review)``,
    hand by hand across the tables (``bench/collusion_pairs.py`` reviews prefixes of one long run)."""
    for hand in played_hands(preset, tables=tables, players=players, hands=hands, seed=seed, peek=peek,
                             collude=collude, peek_role=peek_role, table_ids=table_ids):
        found = decision_observations(hand.game, hand.engine, hand.hand_id, hand.steps)
        pairs = hand_pair_observations(hand.game, hand.engine, hand.hand_id, hand.steps, hand.nets)
        yield hand.table, hand.hand, HandPart(preset, hand.names, tuple(found), hand.nets, pairs)


@dataclass(frozen=True)
class PlayedHand:
    """One simulated hand before it is observed: where it was played, its steps ``(index, state
    the move was made in, move)`` and its settled nets."""

    table: int
    hand: int
    hand_id: str
    names: tuple[str, ...]
    game: Any
    engine: Any
    steps: tuple[tuple[int, Any, Any], ...]
    nets: tuple[Decimal, ...]


def played_hands(preset: str, *, tables: int, players: int, hands: int, seed: str,
                 peek: Mapping[tuple[int, int], int] | None = None,
                 collude: Mapping[int, tuple[int, int, int]] | None = None,
                 peek_role: str = "peeking",
                 table_ids: Sequence[int] | None = None) -> Iterator[PlayedHand]:
    """The hands of :func:`played_parts`, played and replayed but not observed
    (``bench/rummy_signals.py`` times the observing alone)."""
    ruleset = resolve(preset)
    game = game_for(ruleset.game)
    tabs = []
    for t in (range(tables) if table_ids is None else table_ids):
        pair = (collude or {}).get(t)
        tabs.append(_Table(t, SimStreams(f"{seed}/t{t}"), tuple(account(t, s) for s in range(players)),
                           {s: k for (tt, s), k in (peek or {}).items() if tt == t} or None,
                           {pair[0]: (pair[1], pair[2]), pair[1]: (pair[0], pair[2])} if pair else None,
                           dict(game.carry), players - 1))
    for h in range(hands):   # hand by hand across the tables, so a prefix is every table's first hands
        for tab in tabs:
            t = tab.table
            sim, dealer, carry = tab.sim, tab.dealer, tab.carry
            hand_id = f"t{t}-h{h:05d}"
            randomness = hand_randomness(sim.bytes(f"server:{hand_id}", 32), hand_id, ruleset,
                                         [sim.bytes(f"player:{hand_id}:{s}", 16) for s in range(players)])
            played = play_hand(randomness, dealer=dealer, carry=carry, rng=sim.stream(f"bot:{hand_id}"),
                               peek=tab.peek, collude=tab.collude, peek_role=peek_role)
            engine = game.engine(ruleset)
            state = engine.start(randomness, dealer=dealer, **game.table_options(carry))
            steps = []
            for i, raw in enumerate(played.moves):
                move = game.parse_move_json(raw)
                steps.append((i, state, move))
                state = engine.apply(state, move)
            nets = tuple(settle(played.outcome.net_points, point_value=Decimal("0.25"), commission_pct=Decimal("5"),
                                pot_delta_points=played.outcome.pot_delta_points).nets)
            yield PlayedHand(t, h, hand_id, tab.names, game, engine, tuple(steps), nets)
            tab.carry = game.next_carry(carry, played.outcome)
            tab.dealer = (dealer + 1) % players
