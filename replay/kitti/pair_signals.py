"""Kitti's pair signal ``kitti.together``: a seat whose arrangement wins more rounds for
itself *and one specific other seat* than it would against hands redealt at random
(``docs/collusion.md``, "Pairs"; :mod:`replay.pair_signals`).

A seat arranges its nine cards without seeing the other hands (K-2, K-6).  Round *r* is
won by the strongest set outright (K-17, K-18); a seat and a target seat *t* win it
**together** when the stronger of their two sets does.  The score of an arrangement against
*t*'s hand is how many rounds the pair's stronger sets would win against the other seats'
sets drawn at random from the pack: the sum over rounds of ``(share / 44,200) ** rivals``,
the share of :func:`~replay.kitti.strategy.share_table` (a set's standing among all
22,100), ``rivals`` the seats besides the two (two equal sets win nothing, K-18).  *t*'s hand
is taken at its reference arrangement (the default,
:func:`~replay.kitti.strategy.default_keys`, as :mod:`replay.kitti.signals` does), so the
score depends on *t*'s cards only, not on its choice or on the other hands, and a seat that
sees some third hand gains nothing on it.  The score of a choice is measured against the
seat's own default arrangement: ``together(choice) - together(default)``.

A seat that sees its partner's hand neither wastes strong sets on rounds its partner wins
anyway nor takes them from it (soft play), and puts its strength where the partner is weak:
the pair wins more rounds between them.  An honest seat's choice does not depend on the
hidden hands, so against the real hands it wins no more rounds with any one seat than
against the 43 unseen cards redealt among the other seats, nine each -- exact, as for
``kitti.arrangement``.  Timeouts (``auto``) and folds give nothing.
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from ..cards import Card
from ..pair_signals import PairObservation
from .moves import Arrange
from .signals import REDEALS, reference_keys, set_keys
from .strategy import N_SETS, share_table

if TYPE_CHECKING:
    from ..game import Move
    from ..stream import Stream
    from .engine import KittiEngine, KittiState
    from .ranking import SetRanker

SIGNAL = "kitti.together"
_DECK = tuple(Card(code) for code in range(52))


def together(mine: Sequence[int], target: Sequence[int], shares: dict[int, int], rivals: int) -> Fraction:
    """The rounds the stronger of ``mine`` and ``target`` wins, set by set, against
    ``rivals`` sets drawn at random from the pack: sum over rounds of ``(share / 44,200) **
    rivals`` of the pair's stronger set (a tie between the two wins nothing, K-18)."""
    whole = 2 * N_SETS
    return sum((Fraction(shares[max(m, t)], whole) ** rivals for m, t in zip(mine, target) if m != t),
               Fraction(0))


def together_scores(mine: Sequence[int], own: Sequence[int], keys: Mapping[int, Sequence[int]],
                    shares: dict[int, int]) -> dict[int, Fraction]:
    """Per target seat: what ``mine`` wins together with it, less what the seat's default does."""
    rivals = len(keys) - 1
    return {t: together(mine, target, shares, rivals) - together(own, target, shares, rivals)
            for t, target in keys.items()}


def arrangement_pair_observations(move: Arrange, hands: Sequence[Sequence[Card]], ranker: SetRanker, rng: Stream,
                                  *, redeals: int = REDEALS) -> list[PairObservation]:
    """One ``Arrange``'s ``kitti.together`` observation against every other seat."""
    if move.auto:
        return []
    seat = move.seat
    mine, own = set_keys(move.sets, ranker), reference_keys(hands[seat], ranker)
    shares = share_table(ranker)
    others = [s for s in range(len(hands)) if s != seat]
    actual = together_scores(mine, own, {s: reference_keys(hands[s], ranker) for s in others}, shares)
    mine_cards = set(hands[seat])
    unseen = [c for c in _DECK if c not in mine_cards]
    nulls: dict[int, list[Fraction]] = {s: [] for s in others}
    for _ in range(redeals):
        cards = rng.shuffle(unseen)
        dealt = {s: reference_keys(cards[9 * k: 9 * k + 9], ranker) for k, s in enumerate(others)}
        for s, v in together_scores(mine, own, dealt, shares).items():
            nulls[s].append(v)
    return [PairObservation(SIGNAL, seat, s, actual[s], tuple(nulls[s])) for s in others]


def hand_pair_signals(engine: KittiEngine, steps: Sequence[tuple[int, KittiState, Move]],
                      rng_for: Callable[[int], Stream]) -> list[PairObservation]:
    """Every ``kitti.together`` observation of one hand (found by :func:`replay.pair_signals.decision_pair_signals`)."""
    out: list[PairObservation] = []
    for index, state, move in steps:
        if isinstance(move, Arrange):
            out.extend(arrangement_pair_observations(move, state.hands, engine.ranker, rng_for(index)))
    return out
