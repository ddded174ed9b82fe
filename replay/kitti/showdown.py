"""Settling one Kitti deal in points: the show, the rounds, the pot (K-3, K-17 ... K-22, D-13 ... D-17).

Everything here is a pure function of the hands, the players' choices and the ruleset,
so the engine (:mod:`replay.kitti.engine`) and ``tiplu eval kitti`` (``settle``) share it.

Order of the checks, and why:

1. **Stakes** (K-1): every seat pays ``stake`` into the pot for every deal dealt in the
   hand (a K-21 redeal makes everyone stake again, D-14).
2. **Four of a kind** (K-20): shown at once, wins the deal outright -- before folds and
   before a K-21 void (D-17: it beats everything).  Two holders: the higher rank wins
   (Ace high).
3. **Four pairs** (K-21, setting ``four_pairs_void``, off by default): the deal is void,
   nobody wins, the pot stays (D-14).
4. **Folds** (K-2, K-5, D-15): one player left takes the pot without showing; nobody left
   and the pot stays.
5. **The show** (K-17, K-18): round by round the strongest set wins; a tie among the
   strongest sets gives the round to nobody.  Strength never adds up across rounds (K-8).
6. **The pot** (D-13, setting ``win_rule``): ``two-rounds`` -- two round wins take it;
   ``consecutive`` -- rounds 1-2 or 2-3.  Three round wins are a **salami**: every other
   player who did not fold pays the winner ``salami_stakes`` x ``stake`` more.  No
   winner: the pot stays, a *kitti* (D-14).

Points: ``net_points[i]`` is what seat ``i`` gains (+) or pays (-); ``pot_delta`` is the
change of the carried pot; ``sum(net_points) + pot_delta == 0`` always.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ..cards import Card
from ..errors import MalformedError
from ..rulesets import Ruleset
from .arrangement import CardSets, count_pairs, four_of_a_kind
from .ranking import SetRanker, ranker_for

ROUNDS = 3


def speaking_order(dealer: int, n_seats: int) -> tuple[int, ...]:
    """K-4: starting on the dealer's right and going on to the right; the dealer speaks last.

    Clockwise seating (D-4): seat ``i + 1`` is on seat ``i``'s left, so the dealer's right
    is ``dealer - 1``.  The seed (``kitti.ne.txt``) says only "starting from the dealer's
    right, each ..."; we read it as continuing the same way round (see docs/kitti.md).
    """
    return tuple((dealer - k) % n_seats for k in range(1, n_seats + 1))


@dataclass(frozen=True)
class DealResult:
    """How one deal ended, in points (see the module docstring)."""

    reason: str  # "rounds", "kitti", "four_of_a_kind", "void", "uncontested", "all_folded"
    winner: int | None
    rounds_won: tuple[int, ...]
    net_points: tuple[int, ...]
    pot_before: int
    pot_after: int
    stakes_paid: tuple[int, ...]
    salami: tuple[int, ...]  # per seat: + received, - paid
    rounds: tuple[dict[str, Any], ...] = ()
    four_of_a_kind: dict[str, int] | None = None
    four_pairs: tuple[int, ...] = ()  # seats holding four pairs when that voided the deal
    keys: tuple[tuple[int, ...] | None, ...] = field(default=(), repr=False)

    @property
    def pot_delta(self) -> int:
        return self.pot_after - self.pot_before

    @property
    def is_salami(self) -> bool:
        return any(s > 0 for s in self.salami)

    def detail(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "rounds": [dict(r) for r in self.rounds],
            "four_of_a_kind": dict(self.four_of_a_kind) if self.four_of_a_kind else None,
            "void": self.reason == "void",
            "four_pairs": list(self.four_pairs),
            "salami": self.is_salami,
            "pot_before": self.pot_before,
            "pot_after": self.pot_after,
        }


def settle_deal(ruleset: Ruleset, *, hands: Sequence[Sequence[Card] | None],
                arranged: Sequence[CardSets | None], folded: Sequence[bool], pot_before: int,
                dealer: int = 0, deals: int = 1, ranker: SetRanker | None = None) -> DealResult:
    """Settle a deal.  ``arranged[i]`` is seat i's legal arrangement (or None), ``folded[i]``
    whether it folded, ``hands[i]`` its nine cards when known (for K-20 / K-21).

    The caller has checked every arrangement (:func:`~replay.kitti.arrangement.check_arrangement`).
    ``deals`` is how many deals the hand dealt (1 + K-21 redeals): each costs every seat a stake.
    """
    n = len(arranged)
    rk = ranker or ranker_for(ruleset)
    stake = int(ruleset["stake"])
    paid = (stake * deals,) * n
    pot = pot_before + sum(paid)
    zero = (0,) * n

    def finish(reason: str, winner: int | None, *, rounds_won: Sequence[int] = zero, salami: Sequence[int] = zero,
               rounds: Iterable[dict[str, Any]] = (), four: dict[str, Any] | None = None,
               four_pairs: Iterable[int] = (), keys: Iterable[tuple[int, ...] | None] = ()) -> DealResult:
        taken = pot if winner is not None else 0
        nets = tuple([-paid[i] + salami[i] + (taken if i == winner else 0) for i in range(n)])
        return DealResult(reason, winner, tuple(rounds_won), nets, pot_before, pot - taken, paid,
                          tuple(salami), tuple(rounds), four, tuple(four_pairs), tuple(keys))

    # K-20 / D-17: four of a kind wins at once.
    quads = [(four_of_a_kind(h), i) for i, h in enumerate(hands) if h is not None]
    quads = [(r, i) for r, i in quads if r is not None] if quads else quads
    if quads:
        rank, seat = max(quads)
        return finish("four_of_a_kind", seat, four={"seat": seat, "rank": rank})
    # K-21: four pairs void the deal when the table switches it on.
    if ruleset["four_pairs_void"]:
        pairs = [i for i, h in enumerate(hands) if h is not None and count_pairs(h) >= 4]
        if pairs:
            return finish("void", None, four_pairs=pairs)
    active = [i for i in range(n) if not folded[i]]
    if len(active) == 1:  # D-15
        return finish("uncontested", active[0])
    if not active:  # D-15, D-14
        return finish("all_folded", None)
    keys: list[tuple[int, ...] | None] = [None] * n
    shown_keys: dict[int, tuple[int, ...]] = {}   # the active seats' keys
    table = rk.table
    for i in active:
        sets = arranged[i]
        if sets is None:
            raise MalformedError(f"seat {i} neither folded nor arranged (K-2)")
        keys[i] = shown_keys[i] = tuple([table[s[0].code * 2704 + s[1].code * 52 + s[2].code] for s in sets])
    order = speaking_order(dealer, n)
    won = [0] * n
    round_winners: list[int | None] = []
    rounds = []
    ring = [s for s in order if s in active]  # the active seats in speaking order (K-17)
    first = ring[0]  # round 1 is shown in speaking order
    for r in range(ROUNDS):
        at = ring.index(first)
        shown = ring[at:] + ring[:at]  # rotated so that ``first`` shows first
        best = max([shown_keys[i][r] for i in active])
        top = [i for i in shown if shown_keys[i][r] == best]
        winner = top[0] if len(top) == 1 else None  # K-18: a tie counts for no one
        if winner is not None:
            won[winner] += 1
            first = winner  # K-17: the round's winner shows first next round
        round_winners.append(winner)
        rounds.append({"round": r + 1, "winner": winner, "tied": sorted(top) if winner is None else [],
                       "show_order": shown})
    winner = _pot_winner(ruleset["win_rule"], round_winners)
    salami = [0] * n
    if winner is not None and won[winner] == ROUNDS:  # D-13 salami
        extra = int(ruleset["salami_stakes"]) * stake
        for i in active:
            if i != winner:
                salami[i] -= extra
                salami[winner] += extra
    return finish("rounds" if winner is not None else "kitti", winner, rounds_won=won,
                  salami=salami, rounds=rounds, keys=keys)


def _pot_winner(win_rule: str, round_winners: Sequence[int | None]) -> int | None:
    """D-13: who meets the winning condition, if anyone."""
    if win_rule == "consecutive":
        for a, b in zip(round_winners, round_winners[1:]):
            if a is not None and a == b:
                return a
        return None
    for seat in set(round_winners) - {None}:
        if round_winners.count(seat) >= 2:
            return seat
    return None
