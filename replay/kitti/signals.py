"""Kitti's hidden-information signal: an arrangement that beats the real hidden hands
more than it beats hands redealt at random (``docs/collusion.md``; :mod:`replay.signals`).

A seat arranges its nine cards into three sets (K-6, K-7) without seeing the other hands
(K-2).  The score of an arrangement against a set of opponent hands is the number of rounds
it wins outright (K-17, K-18: the strongest set of the round; a tie for the strongest wins
nothing), each opponent's hand arranged by the same fixed reference -- the default
arrangement (:func:`~replay.kitti.strategy.default_arrangement`) -- so the score depends on
the opponents' cards only, not on their choices.  The null world redeals the 43 cards the
seat cannot see among the other seats.  A seat that sees the others' cards can pick the
arrangement that beats *these* hands; an honest seat's pick does as well against the real
hands as against redealt ones, on average.

**Against the seat's own reference.** Most of an arrangement's score comes from the hand
it was dealt, which is the same in the real and the redealt worlds and only adds noise.
So the score of a choice is measured *relative to the seat's own default arrangement* --
``v(choice, hidden) - v(default, hidden)``, a control variate that is a function of the
seat's own cards only, so the null mean stays exactly the real one.  An honest seat that
plays its default arrangement scores exactly 0 in both worlds; a superuser that departs
from it to beat the hands it saw scores well above its redeals.

Timeouts (``auto``) and folds are not decisions about the sets, so they give nothing.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..cards import Card
from ..signals import Observation
from ..stream import Stream
from .moves import Arrange
from .ranking import SetRanker
from .strategy import default_keys

if TYPE_CHECKING:
    from ..game import Move
    from .engine import KittiEngine, KittiState

SIGNAL = "kitti.arrangement"
#: Redeals per decision: each is a full null world (any number keeps the null mean exact;
#: more only lower the noise a little, docs/collusion.md).
REDEALS = 2
_DECK = tuple(Card(code) for code in range(52))


def set_keys(sets: Sequence[Sequence[Card]], ranker: SetRanker) -> tuple[int, ...]:
    """The rank keys of an arrangement's sets, in its order (strongest first, K-7)."""
    return tuple(ranker.key(s[0].code, s[1].code, s[2].code) for s in sets)


def reference_keys(hand: Sequence[Card], ranker: SetRanker) -> tuple[int, ...]:
    """The keys of the reference arrangement of a hand: the default one, strongest first."""
    return default_keys(hand, ranker)


def rounds_won(mine: Sequence[int], opponents: Sequence[Sequence[int]]) -> int:
    """Rounds ``mine`` wins outright against every opponent's keys (K-17, K-18)."""
    return sum(1 for r, key in enumerate(mine) if all(key > other[r] for other in opponents))


def arrangement_observation(move: Arrange, hands: Sequence[Sequence[Card]], ranker: SetRanker,
                            rng: Stream, *, redeals: int = REDEALS) -> Observation | None:
    """The observation of one ``Arrange`` (``None`` for a timeout's default arrangement)."""
    if move.auto:
        return None
    seat = move.seat
    mine = set_keys(move.sets, ranker)
    own_reference = reference_keys(hands[seat], ranker)

    def score(opponents: list[tuple[int, ...]]) -> int:
        return rounds_won(mine, opponents) - rounds_won(own_reference, opponents)

    n_others = len(hands) - 1
    actual = score([reference_keys(hands[s], ranker) for s in range(len(hands)) if s != seat])
    own = set(hands[seat])
    unseen = [c for c in _DECK if c not in own]
    null = []
    for _ in range(redeals):
        cards = rng.shuffle(unseen)
        null.append(score([reference_keys(cards[9 * k: 9 * k + 9], ranker) for k in range(n_others)]))
    return Observation(SIGNAL, seat, actual, tuple(null))


def hidden_signals(engine: KittiEngine, state: KittiState, move: Move, rng: Stream) -> list[Observation]:
    """``GAME.hidden_signals`` for Kitti: the observations of ``move`` made in ``state``."""
    if not isinstance(move, Arrange):
        return []
    obs = arrangement_observation(move, state.hands, engine.ranker, rng)
    return [obs] if obs is not None else []
