"""The moves of a Marriage turn applied: every check of a move, then its changes.

:class:`Turns` holds what a table's ruleset says about turns (read once) and one handler
per move type.  A handler works on a :class:`~replay.marriage.state.WorkingRound` -- the
mutable state one replay owns -- and changes it in place; the engine gives it either the
replay's own working state, or a working copy of a frozen
:class:`~replay.marriage.state.RoundState` that it freezes again afterwards
(:meth:`MarriageEngine.apply <replay.marriage.engine.MarriageEngine.apply>`).

Every handler makes all its checks before its first change, so a refused move raises
and leaves the state as it was (a report-mode replay goes on from it).
"""
from __future__ import annotations

from ..cards import Card
from ..deal import left_of
from ..errors import DeckMismatchError, IllegalMoveError, TipluError
from ..fairness import HandRandomness
from ..game import Move as GameMove
from ..rulesets import Ruleset
from . import combos, finish as finishing, jokers
from .moves import DISCARD, STOCK, DealtShow, Discard, Draw, Finish, Show, TunnelaShow
from .state import (DRAW, OVER, PLAY, VOID_STOCK, VOID_TURN_CAP, FinishRecord, RoundState, SeatState, WorkingRound,
                    WorkingSeat)

__all__ = ["Turns", "SHOW_SETS", "SHOW_DUBLEES"]

SHOW_SETS = 3          # MN-14, MC-15
SHOW_DUBLEES = 7       # MN-16, MC-18

#: the moves a Marriage round takes (exactly these classes)
_MOVE_KINDS = frozenset({Draw, Discard, Show, Finish, TunnelaShow, DealtShow})

