"""The Marriage round engine: the deal, the turns, the shows, the finish, the void round.

``MarriageEngine(ruleset)`` implements the protocol of :mod:`replay.game` for both
presets (``marriage/nepal``, ``marriage/classic``); everything that differs between them
is a setting of the ruleset (D-1).  States are :class:`~replay.marriage.state.RoundState`
values; :meth:`MarriageEngine.apply` returns a new one and never changes the old -- except
a :class:`~replay.marriage.state.WorkingRound` (from :meth:`MarriageEngine.working`), which
one replay owns and ``apply`` changes in place.  The moves' checks and changes are
:mod:`replay.marriage.turns`, the outcome :mod:`replay.marriage.outcome`; this module
holds the protocol, the deal and the legal moves.

A round, in short (docs/marriage.md, "Engine", has the long form):

* ``start`` deals via ``randomness.deal(dealer)`` (MN-2..MN-4, MC-13); the player on the
  dealer's left starts (MN-6, MC-14; right when anticlockwise, MC-33, D-4).  The caller
  picks the dealer: :func:`first_dealer` (MN-6: the last seat) and :func:`next_dealer`.
* A turn: before the first draw of the round the player may lay dealt tunnelas one at a
  time (MN-19, MC-13) and show from the dealt hand (MN-20, MN-21); then draw (stock top,
  or the latest discard, MC-14); then show (MN-14, MN-16, MC-15, MC-18), finish (D-7) or
  discard.  A discard ends the turn; the stock is refilled from the discards when empty
  (D-6); the turn cap ends the round void (D-10).
* The first show draws the tiplu from the stock at a position the hand's stream picks
  (D-5); nepal puts it out of play, classic under the stock (never drawn).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping, Sequence, TypeVar

from ..cards import Card
from ..deal import left_of
from ..errors import IllegalMoveError, RulesetError
from ..fairness import HandRandomness
from ..game import Move as GameMove, Outcome
from ..rulesets import Ruleset
from . import finish as finishing
from .moves import DISCARD, STOCK, DealtShow, Discard, Draw, Finish, Move, Show, TunnelaShow, parse_move, parse_record_move
from .outcome import round_outcome
from .shows import find_dublees, find_pure_sets
from .state import DRAW, PLAY, RoundState, SeatState, WorkingRound, WorkingSeat, sort_cards
from .turns import SHOW_DUBLEES, SHOW_SETS, Turns

R = TypeVar("R", bound=RoundState)


def first_dealer(n_seats: int) -> int:
    """MN-6: in the first round the last seat deals (so the first seat starts)."""
    return n_seats - 1


def next_dealer(dealer: int, n_seats: int, *, direction: str = "clockwise") -> int:
    """MN-6, MC-12: the deal passes one seat to the left (to the right when anticlockwise)."""
    return left_of(dealer, n_seats, direction=direction)


class MarriageEngine:
    """The round engine of Marriage under one resolved ruleset."""

    game = "marriage"

    def __init__(self, ruleset: Ruleset) -> None:
        if ruleset.game != "marriage":
            raise RulesetError(f"MarriageEngine cannot play {ruleset.game!r}")
        self.ruleset = ruleset
        self.direction = ruleset["direction"]
        self._turns = Turns(ruleset)

    # --- the protocol -------------------------------------------------------------------

    def start(self, randomness: HandRandomness, *, dealer: int, **table: Any) -> RoundState:
        """The round right after the deal; the player on the dealer's left is to move."""
        return self._deal(RoundState, SeatState, randomness, dealer, table)

    def start_working(self, randomness: HandRandomness, *, dealer: int, **table: Any) -> WorkingRound:
        """``self.working(self.start(randomness, dealer=dealer, **table))``, every seat a
        working one already, dealt straight into it (no frozen values made only to be
        copied): for a replay that needs only where the round ends
        (:func:`replay.replayer.replay_record` without a visitor)."""
        return self._deal(WorkingRound, WorkingSeat.dealt, randomness, dealer, table)

    def _deal(self, kind: type[R], seat: Callable[[tuple[Card, ...]], SeatState], randomness: HandRandomness,
              dealer: int, table: Mapping[str, object]) -> R:
        """The dealt round as a ``kind`` (:class:`RoundState` or :class:`WorkingRound`), each
        sorted hand made a seat by ``seat``."""
        if table:
            raise RulesetError(f"marriage takes no table options, got {sorted(table)}")
        dealt = randomness.deal(dealer)
        assert dealt.turned_up is not None, "the marriage deal turns a card up (DealLayout(turned_up=True))"
        n = randomness.n_seats
        return kind(
            n_seats=n, dealer=dealer,
            seats=tuple(seat(sort_cards(h)) for h in dealt.hands),
            stock=tuple(dealt.stock), discards=(dealt.turned_up,),
            turn_seat=left_of(dealer, n, direction=self.direction),
            randomness=randomness,
        )

    def working(self, state: RoundState) -> WorkingRound:
        """A working copy of ``state`` that :meth:`apply` changes in place (and returns),
        for a replay that needs only where it ends: :class:`~replay.marriage.state.WorkingRound`."""
        return WorkingRound.of(state)

    def to_move(self, state: RoundState) -> int | None:
        return state.to_move

    def is_over(self, state: RoundState) -> bool:
        return state.is_over

    def parse_move(self, data: Mapping[str, Any]) -> Move:
        return parse_move(data)

    #: a record's move read as it stands, its envelope ``time`` ignored (replay.replayer)
    parse_record_move = staticmethod(parse_record_move)

    # --- legal moves --------------------------------------------------------------------

    def legal_moves(self, state: RoundState) -> list[Move]:
        """The moves allowed now.

        Complete for draws, discards (one per distinct card) and tunnela shows.  Shows are
        representative: up to three ways to lay the pure sets plus one seven-dublee show;
        a finish is the one :meth:`find_finish` finds.  ``apply`` accepts every legal show and
        finish, listed or not.
        """
        if state.is_over:
            return []
        i = state.turn_seat
        me = state.seat(i)
        out: list[Move] = []
        if state.phase == DRAW:
            if not me.has_drawn and not me.has_shown:
                if len(me.tunnelas_at_deal) < SHOW_SETS:
                    counts = Counter(me.hand)
                    out.extend(TunnelaShow(i, (c, c, c)) for c in sorted(counts, key=lambda c: c.code)
                               if counts[c] >= 3 and not c.is_master)
                out.extend(DealtShow(i, sets) for sets in self._pure_shows(me))
                dub = self._dublee_show(me)
                if dub is not None:
                    out.append(DealtShow(i, dub))
            if state.stock:
                out.append(Draw(i, STOCK))
            if state.discards and self._discard_pickup_error(state, me, state.discards[-1]) is None:
                out.append(Draw(i, DISCARD, state.discards[-1]))
            return out
        fin = self.find_finish(state)
        if fin is not None:
            out.append(Finish(i, fin.groups, fin.discard))
        if state.must_finish:
            return out
        if not me.has_shown:
            out.extend(Show(i, sets) for sets in self._pure_shows(me))
            dub = self._dublee_show(me)
            if dub is not None:
                out.append(Show(i, dub))
        out.extend(Discard(i, c) for c in sorted(set(me.hand), key=lambda c: c.code) if c != state.taken)
        return out

    def _pure_shows(self, me: SeatState) -> list[tuple[tuple[Card, ...], ...]]:
        need = SHOW_SETS - len(me.tunnelas_at_deal)
        return find_pure_sets(me.hand, need) if need >= 0 else []

    def _dublee_show(self, me: SeatState) -> tuple[tuple[Card, ...], ...] | None:
        if not self.ruleset["seven_dublees"]:
            return None
        return find_dublees(me.hand, SHOW_DUBLEES)

    @staticmethod
    def known_tiplu(state: RoundState, me: SeatState) -> Card | None:
        """The tiplu as ``me`` knows it: ``None`` until they see it (then only putali and
        the master card are jokers for them, see :mod:`replay.marriage.jokers`)."""
        return state.tiplu if me.sees_maal else None

    def find_finish(self, state: RoundState) -> "finishing.Finish | None":
        """A finish for the player to move, after their draw, or ``None``:
        :func:`~replay.marriage.finish.find_finish` with the tiplu as the player knows it,
        never discarding the card just taken from the discards (MC-14)."""
        if state.is_over or state.phase != PLAY:
            return None
        me = state.seat(state.turn_seat)
        if not me.has_shown:
            return None
        return finishing.find_finish(me.hand, tiplu=self.known_tiplu(state, me), ruleset=self.ruleset,
                                     dublee=me.dublee, table=me.table, tunnelas_at_deal=me.tunnelas_at_deal,
                                     never_discard=state.taken)

    # --- apply --------------------------------------------------------------------------

    def apply(self, state: RoundState, move: GameMove) -> RoundState:
        """The state after ``move``; :class:`IllegalMoveError` naming the rule otherwise.

        The checks and changes are :class:`~replay.marriage.turns.Turns`, on a working
        state: the replay's own (changed in place and returned), or a working copy of a
        frozen ``state``, frozen again (``state`` itself never changes)."""
        if type(state) is WorkingRound:
            return self._turns.apply(state, move)
        return self._turns.apply(WorkingRound.of(state), move).freeze()

    def can_take_discard(self, state: RoundState) -> bool:
        """Whether the player to move may take the latest discard now."""
        if state.is_over or state.phase != DRAW or not state.discards:
            return False
        return self._discard_pickup_error(state, state.seat(state.turn_seat), state.discards[-1]) is None

    def _discard_pickup_error(self, state: RoundState, me: SeatState, card: Card) -> IllegalMoveError | None:
        return self._turns.pickup_error(state, me, card)

    # --- the end ------------------------------------------------------------------------

    def describe(self, move: GameMove, players: Sequence[str]) -> str:
        """The move in words with suit symbols (:mod:`replay.describe`)."""
        from .describe import describe
        return describe(move, players)

    def work_points(self, outcome: Outcome) -> dict[str, Any]:
        """The terms of the outcome's net points, for :func:`replay.worked.work_settlement`."""
        from .worked import work_points
        return work_points(outcome, self.ruleset)

    def outcome(self, state: RoundState) -> Outcome:
        """Maal points, net points (streamlined through the winner, or D-10 when void):
        :func:`~replay.marriage.outcome.round_outcome`."""
        if not state.is_over:
            raise IllegalMoveError("the round is not over yet")
        return round_outcome(state, self.ruleset)
