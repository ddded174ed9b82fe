"""The Marriage round engine: the deal, the turns, the shows, the finish, the void round.

``MarriageEngine(ruleset)`` implements the protocol of :mod:`replay.game` for both
presets (``marriage/nepal``, ``marriage/classic``); everything that differs between them
is a setting of the ruleset (D-1).  States are :class:`~replay.marriage.state.RoundState`
values; :meth:`MarriageEngine.apply` returns a new one and never changes the old -- except
a :class:`~replay.marriage.state.WorkingRound` (from :meth:`MarriageEngine.working`), which
one replay owns and ``apply`` changes in place.

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
from typing import Any, Callable, Mapping, Sequence

from ..cards import Card, parse_card
from ..deal import left_of
from ..errors import DeckMismatchError, IllegalMoveError, RulesetError
from ..fairness import HandRandomness
from ..game import Outcome
from ..immutable import replace
from ..rulesets import Ruleset
from . import combos, finish as finishing, jokers, maal, payments
from .moves import (DISCARD, STOCK, DealtShow, Discard, Draw, Finish, Move, Show, TunnelaShow,
                    parse_move)
from .shows import find_dublees, find_pure_sets
from .state import (DRAW, OVER, PLAY, VOID_STOCK, VOID_TURN_CAP, FinishRecord, RoundState,
                    SeatState, WorkingRound, remove_cards, sort_cards)

SHOW_SETS = 3          # MN-14, MC-15
SHOW_DUBLEES = 7       # MN-16, MC-18


def _changed(state: "RoundState | WorkingRound", **changes: Any) -> "RoundState | WorkingRound":
    """``state`` with ``changes``: a new frozen value, or a working state changed in place."""
    if type(state) is WorkingRound:
        return state.update(**changes)
    return replace(state, **changes)


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
        self.nepal = jokers.is_nepal(ruleset)                       # whose rule IDs errors cite
        self.tiplu_out_of_play = ruleset["tiplu_placement"] == "out_of_play"   # D-5
        self.direction = ruleset["direction"]
        self._handlers = {TunnelaShow: self._tunnela, DealtShow: self._dealt_show, Draw: self._draw,
                          Show: self._show, Finish: self._finish, Discard: self._discard}

    def _rule(self, nepal: str, classic: str) -> str:
        """The rule ID of the preset's own text."""
        return nepal if self.nepal else classic

    # --- the protocol -------------------------------------------------------------------

    def start(self, randomness: HandRandomness, *, dealer: int, **table: Any) -> RoundState:
        """The round right after the deal; the player on the dealer's left is to move."""
        if table:
            raise RulesetError(f"marriage takes no table options, got {sorted(table)}")
        dealt = randomness.deal(dealer)
        n = randomness.n_seats
        return RoundState(
            n_seats=n, dealer=dealer,
            seats=tuple(SeatState(hand=sort_cards(h)) for h in dealt.hands),
            stock=tuple(dealt.stock), discards=(dealt.turned_up,),
            turn_seat=left_of(dealer, n, direction=self.direction),
            randomness=randomness,
        )

    def working(self, state: RoundState) -> WorkingRound:
        """A working copy of ``state`` that :meth:`apply` changes in place (and returns),
        for a replay that needs only where it ends: :class:`~replay.marriage.state.WorkingRound`."""
        return WorkingRound(state)

    def to_move(self, state: RoundState) -> int | None:
        return state.to_move

    def is_over(self, state: RoundState) -> bool:
        return state.is_over

    def parse_move(self, data: Mapping[str, Any]) -> Move:
        return parse_move(data)

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

    def apply(self, state: RoundState, move: Move) -> RoundState:
        """The state after ``move``; :class:`IllegalMoveError` naming the rule otherwise."""
        if state.is_over:
            raise IllegalMoveError("the round is over", rule="D-7")
        handler = self._handlers.get(type(move))
        if handler is None:
            raise IllegalMoveError(f"not a marriage move: {move!r}")
        if move.seat != state.turn_seat:
            raise IllegalMoveError(f"it is seat {state.turn_seat}'s turn, not seat {move.seat}'s",
                                   rule=self._rule("MN-6", "MC-14"))
        return handler(state, move)

    @staticmethod
    def _moved(state: RoundState, **changes: Any) -> RoundState:
        """The state after a move: ``changes`` applied and the move counted.  Every handler
        makes its first copy of the state with this (and only its first: later copies carry
        the count along), so a move costs one copy less than counting it afterwards.

        Every handler checks everything before its first call of this (or of
        ``with_seat``): on a working state those change it in place, so a refused move
        must raise before them."""
        if type(state) is WorkingRound:
            state.moves += 1
            return state.update(**changes)
        return replace(state, moves=state.moves + 1, **changes)

    def _tunnela(self, state: RoundState, move: TunnelaShow) -> RoundState:
        me = state.seat(move.seat)
        if state.phase != DRAW or me.has_drawn:
            raise IllegalMoveError("a tunnela may be laid only before the player's first draw",
                                   rule=self._rule("MN-18", "MC-13"))
        if me.has_shown:
            raise IllegalMoveError("the player has already shown", rule="MN-19")
        if len(me.tunnelas_at_deal) >= SHOW_SETS:
            raise IllegalMoveError("three tunnelas are a complete show: show instead of laying a fourth",
                                   rule="MN-21")
        cards = move.cards
        combos.check_tunnela_at_deal(cards, ruleset=self.ruleset)   # one tunnela per action (MN-19)
        hand = remove_cards(me.hand, cards)
        if hand is None:
            raise IllegalMoveError(f"seat {move.seat} does not hold {cards[0]} three times",
                                   rule=self._rule("MN-19", "MC-13"))
        return self._moved(state, seats=state.with_seat(
            move.seat, hand=hand, tunnelas_at_deal=me.tunnelas_at_deal + (tuple(cards),)))

    def _check_show_sets(self, me: SeatState, sets: tuple[tuple[Card, ...], ...], *, dealt: bool) -> bool:
        """Validate the sets of a show; returns whether it is a dublee show."""
        if sets and all(len(s) == 2 for s in sets):
            if not self.ruleset["seven_dublees"]:
                raise IllegalMoveError("this table does not allow showing seven dublees", rule="MN-16")
            if len(sets) != SHOW_DUBLEES:
                raise IllegalMoveError(f"a dublee show lays exactly seven dublees, not {len(sets)}",
                                       rule=self._rule("MN-16", "MC-18"))
            combos.check_dublee_show(sets, ruleset=self.ruleset)
            return True
        need = SHOW_SETS - len(me.tunnelas_at_deal)
        if len(sets) != need or any(len(s) != 3 for s in sets):
            raise IllegalMoveError(
                f"a show lays exactly three 3-card pure sets, counting the {len(me.tunnelas_at_deal)} "
                f"tunnela(s) laid at the deal: {need} set(s) of three needed",
                rule=self._rule("MN-19" if me.tunnelas_at_deal else "MN-20" if dealt else "MN-14", "MC-15"))
        combos.check_show(sets, ruleset=self.ruleset, tunnelas_at_deal=len(me.tunnelas_at_deal))
        return False

    def _dealt_show(self, state: RoundState, move: DealtShow) -> RoundState:
        me = state.seat(move.seat)
        if state.phase != DRAW or me.has_drawn:
            raise IllegalMoveError("a dealt-hand show comes before the player's first draw", rule="MN-18")
        if me.has_shown:
            raise IllegalMoveError("the player has already shown", rule="MN-20")
        dublee = self._check_show_sets(me, move.sets, dealt=True)
        hand = remove_cards(me.hand, [c for s in move.sets for c in s])
        if hand is None:
            raise IllegalMoveError("the dealt hand does not hold those sets", rule="MN-20")
        # MN-20: maal is seen at once, whatever the "when to see maal" setting says.
        seats = state.with_seat(move.seat, hand=hand, shown=tuple(tuple(s) for s in move.sets),
                                dublee=dublee, has_shown=True, sees_maal=True)
        return self._reveal_tiplu(self._moved(state, seats=seats))

    def _show(self, state: RoundState, move: Show) -> RoundState:
        me = state.seat(move.seat)
        if state.phase != PLAY:
            if not me.has_drawn:
                raise IllegalMoveError("before the first draw a show is a dealt-hand show (dealt_show)",
                                       rule="MN-20")
            raise IllegalMoveError("draw first: the show comes after drawing", rule=self._rule("MN-14", "MC-15"))
        if me.has_shown:
            raise IllegalMoveError("the player has already shown", rule=self._rule("MN-15", "MC-16"))
        dublee = self._check_show_sets(me, move.sets, dealt=False)
        hand = remove_cards(me.hand, [c for s in move.sets for c in s])
        if hand is None:
            raise IllegalMoveError("the hand does not hold those sets", rule=self._rule("MN-14", "MC-15"))
        sees = self.ruleset["see_maal"] == "immediately"   # MN-17
        seats = state.with_seat(move.seat, hand=hand, shown=tuple(tuple(s) for s in move.sets),
                                dublee=dublee, has_shown=True, sees_maal=sees)
        return self._reveal_tiplu(self._moved(state, seats=seats, shown_this_turn=True))

    def _reveal_tiplu(self, state: RoundState) -> RoundState:
        """D-5: the first show draws the tiplu from the stock; later shows only see it."""
        if state.tiplu is not None:
            return state
        if not state.stock:
            # Rare: the stock ran dry within this turn.  Refill it first (D-6), then pick.
            state = self._refill(state)
            if state.is_over:
                return state
        pos = state.randomness.tiplu_position(len(state.stock))
        tiplu = state.stock[pos]
        stock = state.stock[:pos] + state.stock[pos + 1:]
        return _changed(state, tiplu=tiplu, stock=stock, tiplu_under_stock=not self.tiplu_out_of_play)

    def can_take_discard(self, state: RoundState) -> bool:
        """Whether the player to move may take the latest discard now."""
        if state.is_over or state.phase != DRAW or not state.discards:
            return False
        return self._discard_pickup_error(state, state.seat(state.turn_seat), state.discards[-1]) is None

    def _discard_pickup_error(self, state: RoundState, me: SeatState, card: Card) -> IllegalMoveError | None:
        """Why ``me`` may not take ``card`` from the discards (D-11, MC-17, MC-19), or None."""
        if not me.sees_maal:
            return None
        if me.dublee:
            if card not in me.hand:
                return IllegalMoveError("after seeing, a dublee player takes a discard only to complete "
                                        "the eighth dublee and finish", rule="MC-19")
            return None
        if not self.ruleset["joker_pickup_after_seeing"] and jokers.is_joker(card, state.tiplu, self.ruleset):
            return IllegalMoveError(f"{card} is a joker: a player who has seen may not take it from the "
                                    "discards", rule=self._rule("D-11", "MC-17"))
        return None

    def _draw(self, state: RoundState, move: Draw) -> RoundState:
        me = state.seat(move.seat)
        if state.phase != DRAW:
            raise IllegalMoveError("the player has already drawn this turn", rule="MC-14")
        if move.source == STOCK:
            if not state.stock:
                raise IllegalMoveError("the stock is empty", rule="D-6")
            card, stock, discards = state.stock[0], state.stock[1:], state.discards
            if move.card is not None and move.card != card:
                raise DeckMismatchError(f"the record lists {move.card} for a stock draw the deck makes {card}",
                                        rule="D-3")
            taken = None
        elif move.source == DISCARD:
            if not state.discards:
                raise IllegalMoveError("there is no discard to take", rule="MC-14")
            card = state.discards[-1]
            if move.card is not None and move.card != card:
                raise IllegalMoveError(f"only the latest discard ({card}) may be taken, not {move.card}",
                                       rule="MC-14")
            err = self._discard_pickup_error(state, me, card)
            if err is not None:
                raise err
            stock, discards, taken = state.stock, state.discards[:-1], card
        else:
            raise IllegalMoveError(f"unknown draw source {move.source!r}", rule="MC-14")
        must_finish = taken is not None and me.dublee and me.sees_maal   # MC-19
        seats = state.with_seat(move.seat, hand=sort_cards(me.hand + (card,)), has_drawn=True)
        return self._moved(state, seats=seats, stock=stock, discards=discards, phase=PLAY,
                           taken=taken, drawn=card, must_finish=must_finish, auto_turn=move.auto)

    def _finish(self, state: RoundState, move: Finish) -> RoundState:
        me = state.seat(move.seat)
        if state.phase != PLAY:
            raise IllegalMoveError("a finish comes after drawing", rule="D-7")
        if not me.has_shown:
            raise IllegalMoveError("only a player who has shown may finish", rule=self._rule("D-7", "MC-20"))
        if state.taken is not None and move.discard == state.taken:
            raise IllegalMoveError(f"{move.discard} was just taken from the discards and may not be "
                                   "discarded this turn", rule="MC-14")
        finishing.check_finish(move.groups, move.discard, me.hand, tiplu=self.known_tiplu(state, me),
                               ruleset=self.ruleset, dublee=me.dublee)
        hand = remove_cards(me.hand, [move.discard])
        seats = state.with_seat(move.seat, hand=hand)
        record = FinishRecord(tuple(tuple(g) for g in move.groups), move.discard, me.dublee)
        return self._moved(state, seats=seats, discards=state.discards + (move.discard,), phase=OVER,
                           winner=move.seat, finish=record, turns=state.turns + 1, taken=None, drawn=None,
                           auto_turn=False,
                           must_finish=False, shown_this_turn=False)

    def _discard(self, state: RoundState, move: Discard) -> RoundState:
        me = state.seat(move.seat)
        if state.phase != PLAY:
            raise IllegalMoveError("draw before discarding", rule="MC-14")
        if state.must_finish:
            raise IllegalMoveError("a dublee player who took a discard must finish with it", rule="MC-19")
        if state.taken is not None and move.card == state.taken:
            raise IllegalMoveError(f"{move.card} was just taken from the discards and may not be "
                                   "discarded this turn", rule="MC-14")
        hand = remove_cards(me.hand, [move.card])
        if hand is None:
            raise IllegalMoveError(f"seat {move.seat} does not hold {move.card}", rule="MC-14")
        sees = me.sees_maal or state.shown_this_turn   # MN-17: seen after the discard that follows the show
        seats = state.with_seat(move.seat, hand=hand, sees_maal=sees)
        state = self._moved(state, seats=seats, discards=state.discards + (move.card,), taken=None, drawn=None,
                            shown_this_turn=False, auto_turn=False, turns=state.turns + 1, phase=DRAW,
                            turn_seat=left_of(move.seat, state.n_seats, direction=self.direction))
        return self._end_of_turn(state)

    def _end_of_turn(self, state: RoundState) -> RoundState:
        if state.turns >= self.ruleset["turn_cap"]:
            return _changed(state, phase=OVER, void_reason=VOID_TURN_CAP)   # D-10
        if not state.stock:
            return self._refill(state)
        return state

    def _refill(self, state: RoundState) -> RoundState:
        """D-6 / MC-24: all discards but the latest, shuffled from the stream, become the stock."""
        old, latest = state.discards[:-1], state.discards[-1:]
        if not old:
            return _changed(state, phase=OVER, void_reason=VOID_STOCK)      # D-10
        k = state.reshuffles + 1
        stock = tuple(state.randomness.reshuffle(k, old))
        return _changed(state, stock=stock, discards=latest, reshuffles=k)

    def jokers_of_hand(self, deal: Any, outcome: Outcome) -> "Callable[[Card], bool] | None":
        """Which cards were jokers in a replayed hand (for the deal statistics): every card
        with a role under the hand's tiplu (MN-32, MC-3; putali and master in nepal), or
        ``None`` when no tiplu was drawn (nobody showed, D-5)."""
        text = outcome.detail.get("tiplu") if outcome is not None else None
        if not text:
            return None
        table = jokers.role_table(parse_card(text), self.ruleset)
        return lambda card: table[card.code] is not jokers.Role.NONE

    # --- the end ------------------------------------------------------------------------

    def describe(self, move: Any, players: Sequence[str]) -> str:
        """The move in words with suit symbols (:mod:`replay.describe`)."""
        from .describe import describe
        return describe(move, players)

    def work_points(self, outcome: Outcome) -> dict[str, Any]:
        """The terms of the outcome's net points, for :func:`replay.worked.work_settlement`."""
        from .worked import work_points
        return work_points(outcome, self.ruleset)

    def outcome(self, state: RoundState) -> Outcome:
        """Maal points, net points (streamlined through the winner, or D-10 when void)."""
        if not state.is_over:
            raise IllegalMoveError("the round is not over yet")
        counts = []
        for s in state.seats:
            counts.append(maal.count_maal(hand=s.hand, table=s.table, tunnelas_at_deal=s.tunnelas_at_deal,
                                          tiplu=state.tiplu, seen=s.has_shown, ruleset=self.ruleset))
        scores = tuple(m.points for m in counts)
        seen = tuple(s.has_shown for s in state.seats)
        if state.winner is not None:
            nets = payments.nets_streamlined(scores, winner=state.winner, seen=seen,
                                             dublee_finish=state.finish.dublee, ruleset=self.ruleset)
        else:
            nets = payments.void_nets(scores)
        breakdown = []
        for s, m in zip(state.seats, counts):
            breakdown.append({
                "maal": _items_json(m.items), "points": m.points, "seen": s.has_shown,
                "dublee": s.dublee,
                "tunnelas_at_deal": [[str(c) for c in g] for g in s.tunnelas_at_deal],
                "shown": [[str(c) for c in g] for g in s.shown],
                "hand": [str(c) for c in s.hand],
            })
        detail: dict[str, Any] = {
            "tiplu": str(state.tiplu) if state.tiplu else None, "turns": state.turns,
            "reshuffles": state.reshuffles, "void_reason": state.void_reason, "dealer": state.dealer,
        }
        if state.finish is not None:
            detail["finish"] = {"groups": [[str(c) for c in g] for g in state.finish.groups],
                                "discard": str(state.finish.discard), "dublee": state.finish.dublee}
        return Outcome(points=scores, net_points=tuple(nets), winner=state.winner,
                       breakdown=tuple(breakdown), detail=detail)


def _items_json(items: Sequence[Any]) -> list[Any]:
    out = []
    for item in items:
        if hasattr(item, "to_json"):
            out.append(item.to_json())
        elif isinstance(item, (list, tuple)):
            out.append([str(x) if isinstance(x, Card) else x for x in item])
        else:
            out.append(str(item))
    return out