class Turns:
    """The turn rules of one resolved Marriage ruleset, applied to working states."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.nepal = jokers.is_nepal(ruleset)                       # whose rule IDs errors cite
        self.tiplu_out_of_play = ruleset["tiplu_placement"] == "out_of_play"   # D-5
        self.direction = ruleset["direction"]
        # the seat on the left, without left_of's check of the direction (start made it)
        d = self.direction
        self._step = 1 if d == "clockwise" else -1 if d == "anticlockwise" else None
        self.seven_dublees = bool(ruleset["seven_dublees"])
        self.sees_at_show = ruleset["see_maal"] == "immediately"    # MN-17
        self.joker_pickup_after_seeing = ruleset["joker_pickup_after_seeing"]
        self.turn_cap = ruleset["turn_cap"]

    def rule(self, nepal: str, classic: str) -> str:
        """The rule ID of the preset's own text."""
        return nepal if self.nepal else classic

    def apply(self, state: WorkingRound, move: GameMove) -> WorkingRound:
        """Apply ``move`` to ``state`` in place; :class:`IllegalMoveError` naming the rule otherwise."""
        if state.phase == OVER:
            raise IllegalMoveError("the round is over", rule="D-7")
        if type(move) not in _MOVE_KINDS:
            raise IllegalMoveError(f"not a marriage move: {move!r}")
        if move.seat != state.turn_seat:
            raise IllegalMoveError(f"it is seat {state.turn_seat}'s turn, not seat {move.seat}'s",
                                   rule=self.rule("MN-6", "MC-14"))
        # the handler of the move's kind, the commonest first
        if type(move) is Draw:
            self._draw(state, move)
        elif type(move) is Discard:
            self._discard(state, move)
        elif type(move) is Show:
            self._show(state, move)
        elif type(move) is Finish:
            self._finish(state, move)
        elif type(move) is TunnelaShow:
            self._tunnela(state, move)
        elif type(move) is DealtShow:
            self._dealt_show(state, move)
        state.moves += 1
        return state

    def pickup_error(self, state: RoundState, me: SeatState, card: Card) -> IllegalMoveError | None:
        """Why ``me`` may not take ``card`` from the discards (D-11, MC-17, MC-19), or None."""
        if not me.sees_maal:
            return None
        if me.dublee:
            if card not in me.hand:
                return IllegalMoveError("after seeing, a dublee player takes a discard only to complete "
                                        "the eighth dublee and finish", rule="MC-19")
            return None
        if not self.joker_pickup_after_seeing and jokers.is_joker(card, state.tiplu, self.ruleset):
            return IllegalMoveError(f"{card} is a joker: a player who has seen may not take it from the "
                                    "discards", rule=self.rule("D-11", "MC-17"))
        return None

    # --- before the first draw ----------------------------------------------------------

    def _tunnela(self, state: WorkingRound, move: TunnelaShow) -> None:
        me = state.thaw(move.seat)
        if state.phase != DRAW or me.has_drawn:
            raise IllegalMoveError("a tunnela may be laid only before the player's first draw",
                                   rule=self.rule("MN-18", "MC-13"))
        if me.has_shown:
            raise IllegalMoveError("the player has already shown", rule="MN-19")
        if len(me.tunnelas_at_deal) >= SHOW_SETS:
            raise IllegalMoveError("three tunnelas are a complete show: show instead of laying a fourth",
                                   rule="MN-21")
        cards = move.cards
        combos.check_tunnela_at_deal(cards, ruleset=self.ruleset)   # one tunnela per action (MN-19)
        if not me.take(cards):
            raise IllegalMoveError(f"seat {move.seat} does not hold {cards[0]} three times",
                                   rule=self.rule("MN-19", "MC-13"))
        me.tunnelas_at_deal = me.tunnelas_at_deal + (tuple(cards),)

    def _check_show_sets(self, me: WorkingSeat, sets: tuple[tuple[Card, ...], ...], *, dealt: bool) -> bool:
        """Validate the sets of a show; returns whether it is a dublee show."""
        if sets and all(len(s) == 2 for s in sets):
            if not self.seven_dublees:
                raise IllegalMoveError("this table does not allow showing seven dublees", rule="MN-16")
            if len(sets) != SHOW_DUBLEES:
                raise IllegalMoveError(f"a dublee show lays exactly seven dublees, not {len(sets)}",
                                       rule=self.rule("MN-16", "MC-18"))
            combos.check_dublee_show(sets, ruleset=self.ruleset)
            return True
        need = SHOW_SETS - len(me.tunnelas_at_deal)
        if len(sets) != need or any(len(s) != 3 for s in sets):
            raise IllegalMoveError(
                f"a show lays exactly three 3-card pure sets, counting the {len(me.tunnelas_at_deal)} "
                f"tunnela(s) laid at the deal: {need} set(s) of three needed",
                rule=self.rule("MN-19" if me.tunnelas_at_deal else "MN-20" if dealt else "MN-14", "MC-15"))
        combos.check_show(sets, ruleset=self.ruleset, tunnelas_at_deal=len(me.tunnelas_at_deal))
        return False

    def _dealt_show(self, state: WorkingRound, move: DealtShow) -> None:
        me = state.thaw(move.seat)
        if state.phase != DRAW or me.has_drawn:
            raise IllegalMoveError("a dealt-hand show comes before the player's first draw", rule="MN-18")
        if me.has_shown:
            raise IllegalMoveError("the player has already shown", rule="MN-20")
        dublee = self._check_show_sets(me, move.sets, dealt=True)
        if not me.take([c for s in move.sets for c in s]):
            raise IllegalMoveError("the dealt hand does not hold those sets", rule="MN-20")
        # MN-20: maal is seen at once, whatever the "when to see maal" setting says.
        self._lay_show(me, move.sets, dublee, sees=True)
        self._reveal_tiplu(state)

    # --- the turn -----------------------------------------------------------------------

    def _draw(self, state: WorkingRound, move: Draw) -> None:
        # the hot path of a replay (every other move is a draw)
        me = state.seats[move.seat]
        if type(me) is not WorkingSeat:
            me = state.thaw(move.seat)
        if state.phase != DRAW:
            raise IllegalMoveError("the player has already drawn this turn", rule="MC-14")
        source = move.source
        if source == STOCK:
            stock = state.stock
            if not stock:
                raise IllegalMoveError("the stock is empty", rule="D-6")
            card = stock[0]
            if move.card is not None and move.card.code != card.code:   # by code: int comparison
                raise DeckMismatchError(f"the record lists {move.card} for a stock draw the deck makes {card}",
                                        rule="D-3")
            state.stock = stock[1:]
            state.taken = None
            state.must_finish = False
        elif source == DISCARD:
            discards = state.discards
            if not discards:
                raise IllegalMoveError("there is no discard to take", rule="MC-14")
            card = discards[-1]
            if move.card is not None and move.card.code != card.code:
                raise IllegalMoveError(f"only the latest discard ({card}) may be taken, not {move.card}",
                                       rule="MC-14")
            err = self.pickup_error(state, me, card)
            if err is not None:
                raise err
            state.discards = discards[:-1]
            state.taken = card
            state.must_finish = me.dublee and me.sees_maal   # MC-19
        else:
            raise IllegalMoveError(f"unknown draw source {source!r}", rule="MC-14")
        me.add(card)
        me.has_drawn = True
        state.phase = PLAY
        state.drawn = card
        state.auto_turn = move.auto

    def _show(self, state: WorkingRound, move: Show) -> None:
        me = state.thaw(move.seat)
        if state.phase != PLAY:
            if not me.has_drawn:
                raise IllegalMoveError("before the first draw a show is a dealt-hand show (dealt_show)",
                                       rule="MN-20")
            raise IllegalMoveError("draw first: the show comes after drawing", rule=self.rule("MN-14", "MC-15"))
        if me.has_shown:
            raise IllegalMoveError("the player has already shown", rule=self.rule("MN-15", "MC-16"))
        dublee = self._check_show_sets(me, move.sets, dealt=False)
        if not me.take([c for s in move.sets for c in s]):
            raise IllegalMoveError("the hand does not hold those sets", rule=self.rule("MN-14", "MC-15"))
        self._lay_show(me, move.sets, dublee, sees=self.sees_at_show)
        state.shown_this_turn = True
        self._reveal_tiplu(state)

    @staticmethod
    def _lay_show(me: WorkingSeat, sets: tuple[tuple[Card, ...], ...], dublee: bool, *, sees: bool) -> None:
        """The show's marks on a seat whose hand the shown cards have left."""
        me.shown = tuple(tuple(s) for s in sets)
        me.dublee = dublee
        me.has_shown = True
        me.sees_maal = sees

    def _reveal_tiplu(self, state: WorkingRound) -> None:
        """D-5: the first show draws the tiplu from the stock; later shows only see it."""
        if state.tiplu is not None:
            return
        if not state.stock:
            # Rare: the stock ran dry within this turn.  Refill it first (D-6), then pick.
            self._refill(state)
            if state.phase == OVER:
                return
        stock = state.stock
        pos = self._randomness(state).tiplu_position(len(stock))
        state.tiplu = stock[pos]
        state.stock = stock[:pos] + stock[pos + 1:]
        state.tiplu_under_stock = not self.tiplu_out_of_play

    def _finish(self, state: WorkingRound, move: Finish) -> None:
        me = state.thaw(move.seat)
        if state.phase != PLAY:
            raise IllegalMoveError("a finish comes after drawing", rule="D-7")
        if not me.has_shown:
            raise IllegalMoveError("only a player who has shown may finish", rule=self.rule("D-7", "MC-20"))
        if state.taken is not None and move.discard == state.taken:
            raise IllegalMoveError(f"{move.discard} was just taken from the discards and may not be "
                                   "discarded this turn", rule="MC-14")
        finishing.check_finish(move.groups, move.discard, me.hand, tiplu=state.tiplu if me.sees_maal else None,
                               ruleset=self.ruleset, dublee=me.dublee)
        me.take((move.discard,))   # check_finish found it in the hand
        state.discards = state.discards + (move.discard,)
        state.phase = OVER
        state.winner = move.seat
        state.finish = FinishRecord(tuple(tuple(g) for g in move.groups), move.discard, me.dublee)
        state.turns += 1
        state.taken = state.drawn = None
        state.auto_turn = state.must_finish = state.shown_this_turn = False

    def _discard(self, state: WorkingRound, move: Discard) -> None:
        # the other hot path
        seat = move.seat
        me = state.seats[seat]
        if type(me) is not WorkingSeat:
            me = state.thaw(seat)
        if state.phase != PLAY:
            raise IllegalMoveError("draw before discarding", rule="MC-14")
        if state.must_finish:
            raise IllegalMoveError("a dublee player who took a discard must finish with it", rule="MC-19")
        card = move.card
        if state.taken is not None and card.code == state.taken.code:
            raise IllegalMoveError(f"{card} was just taken from the discards and may not be "
                                   "discarded this turn", rule="MC-14")
        i = me.find(card)
        if i is None:
            raise IllegalMoveError(f"seat {seat} does not hold {card}", rule="MC-14")
        if self._step is None:   # left_of raises for the direction
            nxt = left_of(seat, state.n_seats, direction=self.direction)
        else:
            nxt = (seat + self._step) % state.n_seats   # D-4, as left_of
        me.remove_at(i)
        if state.shown_this_turn:
            me.sees_maal = True   # MN-17: seen after the discard that follows the show
        state.discards = state.discards + (card,)
        state.taken = state.drawn = None
        state.shown_this_turn = state.auto_turn = False
        turns = state.turns = state.turns + 1
        state.phase = DRAW
        state.turn_seat = nxt
        # the end of the turn
        if turns >= self.turn_cap:
            state.phase = OVER                      # D-10
            state.void_reason = VOID_TURN_CAP
        elif not state.stock:
            self._refill(state)

    @staticmethod
    def _randomness(state: RoundState) -> HandRandomness:
        """The hand's randomness, which draws the tiplu (D-5) and reshuffles (D-6)."""
        if state.randomness is None:
            raise TipluError("this position was made without the hand's randomness: it cannot draw the tiplu "
                             "or reshuffle the discards")
        return state.randomness

    def _refill(self, state: WorkingRound) -> None:
        """D-6 / MC-24: all discards but the latest, shuffled from the stream, become the stock."""
        old, latest = state.discards[:-1], state.discards[-1:]
        if not old:
            state.phase = OVER                      # D-10
            state.void_reason = VOID_STOCK
            return
        k = state.reshuffles + 1
        state.stock = tuple(self._randomness(state).reshuffle(k, old))
        state.discards = latest
        state.reshuffles = k
