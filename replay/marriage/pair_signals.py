"""Marriage's pair signal ``marriage.feed``: discards that help the seat that draws next more
than they would help its hand redealt with the stock (``docs/collusion.md``, "Pairs";
:mod:`replay.pair_signals`).

The latest discard may be taken only by the next seat (MC-14, D-4).  The **use** of a card to
a hand is how far it takes its tunnelas and pure sequences
(:func:`~replay.marriage.signals.use_of`, MC-4, MC-5, MN-14).  The score of a discard against
the receiver's hidden hand is measured against the discarder's own **reference discard**
(:func:`reference_discard`: the card of least use to its own sets, a function of what the
discarder sees): ``use(discard) - use(reference)`` to the receiver's hand.  A seat that sees
its partner's hand throws it a card it can use instead of its own least useful card; a seat
that throws its reference scores exactly 0 in every world.

**Null world.** Only discards whose receiver has **not moved yet** in the round count (the
window of ``marriage.discard``, :func:`~replay.marriage.discard_joker_signals.in_discard_window`):
then nobody has acted on the receiver's cards, and given every other hand, every move so far
and the tiplu, its 21 cards and the stock are one fair split of their union (MN-2, MN-4, D-5).
The null redeals that split: exact, whatever the discarder's strategy.  Later the
receiver's hand is shaped by its own draws and discards and a redeal would no longer be
exact, so those discards give nothing.  A timed-out discard (``auto``) and a finish's
discard give nothing.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any, Callable, Sequence

from ..cards import Card
from ..pair_signals import PairObservation
from .discard_joker_signals import REDEALS, in_discard_window, redeal_hand
from .jokers import is_joker
from .moves import Discard
from .signals import use_of

SIGNAL = "marriage.feed"


def reference_discard(engine: Any, state: Any, seat: int) -> Card:
    """The card of least use to ``seat``'s own sets (:func:`~replay.marriage.signals.use_of`
    on the rest of its hand, as it knows them: shown or not, the jokers it sees); among
    equals the highest code.  Never the discard just taken (MC-14)."""
    me = state.seat(seat)
    tiplu = state.tiplu if me.sees_maal else None
    counts = Counter(me.hand)
    best: tuple[tuple[int, int], Card] | None = None
    for card in counts:
        if card == state.taken:
            continue
        counts[card] -= 1
        use = use_of(counts, card, shown=me.has_shown,
                     joker=tiplu is not None and is_joker(card, tiplu, engine.ruleset))
        counts[card] += 1
        key = (use, -card.code)
        if best is None or key < best[0]:
            best = (key, card)
    assert best is not None, "a seat that discards holds a card it may throw"
    return best[1]


def feed_observation(engine: Any, state: Any, move: Discard, rng: Any, *,
                     redeals: int = REDEALS) -> PairObservation | None:
    """The observation of one discard (``None`` outside the exact window)."""
    receiver = in_discard_window(engine, state, move)
    if receiver is None:
        return None
    seat = move.seat
    reference = reference_discard(engine, state, seat)
    if reference == move.card:     # the seat threw its own reference: 0 in every world
        return PairObservation(SIGNAL, seat, receiver, Fraction(0), (Fraction(0),) * redeals)

    def score(hand: Sequence[Card]) -> Fraction:
        counts = Counter(hand)
        return Fraction(use_of(counts, move.card, shown=False) - use_of(counts, reference, shown=False))

    hand = state.seat(receiver).hand
    null = tuple(score(redeal_hand(hand, state.stock, rng)) for _ in range(redeals))
    return PairObservation(SIGNAL, seat, receiver, score(hand), null)


def hand_pair_signals(engine: Any, steps: Sequence[tuple[int, Any, Any]],
                      rng_for: Callable[[int], Any]) -> list[PairObservation]:
    """Every ``marriage.feed`` observation of one hand (found by
    :func:`replay.pair_signals.decision_pair_signals`)."""
    out: list[PairObservation] = []
    for index, state, move in steps:
        if isinstance(move, Discard):
            obs = feed_observation(engine, state, move, rng_for(index))
            if obs is not None:
                out.append(obs)
    return out
