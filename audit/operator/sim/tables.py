"""Simulated tables through the real ledger: commitments, two-phase seeds, bots, reveals.

:func:`simulate_table` runs one table of ``hands`` hands: for each, a new hand in the
ledger, the server-seed commitment, every seat's seed commitment then reveal, the deal,
the bots' game, the record attached and the server seed revealed -- each step signed by
the operator and dated by a simulated clock.  With ``tamper_rate`` some hands are
forged by a dishonest operator with one fault each (:mod:`audit.operator.sim.tamper`): a lie in the
record it attaches (and so logs), or an edit of what it publishes; which ones is returned
privately in :attr:`TableRun.tampered`.

Deterministic: every seed, bot choice, time and tamper decision comes from labelled v1
streams keyed by the simulator seed.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from replay.deal import left_of
from replay.fairness import commit_player_seed, hand_randomness
from replay.registry import game_for
from replay.rulesets import resolve
from replay.settlement import parse_commission_pct, parse_point_value, settle
from replay.stream import Stream

from ..ledger.statements import format_time
from ..publish import build_record, publish, published_record
from ...tlog.checkpoint import DEFAULT_ORIGIN
from .bias import Bias
from .play import play_hand
from .tamper import BEFORE_FINISH, MOVE_LIES, TamperContext, applicable, tamper

if TYPE_CHECKING:
    from audit.operator.ledger import Ledger

PLAYERS = ("asha", "bikash", "chandra", "deepa", "esha", "firoz", "gita", "hari")
EPOCH = datetime(2026, 11, 1, tzinfo=timezone.utc)


class SimStreams:
    """The simulator's randomness: labelled v1 streams keyed by the simulator seed."""

    def __init__(self, seed: str) -> None:
        self._key = hashlib.sha256(b"tiplu/sim/v1/" + seed.encode("utf-8")).digest()
        self._material = hashlib.sha256(b"tiplu/sim/v1/material").digest()

    def stream(self, label: str) -> Stream:
        return Stream(self._key, self._material, label)

    def bytes(self, label: str, n: int) -> bytes:
        return self.stream(label).block(0)[:n]


