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
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..cards import Card
from ..deal import left_of
from ..errors import DeckMismatchError, IllegalMoveError, RulesetError
from ..fairness import HandRandomness
from ..game import Outcome
from ..dataclass_replace import replace
from ..rulesets import Ruleset, allowed_players
from .declare import check_declaration
from .groups import is_joker, wild_rank_of
from .moves import Declare, Discard, Drop, Move, Pick, parse_move
from .solver import solve

PLAYING = "playing"
# How a seat's deal ended (the breakdown's "left").
DECLARED, COUNTED, LAST_LEFT = "declared", "counted", "last_left"
FIRST_DROP, MIDDLE_DROP, WRONG, TIMEOUT_DROP = "first_drop", "middle_drop", "wrong_declaration", "timeout_drop"
PICK, DISCARD, TIMEOUT, OVER = "pick", "discard", "timeout_drop", "over"


@dataclass(frozen=True)
class RummyState:
    """Everything about a deal in progress.  ``open_pile`` is oldest first (top last);
    ``closed`` is top first.  ``phase``: ``pick``, ``discard`` (the seat has picked),
    ``timeout_drop`` (the table must drop the seat, D-23) or ``over``."""

    randomness: HandRandomness
    dealer: int
    indicator: Card
    wild: int | None
    hands: tuple[tuple[Card, ...], ...]
    closed: tuple[Card, ...]
    open_pile: tuple[Card, ...]
    turn: int
    phase: str = PICK
    picked: Card | None = None
    picked_auto: bool = False
    has_picked: tuple[bool, ...] = ()
    missed: tuple[int, ...] = ()
    status: tuple[str, ...] = ()
    shown: tuple[Any, ...] = ()
    finish: tuple[Card | None, ...] = ()
    reshuffles: int = 0
    turns: int = 0
    winner: int | None = None

    @property
    def n_seats(self) -> int:
        return len(self.hands)

    def active(self) -> list[int]:
        """Seats still playing."""
        return [s for s, st in enumerate(self.status) if st == PLAYING]


