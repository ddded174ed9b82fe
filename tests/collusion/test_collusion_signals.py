"""The hidden-information signals (replay/signals.py, replay/kitti/signals.py): scores
checked by hand, the honest null exact, the superuser bot seen."""
from __future__ import annotations

import statistics
from fractions import Fraction

import pytest

from audit.auditor.collusion.observe import null_stream
from audit.operator.sim.bots.kitti import choose_peeking
from replay.cards import parse_cards
from replay.fairness import hand_randomness
from replay.kitti.moves import Arrange
from replay.kitti.ranking import ranker
from replay.kitti.signals import arrangement_observation, reference_keys, rounds_won, set_keys
from replay.kitti.arrangement import splits
from replay.kitti.strategy import default_arrangement
from replay.registry import game_for
from replay.rulesets import resolve
from replay.signals import Observation
from replay.stream import Stream

RANKER = ranker()


def test_excess_is_actual_less_the_mean_of_the_redeals():
    assert Observation("s", 0, 2, (1, 2, 2, 1)).excess == Fraction(1, 2)
    assert Observation("s", 0, 0, (1, 0)).excess == Fraction(-1, 2)
    with pytest.raises(ValueError, match="at least one redeal"):
        Observation("s", 0, 1, ())


def test_rounds_are_won_outright_and_a_tie_for_the_strongest_wins_nothing():
    # rule K-17: each round the strongest set wins; rule K-18: a tie among the strongest gives it to nobody
    assert rounds_won((30, 20, 10), [(29, 21, 9), (1, 1, 1)]) == 2      # rounds 1 and 3
    assert rounds_won((30, 20, 10), [(30, 1, 1)]) == 2                  # round 1 tied: nobody's
    assert rounds_won((5, 4, 3), [(6, 5, 4)]) == 0
    assert rounds_won((9, 8, 7), []) == 3


def test_set_keys_follow_the_arrangement_order_strongest_first():
    # rule K-7: the sets are played strongest first
    hand = parse_cards("AS AH AD KS QS JS 2C 3D 5H")
    sets = default_arrangement(hand, RANKER)
    keys = set_keys(sets, RANKER)
    assert keys == tuple(sorted(keys, reverse=True)) == reference_keys(hand, RANKER)
    assert keys == tuple(RANKER.key_of(s) for s in sets)


def _deal(label: str):
    rs = resolve("kitti")
    s = Stream(b"k" * 32, b"m" * 32, label)
    return hand_randomness(s.block(0), label, rs, [s.block(1)[:16], s.block(2)[:16], s.block(3)[:16], s.block(4)[:16]])


def test_a_seat_that_plays_its_reference_arrangement_scores_zero_in_every_world():
    engine = game_for("kitti").engine(resolve("kitti"))
    state = engine.start(_deal("zero"), dealer=3, pot_before=0)
    move = Arrange(0, default_arrangement(state.hands[0], RANKER))
    obs = arrangement_observation(move, state.hands, RANKER, null_stream("zero", 0), redeals=6)
    assert obs.actual == 0 and obs.null == (0,) * 6 and obs.excess == 0


def test_a_timeout_is_not_a_decision():
    engine = game_for("kitti").engine(resolve("kitti"))
    state = engine.start(_deal("auto"), dealer=3, pot_before=0)
    move = Arrange(0, default_arrangement(state.hands[0], RANKER), auto=True)
    assert arrangement_observation(move, state.hands, RANKER, null_stream("auto", 0)) is None


def _excesses(n: int, choose) -> list[float]:
    engine = game_for("kitti").engine(resolve("kitti"))
    out = []
    for h in range(n):
        state = engine.start(_deal(f"h{h}"), dealer=3, pot_before=0)
        if engine.is_over(state):
            continue
        move = choose(engine, state, h)
        obs = arrangement_observation(move, state.hands, RANKER, null_stream(f"h{h}", 0))
        out.append(float(obs.excess))
    return out


def test_an_arrangement_chosen_blind_has_mean_excess_zero():
    # Any choice made from the seat's own cards alone -- here one of the 280 splits picked by a
    # stream that never sees the other hands -- must score as well against redealt hands as
    # against the real ones: the null is exact, whatever the strategy.
    def blind(engine, state, h):
        pick = Stream(b"b" * 32, b"c" * 32, f"blind{h}").randbelow(280)
        return Arrange(0, splits(state.hands[0], engine.ranker)[pick])

    xs = _excesses(600, blind)
    t = statistics.mean(xs) / (statistics.stdev(xs) / len(xs) ** 0.5)
    assert abs(t) < 3.5, t


def test_the_superuser_beats_the_hands_it_saw():
    xs = _excesses(300, lambda engine, state, h: choose_peeking(engine, state, None))
    t = statistics.mean(xs) / (statistics.stdev(xs) / len(xs) ** 0.5)
    assert statistics.mean(xs) > 0.1 and t > 5, (statistics.mean(xs), t)


def test_the_null_world_redeals_exactly_the_cards_the_seat_cannot_see():
    # The redeal must be of the 43 cards outside the seat's own hand (K-1: one 52-card deck,
    # nine each), among the other seats, nine each: anything else breaks exchangeability.
    engine = game_for("kitti").engine(resolve("kitti"))
    state = engine.start(_deal("null"), dealer=3, pot_before=0)
    seen = []

    class Recorder:
        def shuffle(self, items):
            seen.append(list(items))
            return list(reversed(items))

    move = Arrange(1, default_arrangement(state.hands[1], RANKER))
    obs = arrangement_observation(move, state.hands, RANKER, Recorder(), redeals=3)
    assert len(seen) == 3 and len(obs.null) == 3
    for items in seen:
        assert len(items) == 43 and set(items).isdisjoint(state.hands[1])
        assert len(set(items)) == 43