@dataclass
class TableRun:
    table_id: str
    preset: str
    hands: int = 0
    tampered: dict[str, str] = field(default_factory=dict)
    turns: list[int] = field(default_factory=list)
    finished: int = 0  # hands with a winner (not void, not a kitti)
    #: the time of the table's last statement: the next table starts after it (statement
    #: times run forward in log order, as an honest operator's clock makes them)
    last_time: datetime | None = None
    #: with ``keep_move_receipts``: each hand's move receipts, as every seat was given them
    move_receipts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def simulate_table(ledger: Ledger, *, preset: str, players: int, hands: int, seed: str, table_id: str,
                   operator: str = "demo-operator", overrides: Mapping[str, Any] | None = None,
                   point_value: str = "0.25", commission_pct: str = "5", tamper_rate: float = 0.0,
                   start: datetime = EPOCH, on_record: Callable[[dict[str, Any], str | None], None] | None = None,
                   bias: "Bias | None" = None, origin: str = DEFAULT_ORIGIN,
                   tamper_hands: Mapping[int, str] | None = None, tamper_rng: Stream | None = None,
                   names: Sequence[str] | None = None, live_moves: bool = True,
                   keep_move_receipts: bool = False, peek: Mapping[int, int] | None = None,
                   collude: Mapping[int, tuple[int, int]] | None = None) -> TableRun:
    """Run one table through ``ledger``; ``on_record(record, tamper_kind)`` sees each published record.

    With ``bias`` the operator chooses each hand's seeds to favour one seat
    (:mod:`audit.operator.sim.bias`): every record still audits clean.  ``tamper_hands`` forces a
    tamper class on hand ``k`` (the fixtures use it).  A class of
    :data:`~audit.operator.sim.tamper.BEFORE_FINISH` is a lie in the record the operator attaches at
    ``finish`` (so it is logged as the lie it is); the others edit the published record.
    ``names``: the players' names (default: the simulator's own, one per seat)."""
    sim = SimStreams(f"{seed}/{table_id}")
    ruleset = resolve(preset, overrides)
    ledger.new_table(table_id, operator=operator, preset=preset, overrides=overrides, seats=players,
                     point_value=point_value, commission_pct=commission_pct, now=start)
    if names is None:
        names = [PLAYERS[i % len(PLAYERS)] + ("" if i < len(PLAYERS) else str(i)) for i in range(players)]
    names = list(names)
    run = TableRun(table_id, preset)
    game = game_for(ruleset.game)
    carry: dict[str, Any] = dict(game.carry)  # what the first hand carries
    pv, pct = parse_point_value(point_value), parse_commission_pct(commission_pct)
    direction = ruleset.settings.get("direction", "clockwise")
    dealer = players - 1  # MN-6: the last seat deals first; the deal then moves one seat on
    tamper_pick = sim.stream("tamper")
    operator_key = ledger.signing_key(operator)  # the dishonest operator signs its own forgeries
    clock = start
    for k in range(hands):
        hand_id = f"{table_id}-h{k:04d}"
        tick = iter(range(10**9))

        def now(clock: datetime = clock, tick: Iterator[int] = tick) -> datetime:
            run.last_time = clock + timedelta(seconds=next(tick))
            return run.last_time

        def draw(attempt: int, hand_id: str = hand_id) -> tuple[bytes, list[bytes]]:
            tag = "" if attempt == 0 else f":try{attempt}"
            return (sim.bytes(f"server:{hand_id}{tag}", 32),
                    [sim.bytes(f"player:{hand_id}:{s}{tag}", 16) for s in range(players)])

        server_seed, seeds = bias.choose(ruleset, hand_id, dealer, draw) if bias is not None else draw(0)
        ledger.new_hand(table_id, names, dealer=dealer, hand_id=hand_id, now=now())
        ledger.commit(hand_id, now=now(), server_seed=server_seed)
        for s in range(players):
            ledger.seed_commit(hand_id, s, commit_player_seed(hand_id, s, seeds[s]), now=now())
        for s in range(players):
            ledger.seed_reveal(hand_id, s, seeds[s], now=now())
        ledger.deal(hand_id, now=now())
        randomness = hand_randomness(server_seed, hand_id, ruleset, seeds)
        played = play_hand(randomness, dealer=dealer, carry=carry, rng=sim.stream(f"bot:{hand_id}"),
                           peek=peek, collude=collude)
        times = [now() for _ in played.moves]
        moves = [{**m, "time": format_time(t)} for m, t in zip(played.moves, times)]
        kind = tamper_hands.get(k) if tamper_hands is not None else None
        if kind is None and tamper_rate > 0 and tamper_pick.randbelow(10**6) < int(tamper_rate * 10**6):
            kinds = applicable({"moves": moves})
            kind = kinds[tamper_pick.randbelow(len(kinds))]
        if live_moves and kind not in MOVE_LIES:  # each move through the ledger, as played: a move receipt
            receipts = [ledger.play_move(hand_id, m, now=t) for m, t in zip(moves, times)]
            if keep_move_receipts:
                run.move_receipts[hand_id] = receipts
        settlement = settle(played.outcome.net_points, point_value=pv, commission_pct=pct,
                            pot_delta_points=played.outcome.pot_delta_points)
        record = build_record(ledger, hand_id, moves=moves, outcome=played.outcome, settlement=settlement,
                              carry=carry, hand_no=k)
        ctx = TamperContext(operator_key, tamper_pick if tamper_rng is None else tamper_rng)
        if kind in BEFORE_FINISH:  # a lie in the record the operator attaches: logged as it is
            record["fairness"]["server_seed"] = server_seed.hex()  # the operator knows it (to replay)
            record = tamper(record, kind, ctx)
            del record["fairness"]["server_seed"]
        ledger.finish(hand_id, record, now=now())
        ledger.reveal(hand_id, now=now())
        published = published_record(ledger, hand_id, origin=origin, now=now())
        if kind is not None and kind not in BEFORE_FINISH:  # an edit of the published record
            published = tamper(published, kind, ctx)
        if kind is not None:
            run.tampered[hand_id] = kind
        publish(ledger, hand_id, published, now=now())
        if on_record:
            on_record(published, kind)
        run.hands += 1
        run.turns.append(played.turns)
        run.finished += played.outcome.winner is not None
        carry = game.next_carry(carry, played.outcome)
        dealer = left_of(dealer, players, direction=direction)
        last = run.last_time if run.last_time is not None else clock  # now() dated the hand's statements
        clock = max(clock + timedelta(minutes=5), last + timedelta(seconds=1))
    return run