def _put(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


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
        d = randomness.deal(dealer)
        return RummyState(
            randomness=randomness, dealer=dealer, indicator=d.indicator,
            wild=wild_rank_of(d.indicator), hands=d.hands, closed=d.stock,
            open_pile=(d.turned_up,), turn=left_of(dealer, n),
            has_picked=(False,) * n, missed=(0,) * n, status=(PLAYING,) * n,
            shown=(None,) * n, finish=(None,) * n)

    def to_move(self, state: RummyState) -> int | None:
        return None if state.phase == OVER else state.turn

    def is_over(self, state: RummyState) -> bool:
        return state.phase == OVER

    def parse_move(self, data: Mapping[str, Any]) -> Move:
        return parse_move(data)

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

    def apply(self, state: RummyState, move: Move) -> RummyState:
        if state.phase == OVER:
            raise IllegalMoveError("the deal is over", rule="R-7")
        if not isinstance(move, (Pick, Discard, Declare, Drop)):
            raise IllegalMoveError(f"not a rummy move: {move!r}")
        if move.seat != state.turn:
            raise IllegalMoveError(f"it is seat {state.turn}'s turn, not seat {move.seat}'s", rule="R-6")
        if state.phase == TIMEOUT:
            if not (isinstance(move, Drop) and move.auto):
                raise IllegalMoveError(
                    f"seat {move.seat} missed {self.ruleset['max_missed_turns']} turns in a row: "
                    "the table drops it", rule="D-23")
            return self._leave(state, move.seat, TIMEOUT_DROP)
        if isinstance(move, Pick):
            return self._pick(state, move)
        if isinstance(move, Drop):
            if move.auto:
                raise IllegalMoveError("the table drops a chair only after missed turns", rule="D-23")
            if state.phase != PICK:
                raise IllegalMoveError("a player drops at the start of a turn, before picking", rule="R-17")
            how = MIDDLE_DROP if state.has_picked[move.seat] else FIRST_DROP
            return self._leave(state, move.seat, how)
        if state.phase != DISCARD:
            raise IllegalMoveError("pick a card first", rule="R-6")
        if isinstance(move, Discard):
            return self._discard(state, move)
        return self._declare(state, move)

    # ------------------------------------------------------------------ moves
    def can_pick_open(self, state: RummyState) -> bool:
        """Whether the open pile's top card may be picked now (D-24)."""
        if not state.open_pile:
            return False
        return self.ruleset["joker_pickup"] or not is_joker(state.open_pile[-1], state.wild)

    def auto_pick(self, state: RummyState) -> Pick | None:
        """The pick the table plays for a chair whose clock ran out (D-23)."""
        if state.closed:
            return Pick(state.turn, "closed", auto=True)
        if self.can_pick_open(state):
            return Pick(state.turn, "open", state.open_pile[-1], auto=True)
        return None

    def _pick(self, state: RummyState, move: Pick) -> RummyState:
        if state.phase != PICK:
            raise IllegalMoveError("one pick per turn; now discard or declare", rule="R-6")
        if move.auto:
            expected = self.auto_pick(state)
            if expected is None or move.source != expected.source:
                raise IllegalMoveError("a timed-out turn picks from the closed pile", rule="D-23")
        if move.source == "closed":
            if not state.closed:
                raise IllegalMoveError("the closed pile is empty", rule="D-20")
            card, closed, open_pile = state.closed[0], state.closed[1:], state.open_pile
        else:
            if not state.open_pile:
                raise IllegalMoveError("the open pile is empty", rule="R-6")
            card = state.open_pile[-1]
            if not self.can_pick_open(state):
                raise IllegalMoveError(f"{card} is a joker and this table forbids picking "
                                       "jokers from the open pile", rule="D-24")
            closed, open_pile = state.closed, state.open_pile[:-1]
        if move.card is not None and move.card != card:
            if move.source == "closed":  # the deck decides a closed pick (D-3)
                raise DeckMismatchError(f"the record lists {move.card} for a closed pick the deck makes {card}",
                                        rule="D-3")
            raise IllegalMoveError(f"the {move.source} pile's top card is {card}, not {move.card}", rule="R-6")
        seat = move.seat
        return replace(state, hands=_put(state.hands, seat, state.hands[seat] + (card,)),
                       closed=closed, open_pile=open_pile, phase=DISCARD, picked=card,
                       picked_auto=move.auto, has_picked=_put(state.has_picked, seat, True))

    def _discard(self, state: RummyState, move: Discard) -> RummyState:
        seat = move.seat
        hand = state.hands[seat]
        if move.card not in hand:
            raise IllegalMoveError(f"seat {seat} does not hold {move.card}", rule="R-6")
        if move.auto and move.card != state.picked:
            raise IllegalMoveError("a timed-out turn discards the card it picked", rule="D-23")
        if state.picked_auto and not move.auto:
            raise IllegalMoveError("a turn picked automatically is discarded automatically", rule="D-23")
        missed = state.missed[seat] + 1 if move.auto else 0
        nxt = replace(state, hands=_put(state.hands, seat, _remove(hand, move.card)),
                      open_pile=state.open_pile + (move.card,), missed=_put(state.missed, seat, missed))
        if move.auto and missed >= self.ruleset["max_missed_turns"]:
            nxt = self._refill(nxt)
            return replace(nxt, phase=TIMEOUT, picked=None, picked_auto=False, turns=nxt.turns + 1)
        return self._end_turn(nxt)

    def _declare(self, state: RummyState, move: Declare) -> RummyState:
        seat = move.seat
        hand = state.hands[seat]
        if move.finish_card not in hand:
            raise IllegalMoveError(f"seat {seat} does not hold the finish card {move.finish_card}", rule="R-7")
        rest = Counter(_remove(hand, move.finish_card))
        shown = Counter(c for g in move.groups for c in g)
        if shown != rest:
            raise IllegalMoveError("a declaration shows exactly the 13 cards held besides the finish card",
                                   rule="R-7")
        verdict = check_declaration(move.groups, state.wild, hand_size=self.ruleset["hand_size"])
        nxt = replace(state, shown=_put(state.shown, seat, move.groups),
                      finish=_put(state.finish, seat, move.finish_card))
        if verdict.valid:
            return replace(nxt, status=_put(nxt.status, seat, DECLARED), winner=seat, phase=OVER,
                           picked=None, picked_auto=False, turns=nxt.turns + 1)
        return self._leave(nxt, seat, WRONG)

    def _leave(self, state: RummyState, seat: int, how: str) -> RummyState:
        nxt = replace(state, status=_put(state.status, seat, how))
        left = nxt.active()
        if len(left) == 1:
            return replace(nxt, winner=left[0], phase=OVER, picked=None, picked_auto=False)
        return self._end_turn(nxt)

    def _refill(self, state: RummyState) -> RummyState:
        """D-20: an empty closed pile is refilled from the open pile but its top card."""
        if state.closed or len(state.open_pile) < 2:
            return state
        k = state.reshuffles + 1
        closed = tuple(state.randomness.reshuffle(k, state.open_pile[:-1]))
        return replace(state, closed=closed, open_pile=state.open_pile[-1:], reshuffles=k)

    def _end_turn(self, state: RummyState) -> RummyState:
        state = self._refill(state)
        n = state.n_seats
        seat = left_of(state.turn, n)
        while state.status[seat] != PLAYING:
            seat = left_of(seat, n)
        return replace(state, turn=seat, phase=PICK, picked=None, picked_auto=False, turns=state.turns + 1)

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
            item: dict[str, Any] = {"seat": seat, "hand": [str(c) for c in hand]}
            if seat == state.winner:
                how = DECLARED if how == DECLARED else LAST_LEFT
                pts = 0
                if state.shown[seat] is not None:
                    item["groups"] = [[str(c) for c in g] for g in state.shown[seat]]
                    item["finish_card"] = str(state.finish[seat])
                item["counted"] = []
            elif how == PLAYING:
                how = COUNTED
                sol = solve(hand, state.wild, high=rs["high_card_points"])
                pts = sol.points
                item["groups"] = [[str(c) for c in g] for g in sol.groups]
                item["counted"] = [str(c) for c in sol.loose] if sol.case != "no_pure" else item["hand"]
                item["case"] = sol.case
            else:
                pts = fixed[how]
                if how == WRONG:
                    item["groups"] = [[str(c) for c in g] for g in state.shown[seat]]
                    item["finish_card"] = str(state.finish[seat])
            item["left"] = how
            item["points"] = pts
            points.append(pts)
            breakdown.append(item)
        total = sum(points)
        net = tuple(total if s == state.winner else -p for s, p in enumerate(points))
        detail = {"indicator": str(state.indicator),
                  "wild_rank": None if state.wild is None else "A23456789TJQK"[state.wild - 1],
                  "ended": "declared" if state.status[state.winner] == DECLARED else "last_left",
                  "turns": state.turns, "reshuffles": state.reshuffles}
        return Outcome(tuple(points), net, state.winner, tuple(breakdown), 0, detail)
