"""Replay a hand record move by move through its game engine, in checked mode.

:func:`replay_record` derives the shoe with the v1 protocol from the record's seeds,
starts the engine, applies every move, and recomputes the outcome and the settlement.
In strict mode it stops at the first fault; otherwise it skips a faulty move, goes on and
collects every fault it meets.  An optional ``visit(index, move, state)`` callback sees
every state (``index`` -1 is the state after the deal) -- the CLI's ``tiplu replay`` and
the website's replay viewer use it.

Without a visitor nobody sees the states in between, so an engine that offers
``working(state)`` (a mutable copy its ``apply`` changes in place, with ``freeze()`` back
to the frozen value) is replayed on that copy: one state for the whole hand instead of a
new frozen one per move (dealt straight into it by ``start_working``, where the engine
offers that).  The result is the same either way (tests/test_working_state.py).  Likewise an engine
that offers ``parse_record_move(raw)`` reads each record move as it stands, its envelope
field ``time`` ignored, instead of :func:`engine_move`'s copy without it (the same move,
or the same error).  Either way there is one loop over the moves, below.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

from .errors import DeckMismatchError, IllegalMoveError, MalformedError, TipluError
from .fairness import hand_randomness
from .faults import Fault, Reason
from .game import Engine, Outcome, engine_for
from .registry import game_for
from .records import HandRecord
from .settlement import Settlement, settle
from .worked import work_settlement

Visitor = Callable[[int, Any, Any], None]


@dataclass(frozen=True)
class ReplayResult:
    outcome: Outcome | None
    settlement: Settlement | None
    faults: tuple[Fault, ...]
    moves_applied: int
    record: HandRecord | None = None

    @cached_property
    def worked(self) -> dict[str, Any] | None:
        """The settlement worked term by term (:func:`replay.worked.work_settlement`), from this
        replay's own outcome and settlement; ``None`` unless settled.  Computed when first
        read (pages, ``tiplu replay``, the verdict API), so an archive audit does not pay for
        the text; its point terms are the engine's payment functions and must give its nets."""
        if self.outcome is None or self.settlement is None or self.record is None:
            return None
        t = self.record.table
        return work_settlement(engine_for(self.record.ruleset), self.outcome, self.settlement,
                               point_value=t.point_value, commission_pct=t.commission_pct, players=t.players)


def engine_move(engine: Engine, raw: Mapping[str, Any]) -> Any:
    """The engine's move for one record move (a copy without the envelope field ``time``)."""
    return engine.parse_move({k: v for k, v in raw.items() if k != "time"})


def _fault(exc: TipluError, index: int) -> Fault:
    """The fault of a refused move at ``index``."""
    if isinstance(exc, DeckMismatchError):
        return Fault(Reason.DECK_MISMATCH, exc.reason, index, exc.rule)
    if isinstance(exc, IllegalMoveError):
        return Fault(Reason.ILLEGAL_MOVE, exc.reason, index, exc.rule)
    return Fault(Reason.MALFORMED, f"move does not parse: {exc}", index)


def replay_record(record: HandRecord, *, strict: bool = True, visit: Visitor | None = None) -> ReplayResult:
    """Replay ``record``; never raises for a bad record -- faults are returned."""
    seed = record.fairness.server_seed
    if seed is None:
        return ReplayResult(None, None, (Fault(Reason.NOT_REVEALED, "the server seed is not revealed yet"),), 0, record)
    faults: list[Fault] = []
    try:
        game = game_for(record.ruleset.game)
        engine = game.engine(record.ruleset)
        options = game.table_options(record.table.carry)   # CarryError for a key the game does not carry
        randomness = hand_randomness(seed, record.hand_id, record.ruleset, record.fairness.player_seeds)
        # without a visitor, an engine may deal straight into its working state
        start_working = getattr(engine, "start_working", None) if visit is None else None
        state = (start_working or engine.start)(randomness, dealer=record.table.dealer, **options)
    except TipluError as exc:
        return ReplayResult(None, None, (Fault(Reason.MALFORMED, f"cannot start the hand: {exc}"),), 0, record)
    if visit:
        visit(-1, None, state)
    working = getattr(engine, "working", None) if visit is None else None
    if working is not None and start_working is None:
        state = working(state)
    applied = 0
    parse = getattr(engine, "parse_record_move", None) or (lambda raw: engine_move(engine, raw))
    for i, raw in enumerate(record.moves):
        try:
            move = parse(raw)
            if engine.is_over(state):
                raise IllegalMoveError("a move after the hand is over")
            state = engine.apply(state, move)
        except (IllegalMoveError, MalformedError) as exc:
            faults.append(_fault(exc, i))
        else:
            applied += 1
            if visit:
                visit(i, move, state)
            continue
        if strict:
            return ReplayResult(None, None, tuple(faults), applied, record)
    if not engine.is_over(state):
        faults.append(Fault(Reason.INCOMPLETE, "the moves end before the hand is over", len(record.moves)))
        return ReplayResult(None, None, tuple(faults), applied, record)
    if working is not None:
        state = state.freeze()
    try:
        outcome = engine.outcome(state)
        settlement = settle(outcome.net_points, point_value=record.table.point_value,
                            commission_pct=record.table.commission_pct, pot_delta_points=outcome.pot_delta_points)
    except TipluError as exc:
        faults.append(Fault(Reason.MALFORMED, f"cannot settle the hand: {exc}"))
        return ReplayResult(None, None, tuple(faults), applied, record)
    return ReplayResult(outcome, settlement, tuple(faults), applied, record)
