"""The 13-card Rummy engine (preset ``rummy13``), implementing :mod:`replay.game`.

One deal, from the shuffle to the count:

* **Deal** (R-4, D-18, D-19): 13 cards each from the dealer's left; the next card is the
  indicator (sets the wild rank, R-5; never drawn); the next starts the open pile; the
  rest is the closed pile, top first.  The seat on the dealer's left plays first (D-4).
* **Turn** (R-6): pick the top of the closed or the open pile (a joker on the open pile
  only if ``joker_pickup``, D-24), then discard one card -- or declare (R-7, D-21): put
  one card face down and show the other 13 in groups.  When the closed pile is empty at
  the end of a turn, the open pile except its top card is reshuffled from the stream into
  a new closed pile (D-20, D-3).
* **Leaving**: a drop at the start of one's turn scores ``first_drop`` (20) before any
  pick (R-16), ``middle_drop`` (40) after (R-17).  A wrong declaration scores
  ``wrong_declaration`` (80) and removes the player; the others play on (R-18, D-21).  A
  chair whose clock runs out has its turn auto-played (``auto`` pick from the closed pile
  and discard of that card); after ``max_missed_turns`` such turns in a row the table
  drops it with the middle-drop score (R-3, R-19, D-23).
* **End**: a valid declaration ends the deal: the declarer scores 0 and everyone still
  in is counted at the least points of their 13 cards (R-8, R-12..R-15, D-22).  If all
  but one player have left, the last player left wins (D-21).

The state is an immutable :class:`RummyState`; :meth:`RummyEngine.apply` returns a new one.
A replay that needs only where the deal ends plays on one :class:`WorkingRummy`
(:meth:`RummyEngine.working`), which ``apply`` changes in place (:mod:`replay.rummy.state`).
Every move handler here changes a working state, and raises before it changes anything, so
a refused move leaves the state as it was; on a frozen state ``apply`` works on a copy.
"""
from __future__ import annotations

from typing import Any, Sequence, TypeVar

from ..cards import Card, card_texts
from ..deal import Deal, deal as deal_shoe, left_of, seat_order
from ..errors import DeckMismatchError, IllegalMoveError, RulesetError
from ..fairness import HandRandomness
from ..game import Move as GameMove, Outcome
from ..rulesets import Ruleset, allowed_players
from .declare import check_declaration
from .groups import is_joker, wild_rank_of
from .moves import Declare, Discard, Drop, Move, Pick, parse_move, parse_record_move
from .solver import solve
from .state import PLAYING, RummyState, WorkingRummy

__all__ = ["RummyEngine", "RummyState", "WorkingRummy"]
# How a seat's deal ended (the breakdown's "left").
DECLARED, COUNTED, LAST_LEFT = "declared", "counted", "last_left"
FIRST_DROP, MIDDLE_DROP, WRONG, TIMEOUT_DROP = "first_drop", "middle_drop", "wrong_declaration", "timeout_drop"
PICK, DISCARD, TIMEOUT, OVER = "pick", "discard", "timeout_drop", "over"
#: the two forms of a deal in progress :meth:`RummyEngine.apply` takes, each giving back its own
_State = TypeVar("_State", RummyState, WorkingRummy)


def _index(hand: list[Card], card: Card) -> int:
    """Where ``card`` first sits in ``hand``, or -1 (compared by code: no ``__eq__`` call per card)."""
    code = card.code
    for i, c in enumerate(hand):
        if c.code == code:
            return i
    return -1


