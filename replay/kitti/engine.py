"""The Kitti engine: one deal, as the protocol of :mod:`replay.game` describes.

    engine = KittiEngine(resolve("kitti"))
    state = engine.start(randomness, dealer=0, pot_before=0)
    while not engine.is_over(state):
        state = engine.apply(state, choose(engine.legal_moves(state)))
    outcome = engine.outcome(state)

Decisions taken here (docs/kitti.md repeats them):

* **Order** (K-4): from the dealer's right, going on to the right; the dealer speaks last
  (:func:`~replay.kitti.showdown.speaking_order`).
* **Four of a kind** (K-20) is automatic: it is "shown at once", so a deal where any hand
  holds one is over right after the deal, with no moves; the outcome names the holder.
* **Four pairs** (K-21, when on) redeal inside the hand: the k-th redeal uses
  ``randomness.redeal(k)`` (D-3), the same dealer deals again and every seat stakes again
  (D-14: the pot stays and the next deal adds the new stakes).  After
  :data:`MAX_REDEALS` redeals the hand ends void and the pot stays.
* **Uncontested** (D-15): the hand ends as soon as all but one seat have folded; that
  seat takes the pot without showing (it may not have spoken).
* **Timeouts**: a seat that times out plays the default arrangement
  (:func:`~replay.kitti.strategy.default_arrangement`) as ``Arrange(..., auto=True)``;
  the engine rejects an ``auto`` move with any other arrangement.

A replay that needs only the final state (an audit) applies its moves to one
:class:`WorkingDeal` (:meth:`KittiEngine.working`), changed in place, and freezes it at
the end; every other caller gets a new frozen :class:`KittiState` per move.  Both pass the
very same checks (``tests/kitti/test_kitti_working_state.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence, TypeVar, final

from ..cards import Card, card_texts
from ..deal import deal as deal_shoe, seat_order
from ..errors import IllegalMoveError, RulesetError
from ..fairness import HandRandomness
from ..game import Move as GameMove, Outcome
from ..dataclass_replace import replace
from ..rulesets import Ruleset, allowed_players
from .arrangement import Sets, check_arrangement, count_pairs, four_of_a_kind, splits
from .moves import Arrange, Fold, Move, hand_json, parse_move, parse_record_move
from .ranking import ranker_for
from .showdown import DealResult, settle_deal, speaking_order
from .strategy import default_arrangement

MAX_REDEALS = 20


@final
@dataclass(frozen=True)
class KittiState:
    """A deal in progress.  ``moves`` are in the order they were made."""

    n_seats: int
    dealer: int
    pot_before: int
    hands: tuple[tuple[Card, ...], ...]
    order: tuple[int, ...]
    redeals: int = 0
    voided: tuple[dict[str, Any], ...] = ()  # K-21: the deals set aside before this one
    moves: tuple[Move, ...] = ()
    four: bool = False  # K-20: some hand holds four of a kind, the deal is decided
    void: bool = False  # K-21: still four pairs after MAX_REDEALS, the deal is void

    @property
    def spoken(self) -> dict[int, Move]:
        return {m.seat: m for m in self.moves}

    @property
    def folds(self) -> int:
        return sum(1 for m in self.moves if isinstance(m, Fold))


@final
class WorkingDeal:
    """A deal in progress confined to one replay: :meth:`KittiEngine.apply` appends each
    move to it in place.  Every move it holds was checked by ``apply``, each made by the seat
    whose turn it was, so the seats that have spoken are the first ``len(moves)`` of
    ``order``.  :meth:`freeze` gives the :class:`KittiState` of the same values."""

    __slots__ = ("n_seats", "dealer", "pot_before", "hands", "order", "redeals", "voided", "moves", "four",
                 "void", "folds")

    def __init__(self, state: KittiState) -> None:
        self.n_seats, self.dealer, self.pot_before = state.n_seats, state.dealer, state.pot_before
        self.hands, self.order, self.redeals, self.voided = state.hands, state.order, state.redeals, state.voided
        self.four, self.void = state.four, state.void
        self.moves = list(state.moves)
        self.folds = state.folds

    def freeze(self) -> KittiState:
        return KittiState(self.n_seats, self.dealer, self.pot_before, self.hands, self.order, self.redeals,
                          self.voided, tuple(self.moves), self.four, self.void)


#: the two forms of a deal in progress :meth:`KittiEngine.apply` takes, each giving back its own
_State = TypeVar("_State", KittiState, WorkingDeal)


class KittiEngine:
    """Kitti under one resolved ruleset (see the module docstring)."""

    game = "kitti"

    def __init__(self, ruleset: Ruleset) -> None:
        if ruleset.game != "kitti":
            raise RulesetError(f"KittiEngine needs a kitti ruleset, not {ruleset.game!r}")
        if ruleset["hand_size"] != 9:
            raise RulesetError(f"Kitti deals nine cards (K-1), not {ruleset['hand_size']}")
        if dict(ruleset["shoe"]) != {"decks": 1, "jokers": 0, "masters": 0}:
            raise RulesetError("Kitti is played with one 52-card deck (D-12)")
        self.ruleset = ruleset
        self.ranker = ranker_for(ruleset)

    # -- the deal ---------------------------------------------------------------------
    def start(self, randomness: HandRandomness, *, dealer: int, pot_before: int = 0, **table: Any) -> KittiState:
        """Stakes in (K-1), nine cards each from the dealer's left (K-4, replay.deal)."""
        if randomness.ruleset.game != self.game:   # another game's shoe and deal: not nine cards each
            raise RulesetError(f"Kitti deals from a kitti hand's randomness, not a {randomness.ruleset.game} hand's")
        n = randomness.n_seats
        if n not in allowed_players(self.ruleset):
            raise RulesetError(f"Kitti is played by 2-5 players, not {n} (D-12)")
        if isinstance(pot_before, bool) or not isinstance(pot_before, int) or pot_before < 0:
            raise RulesetError("pot_before must be a non-negative whole number of points")
        if type(randomness) is HandRandomness and (randomness.ruleset is self.ruleset
                                                   or randomness.ruleset == self.ruleset):  # the v1 shoe, by slices
            hands = self._deal(randomness.shoe(), n, dealer)
        else:
            hands = tuple(tuple(h) for h in randomness.deal(dealer).hands)
        voided: list[dict[str, Any]] = []
        redeals = 0
        while self._is_void(hands):
            if redeals == MAX_REDEALS:
                break
            voided.append({"deal": redeals + 1, "hands": [hand_json(h) for h in hands],
                           "four_pairs": [i for i, h in enumerate(hands) if count_pairs(h) >= 4]})
            redeals += 1
            hands = tuple(tuple(h) for h in deal_shoe(self.ruleset, randomness.redeal(redeals), n, dealer).hands)
        four = any(four_of_a_kind(h) is not None for h in hands)
        return KittiState(n, dealer, pot_before, hands, speaking_order(dealer, n), redeals, tuple(voided),
                          four=four, void=self._is_void(hands))

    def _deal(self, shoe: Sequence[Card], n: int, dealer: int) -> tuple[tuple[Card, ...], ...]:
        """:func:`replay.deal.deal` of a Kitti shoe (K-1, K-4: one card at a time from the
        dealer's left, nothing turned up), read as slices: the ``k``-th seat served gets the
        cards at ``k, k + n, k + 2n ...`` (tests/kitti/test_kitti_engine.py compares the two)."""
        order = seat_order(dealer, n, direction=self.ruleset.settings.get("direction", "clockwise"))
        dealt = 9 * n
        if dealt > len(shoe):
            return tuple(tuple(h) for h in deal_shoe(self.ruleset, shoe, n, dealer).hands)  # its error
        hands: list[tuple[Card, ...]] = [()] * n   # every seat is in ``order``, so each is filled
        for k, seat in enumerate(order):
            hands[seat] = tuple(shoe[k:dealt:n])
        return tuple(hands)

    def _is_void(self, hands: tuple[tuple[Card, ...], ...]) -> bool:
        if not self.ruleset["four_pairs_void"]:
            return False
        if any(four_of_a_kind(h) is not None for h in hands):  # D-17: K-20 comes first
            return False
        return any(count_pairs(h) >= 4 for h in hands)

    # -- whose turn -------------------------------------------------------------------
    def working(self, state: KittiState) -> WorkingDeal:
        """A working copy of ``state`` that :meth:`apply` changes in place (and returns)."""
        return WorkingDeal(state)

    def is_over(self, state: KittiState | WorkingDeal) -> bool:
        if state.four or state.void:  # K-20; K-21 after MAX_REDEALS
            return True
        return len(state.moves) == state.n_seats or state.folds >= state.n_seats - 1

    def to_move(self, state: KittiState | WorkingDeal) -> int | None:
        if self.is_over(state):
            return None
        if type(state) is WorkingDeal:   # its moves were made in speaking order
            return state.order[len(state.moves)]
        spoken = state.spoken
        return next(s for s in state.order if s not in spoken)

    def legal_moves(self, state: KittiState) -> list[Move]:
        """Fold, then the 280 arrangements in their forced order (K-2, K-7)."""
        seat = self.to_move(state)
        if seat is None:
            return []
        return [Fold(seat)] + [Arrange(seat, s) for s in splits(state.hands[seat], self.ranker)]

    def apply(self, state: _State, move: GameMove) -> _State:
        """The state after ``move``: a new :class:`KittiState`, or a :class:`WorkingDeal`
        changed in place (and returned)."""
        if not isinstance(move, (Fold, Arrange)):
            raise IllegalMoveError("a Kitti move is Fold or Arrange", rule="K-2")
        seat = self.to_move(state)
        if seat is None:
            if state.four:
                raise IllegalMoveError("four of a kind was shown at once: the deal is decided", rule="K-20")
            if state.void:
                raise IllegalMoveError("the deal is void (four pairs)", rule="K-21")
            raise IllegalMoveError("the deal is over: everyone has spoken", rule="K-19")
        if move.seat != seat:
            raise IllegalMoveError(f"seat {seat} speaks now, not seat {move.seat}", rule="K-4")
        if isinstance(move, Arrange):
            sets = check_arrangement(move.sets, self.ranker, hand=state.hands[seat])
            if move.auto and _canon(sets) != _canon(default_arrangement(state.hands[seat], self.ranker)):
                raise IllegalMoveError("a timed-out seat plays the default arrangement (docs/kitti.md)")
        if type(state) is WorkingDeal:
            state.moves.append(move)
            state.folds += isinstance(move, Fold)
            return state
        return replace(state, moves=state.moves + (move,))

    def parse_move(self, data: Mapping[str, Any]) -> Move:
        return parse_move(data)

    parse_record_move = staticmethod(parse_record_move)   # a record move, ``time`` and all

    # -- the result -------------------------------------------------------------------
    def result(self, state: KittiState) -> DealResult:
        """The deal settled in points (:func:`~replay.kitti.showdown.settle_deal`)."""
        if not self.is_over(state):
            raise IllegalMoveError("the deal is not over yet", rule="K-4")
        spoken = state.spoken
        arranged = [m.sets if isinstance(m := spoken.get(i), Arrange) else None for i in range(state.n_seats)]
        folded = [isinstance(spoken.get(i), Fold) for i in range(state.n_seats)]
        # K-20 and K-21 are properties of the dealt hands, found at the deal (``four``, ``void``):
        # settle_deal needs the hands only when one of them holds
        hands = state.hands if state.four or state.void else (None,) * state.n_seats
        return settle_deal(self.ruleset, hands=hands, arranged=arranged, folded=folded,
                           pot_before=state.pot_before, dealer=state.dealer,
                           deals=1 + state.redeals, ranker=self.ranker)

    def describe(self, move: Any, players: Sequence[str]) -> str:
        """The move in words with suit symbols (:mod:`replay.describe`)."""
        from .describe import describe
        return describe(move, players)

    def work_points(self, outcome: Outcome) -> dict[str, Any]:
        """The terms of the outcome's net points, for :func:`replay.worked.work_settlement`."""
        from .worked import work_points
        return work_points(outcome)

    def outcome(self, state: KittiState) -> Outcome:
        res = self.result(state)
        spoken = state.spoken
        label, key = self.ranker.label_of_key, self.ranker.key
        won: list[list[int]] = [[] for _ in range(state.n_seats)]   # each seat's rounds won
        for r in res.rounds:
            if r["winner"] is not None:
                won[r["winner"]].append(r["round"])
        breakdown = []
        for i in range(state.n_seats):
            move = spoken.get(i)
            sets = move.sets if isinstance(move, Arrange) else None
            keys = res.keys[i] if res.keys else None
            entry: dict[str, Any] = {
                "hand": card_texts(state.hands[i]),
                "folded": isinstance(move, Fold),
                "sets": [card_texts(s) for s in sets] if sets is not None else None,
                # the sets were checked when the move was applied: their keys name their classes
                "classes": ([label(k) for k in keys] if keys is not None
                            else [label(key(s[0].code, s[1].code, s[2].code)) for s in sets]) if sets is not None else None,
                "auto": bool(isinstance(move, Arrange) and move.auto),
                "rounds": won[i],
                "stakes": res.stakes_paid[i],
                "salami": res.salami[i],
            }
            breakdown.append(entry)
        detail = res.detail()
        detail["redeals"] = state.redeals
        detail["voided_deals"] = [dict(v) for v in state.voided]
        detail["dealer"] = state.dealer
        return Outcome(points=res.rounds_won, net_points=res.net_points, winner=res.winner,
                       breakdown=tuple(breakdown), pot_delta_points=res.pot_delta, detail=detail)


def _canon(sets: Sets) -> frozenset[frozenset[Card]]:
    return frozenset(frozenset(s) for s in sets)
