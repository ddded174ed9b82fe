"""Gather hidden-information observations and table facts from audit-passing records.

Each record is audited first (:func:`audit.auditor.run.runner.audit_one`, under the given trust):
only a hand that passes is replayed for its decisions, so a forged record cannot plant or
hide a signal.  The redeals of the null world come from a :class:`replay.stream.Stream`
keyed by the hand id and the move's index, so a source always gives the same observations.
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Iterable

from replay.records import parse_record
from replay.registry import game_for
from replay.replayer import replay_record
from replay.signals import Observation
from replay.stream import Stream

from .pair_signals import add_pairs, hand_pair_observations

_KEY = hashlib.sha256(b"tiplu/collusion/v1").digest()


def null_stream(hand_id: str, index: int) -> Stream:
    """The redeals' randomness for move ``index`` of hand ``hand_id`` (fixed, documented)."""
    material = hashlib.sha256(b"tiplu/collusion/v1/" + hand_id.encode("utf-8")).digest()
    return Stream(_KEY, material, f"move:{index}")


@dataclass
class Observations:
    """What the records showed: per (account, signal) the excesses of its decisions, who sat
    with whom, and the tokens that moved between accounts."""

    excesses: dict[tuple[str, str], list[Fraction]] = field(default_factory=lambda: defaultdict(list))
    #: per (account, signal): the account's hand count at each decision of ``excesses``
    hand_of: dict[tuple[str, str], list[int]] = field(default_factory=lambda: defaultdict(list))
    #: per (account, target account, signal): the pair signals' excesses (:mod:`.pair_signals`)
    pair_excesses: dict[tuple[str, str, str], list[Fraction]] = field(default_factory=lambda: defaultdict(list))
    hands_by_account: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    together: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    flows: dict[tuple[str, str], Decimal] = field(default_factory=lambda: defaultdict(Decimal))
    hands: int = 0
    skipped: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    games: set[str] = field(default_factory=set)

    def add(self, account: str, obs: Observation) -> None:
        """One decision of ``account`` in the hand being counted (before its hand count goes up)."""
        self.excesses[(account, obs.signal)].append(obs.excess)
        self.hand_of[(account, obs.signal)].append(self.hands_by_account[account] + 1)


def decision_observations(game: Any, engine: Any, hand_id: str,
                          steps: Iterable[tuple[int, Any, Any]]) -> list[Observation]:
    """The observations of every decision of one hand: ``steps`` are ``(index, state the
    move was made in, move)``, in order."""
    signals = game.hidden_signals
    if signals is None:
        return []
    found: list[Observation] = []
    for index, state, move in steps:
        found.extend(signals(engine, state, move, null_stream(hand_id, index)))
    return found


@dataclass(frozen=True)
class HandPart:
    """One replayed hand's part of the review: its observations, who sat where, the nets."""

    preset: str
    names: tuple[str, ...]
    found: tuple[Observation, ...]
    nets: tuple[Decimal, ...]
    pairs: tuple[Any, ...] = ()


def hand_part(record: Any) -> HandPart | None:
    """Replay one parsed, audit-passing record and observe its decisions (``None`` if it
    does not replay clean)."""
    game = game_for(record.ruleset.game)
    steps: list[tuple[int, Any, Any]] = []
    before: list[Any] = [None]

    def visit(index: int, move: Any, state: Any) -> None:
        if index >= 0:
            steps.append((index, before[0], move))
        before[0] = state

    result = replay_record(record, strict=True, visit=visit)
    if result.faults or result.settlement is None:
        return None
    engine = game.engine(record.ruleset)
    found = decision_observations(game, engine, record.hand_id, steps)
    nets = tuple(result.settlement.nets)
    pairs = hand_pair_observations(game, engine, record.hand_id, steps, nets)
    return HandPart(record.ruleset.preset, tuple(record.table.players), tuple(found), nets, pairs)


def observe_record(record: Any, into: Observations) -> bool:
    """Add one parsed, audit-passing record's part; ``False`` if it did not replay."""
    part = hand_part(record)
    if part is None:
        return False
    add_part(into, part)
    return True


def add_part(into: Observations, part: HandPart) -> None:
    add_hand(into, part.preset, list(part.names), part.found, part.nets, part.pairs)


def add_hand(into: Observations, preset: str, names: list[str], found: Iterable[Observation],
             nets: Iterable[Decimal], pairs: Iterable[Any] = ()) -> None:
    """Count one hand: its observations by account (and by pair of accounts), who sat
    together, the tokens that moved."""
    into.hands += 1
    into.games.add(preset)
    for obs in found:
        into.add(names[obs.seat], obs)
    for name in set(names):
        into.hands_by_account[name] += 1
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if a != b:
                into.together[(a, b) if a <= b else (b, a)] += 1
    _add_flows(names, nets, into)
    add_pairs(into.pair_excesses, names, pairs)


def _add_flows(names: list[str], nets: Iterable[Decimal], into: Observations) -> None:
    """Split each hand's net losses among its net winners in proportion to their gains:
    ``flows[(loser, winner)]`` is what ``loser`` paid ``winner`` over all hands."""
    nets = list(nets)
    gains = sum((n for n in nets if n > 0), Decimal(0))
    if gains == 0:
        return
    for i, loss in enumerate(nets):
        if loss >= 0:
            continue
        for j, gain in enumerate(nets):
            if gain > 0 and names[i] != names[j]:
                into.flows[(names[i], names[j])] += (-loss) * gain / gains


def observe_items(items: Iterable[Any], *, trust: Any = None,
                  progress: Callable[[int], None] | None = None) -> Observations:
    """Audit every :class:`~audit.auditor.sources.item.Item` and observe the ones that pass."""
    from ..run.runner import audit_one

    out = Observations()
    for n, item in enumerate(items, 1):
        if progress and n % 200 == 0:
            progress(n)
        if item.error is not None or item.data is None:
            out.skipped["malformed" if item.error is not None else "no record"] += 1
            continue
        verdict = audit_one(item.data, trust=trust)
        if not verdict.ok:
            out.skipped["failed the audit"] += 1
            continue
        if not observe_record(parse_record(item.data), out):
            out.skipped["did not replay"] += 1
    return out