def _remove(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


class RummyEngine:
    """13-card Rummy under a resolved ``rummy13`` ruleset."""

    game = "rummy13"

    def __init__(self, ruleset: Ruleset) -> None:
        if ruleset.game != self.game:
            raise RulesetError(f"RummyEngine plays rummy13, not {ruleset.game}")
        self.ruleset = ruleset

    # ------------------------------------------------------------------ protocol
    def start(self, randomness: HandRandomness, *, dealer: int, **table: Any) -> RummyState:
        n = randomness.n_seats
        if n not in allowed_players(self.ruleset):
            raise RulesetError(f"rummy13 is played by {allowed_players(self.ruleset)} players, not {n}")
        if type(randomness) is HandRandomness and (randomness.ruleset is self.ruleset
                                                   or randomness.ruleset == self.ruleset):  # the v1 shoe, by slices
            d = self._deal(randomness.shoe(), n, dealer)
        else:
            d = randomness.deal(dealer)
        if d.indicator is None or d.turned_up is None:   # another game's layout (R-5, D-19)
            raise RulesetError(f"a rummy13 deal lays out an indicator and an open pile's first card; "
                               f"this randomness deals {randomness.ruleset.game}'s layout")
        return RummyState(
            randomness=randomness, dealer=dealer, indicator=d.indicator,
            wild=wild_rank_of(d.indicator), hands=d.hands, closed=d.stock,
            open_pile=(d.turned_up,), turn=left_of(dealer, n),
            has_picked=(False,) * n, missed=(0,) * n, status=(PLAYING,) * n,
            shown=(None,) * n, finish=(None,) * n)

    def _deal(self, shoe: Sequence[Card], n: int, dealer: int) -> Deal:
        """:func:`replay.deal.deal` of a rummy shoe (R-4, D-19: one card at a time from the
        dealer's left, then the indicator, then the open pile's first card, the rest the
        closed pile), read as slices: the ``k``-th seat served gets the cards at ``k, k + n,
        k + 2n ...`` (tests/rummy/test_rummy_engine.py compares the two)."""
        size = self.ruleset["hand_size"]
        dealt = size * n
        if size < 1 or dealt + 2 > len(shoe):
            return deal_shoe(self.ruleset, shoe, n, dealer)  # its error
        order = seat_order(dealer, n, direction=self.ruleset.settings.get("direction", "clockwise"))
        hands: list[tuple[Card, ...]] = [()] * n   # every seat is in ``order``, so each is filled
        for k, seat in enumerate(order):
            hands[seat] = tuple(shoe[k:dealt:n])
        return Deal(tuple(hands), shoe[dealt + 1], shoe[dealt], tuple(shoe[dealt + 2:]))

    def working(self, state: RummyState) -> WorkingRummy:
        """A working copy of ``state`` that :meth:`apply` changes in place (and returns), for
        a replay that needs only where the deal ends (:class:`WorkingRummy`)."""
        return WorkingRummy(state)

    def to_move(self, state: RummyState) -> int | None:
        return None if state.phase == OVER else state.turn

    def is_over(self, state: RummyState) -> bool:
        return state.phase == OVER

    #: a move from its JSON form (:func:`replay.rummy.moves.parse_move`; no engine state needed)
    parse_move = staticmethod(parse_move)
    #: a record's move as it stands, its envelope ``time`` ignored (the replayer's reader)
    parse_record_move = staticmethod(parse_record_move)

    def legal_moves(self, state: RummyState) -> list[Move]:
        """Every move accepted now.  Declarations are listed only when valid (one grouping
        per finish card); ``apply`` also accepts any other show of the 13 cards, which is
        a wrong declaration (R-18)."""
        seat = state.turn
        if state.phase == OVER:
            return []
        if state.phase == TIMEOUT:
            return [Drop(seat, auto=True)]
        if state.phase == PICK:
            moves: list[Move] = []
            if state.closed:
                moves.append(Pick(seat, "closed"))
            if self.can_pick_open(state):
                moves.append(Pick(seat, "open", state.open_pile[-1]))
            moves.append(Drop(seat))
            auto = self.auto_pick(state)
            if auto is not None:
                moves.append(auto)
            return moves
        hand = state.hands[seat]
        moves = []
        if not state.picked_auto:
            moves.extend(Discard(seat, c) for c in sorted(set(hand)))
            moves.extend(self.declarations(state))
        if state.picked is not None:   # always, in the discard phase: the card picked this turn
            moves.append(Discard(seat, state.picked, auto=True))
        return moves

    def declarations(self, state: RummyState) -> list[Declare]:
        """For each distinct finish card, a valid declaration of the rest if there is one."""
        seat = state.turn
        hand = state.hands[seat]
        out = []
        for finish in sorted(set(hand)):
            sol = solve(_remove(hand, finish), state.wild, high=self.ruleset["high_card_points"])
            if sol.is_complete:
                out.append(Declare(seat, finish, sol.groups))
        return out

    def apply(self, state: _State, move: GameMove) -> _State:
        """The state after ``move``: a new frozen state, or ``state`` itself changed in place
        when it is a :class:`WorkingRummy`.  A refused move raises and changes nothing."""
        if type(state) is WorkingRummy:
            self._apply(state, move)
            return state
        w = WorkingRummy(state)
        self._apply(w, move)
        return w.freeze()

    def _apply(self, w: WorkingRummy, move: GameMove) -> None:
        if w.phase == OVER:
            raise IllegalMoveError("the deal is over", rule="R-7")
        if not isinstance(move, (Pick, Discard, Declare, Drop)):
            raise IllegalMoveError(f"not a rummy move: {move!r}")
        if move.seat != w.turn:
            raise IllegalMoveError(f"it is seat {w.turn}'s turn, not seat {move.seat}'s", rule="R-6")
        if w.phase == TIMEOUT:
            if not (isinstance(move, Drop) and move.auto):
                raise IllegalMoveError(
                    f"seat {move.seat} missed {self.ruleset['max_missed_turns']} turns in a row: "
                    "the table drops it", rule="D-23")
            return self._leave(w, move.seat, TIMEOUT_DROP)
        if isinstance(move, Pick):
            return self._pick(w, move)
        if isinstance(move, Drop):
            if move.auto:
                raise IllegalMoveError("the table drops a chair only after missed turns", rule="D-23")
            if w.phase != PICK:
                raise IllegalMoveError("a player drops at the start of a turn, before picking", rule="R-17")
            how = MIDDLE_DROP if w.has_picked[move.seat] else FIRST_DROP
            return self._leave(w, move.seat, how)
        if w.phase != DISCARD:
            raise IllegalMoveError("pick a card first", rule="R-6")
        if isinstance(move, Discard):
            return self._discard(w, move)
        return self._declare(w, move)

    # ------------------------------------------------------------------ moves
    def can_pick_open(self, state: RummyState | WorkingRummy) -> bool:
        """Whether the open pile's top card may be picked now (D-24)."""
        if not state.open_pile:
            return False
        return self.ruleset["joker_pickup"] or not is_joker(state.open_pile[-1], state.wild)

    def auto_pick(self, state: RummyState | WorkingRummy) -> Pick | None:
        """The pick the table plays for a chair whose clock ran out (D-23)."""
        if state.closed:
            return Pick(state.turn, "closed", auto=True)
        if self.can_pick_open(state):
            return Pick(state.turn, "open", state.open_pile[-1], auto=True)
        return None

    def _pick(self, w: WorkingRummy, move: Pick) -> None:
        if w.phase != PICK:
            raise IllegalMoveError("one pick per turn; now discard or declare", rule="R-6")
        if move.auto:
            expected = self.auto_pick(w)
            if expected is None or move.source != expected.source:
                raise IllegalMoveError("a timed-out turn picks from the closed pile", rule="D-23")
        closed = move.source == "closed"
        if closed:
            if not w.closed:
                raise IllegalMoveError("the closed pile is empty", rule="D-20")
            card = w.closed[0]
        else:
            if not w.open_pile:
                raise IllegalMoveError("the open pile is empty", rule="R-6")
            card = w.open_pile[-1]
            if not self.can_pick_open(w):
                raise IllegalMoveError(f"{card} is a joker and this table forbids picking "
                                       "jokers from the open pile", rule="D-24")
        if move.card is not None and move.card is not card and move.card != card:  # (cards are shared values)
            if closed:  # the deck decides a closed pick (D-3)
                raise DeckMismatchError(f"the record lists {move.card} for a closed pick the deck makes {card}",
                                        rule="D-3")
            raise IllegalMoveError(f"the {move.source} pile's top card is {card}, not {move.card}", rule="R-6")
        if closed:
            del w.closed[0]
        else:
            w.open_pile.pop()
        seat = move.seat
        w.hands[seat].append(card)
        w.phase, w.picked, w.picked_auto = DISCARD, card, move.auto
        w.has_picked[seat] = True

    def _discard(self, w: WorkingRummy, move: Discard) -> None:
        seat = move.seat
        hand = w.hands[seat]
        i = _index(hand, move.card)
        if i < 0:
            raise IllegalMoveError(f"seat {seat} does not hold {move.card}", rule="R-6")
        if move.auto and move.card != w.picked:
            raise IllegalMoveError("a timed-out turn discards the card it picked", rule="D-23")
        if w.picked_auto and not move.auto:
            raise IllegalMoveError("a turn picked automatically is discarded automatically", rule="D-23")
        missed = w.missed[seat] + 1 if move.auto else 0
        del hand[i]
        w.open_pile.append(move.card)
        w.missed[seat] = missed
        if move.auto and missed >= self.ruleset["max_missed_turns"]:
            self._refill(w)
            w.phase, w.picked, w.picked_auto = TIMEOUT, None, False
            w.turns += 1
            return
        self._end_turn(w)

    def _declare(self, w: WorkingRummy, move: Declare) -> None:
        seat = move.seat
        hand = w.hands[seat]
        i = _index(hand, move.finish_card)
        if i < 0:
            raise IllegalMoveError(f"seat {seat} does not hold the finish card {move.finish_card}", rule="R-7")
        rest = [c.code for c in hand]
        del rest[i]
        rest.sort()
        if sorted([c.code for g in move.groups for c in g]) != rest:  # the same cards, as many times
            raise IllegalMoveError("a declaration shows exactly the 13 cards held besides the finish card",
                                   rule="R-7")
        verdict = check_declaration(move.groups, w.wild, hand_size=self.ruleset["hand_size"])
        w.shown[seat] = move.groups
        w.finish[seat] = move.finish_card
        if verdict.valid:
            w.status[seat] = DECLARED
            w.winner, w.phase, w.picked, w.picked_auto = seat, OVER, None, False
            w.turns += 1
            return
        self._leave(w, seat, WRONG)

    def _leave(self, w: WorkingRummy, seat: int, how: str) -> None:
        w.status[seat] = how
        left = w.active()
        if len(left) == 1:
            w.winner, w.phase, w.picked, w.picked_auto = left[0], OVER, None, False
            return
        self._end_turn(w)

    def _refill(self, w: WorkingRummy) -> None:
        """D-20: an empty closed pile is refilled from the open pile but its top card."""
        if w.closed or len(w.open_pile) < 2:
            return
        k = w.reshuffles + 1
        w.closed = list(w.randomness.reshuffle(k, tuple(w.open_pile[:-1])))
        w.open_pile = w.open_pile[-1:]
        w.reshuffles = k

    def _end_turn(self, w: WorkingRummy) -> None:
        if not w.closed:
            self._refill(w)
        n, status = len(w.hands), w.status
        seat = (w.turn + 1) % n  # left_of (D-4: clockwise)
        while status[seat] != PLAYING:
            seat = (seat + 1) % n
        w.turn, w.phase, w.picked, w.picked_auto = seat, PICK, None, False
        w.turns += 1

    # ------------------------------------------------------------------ outcome
    def describe(self, move: Any, players: Sequence[str]) -> str:
        """The move in words with suit symbols (:mod:`replay.describe`)."""
        from .describe import describe
        return describe(move, players)

    def work_points(self, outcome: Outcome) -> dict[str, Any]:
        """The terms of the outcome's net points, for :func:`replay.worked.work_settlement`."""
        from .worked import work_points
        return work_points(outcome)

    def outcome(self, state: RummyState) -> Outcome:
        if state.phase != OVER:
            raise IllegalMoveError("the deal is not over", rule="R-8")
        rs = self.ruleset
        fixed = {FIRST_DROP: rs["first_drop"], MIDDLE_DROP: rs["middle_drop"],
                 TIMEOUT_DROP: rs["middle_drop"], WRONG: rs["wrong_declaration"]}
        points, breakdown = [], []
        for seat, how in enumerate(state.status):
            hand = state.hands[seat]
            item: dict[str, Any] = {"seat": seat, "hand": card_texts(hand)}
            shown = state.shown[seat]   # the groups of the seat's declaration, if it declared
            if seat == state.winner:
                how = DECLARED if how == DECLARED else LAST_LEFT
                pts = 0
                if shown is not None:
                    item["groups"] = [card_texts(g) for g in shown]
                    item["finish_card"] = str(state.finish[seat])
                item["counted"] = []
            elif how == PLAYING:
                how = COUNTED
                sol = solve(hand, state.wild, high=rs["high_card_points"])
                pts = sol.points
                item["groups"] = [card_texts(g) for g in sol.groups]
                item["counted"] = card_texts(sol.loose) if sol.case != "no_pure" else item["hand"]
                item["case"] = sol.case
            else:
                pts = fixed[how]
                if shown is not None:   # a seat that left by declaring: a wrong declaration
                    item["groups"] = [card_texts(g) for g in shown]
                    item["finish_card"] = str(state.finish[seat])
            item["left"] = how
            item["points"] = pts
            points.append(pts)
            breakdown.append(item)
        total = sum(points)
        net = tuple(total if s == state.winner else -p for s, p in enumerate(points))
        detail = {"indicator": str(state.indicator),
                  "wild_rank": None if state.wild is None else "A23456789TJQK"[state.wild - 1],
                  "ended": "declared" if state.winner is not None and state.status[state.winner] == DECLARED
                           else "last_left",
                  "turns": state.turns, "reshuffles": state.reshuffles}
        return Outcome(tuple(points), net, state.winner, tuple(breakdown), 0, detail)
