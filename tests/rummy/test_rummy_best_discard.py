"""The solver's points-only path: ``min_points`` (memoised) and ``best_discard`` (pruned by a
bound) against the plain search (:func:`replay.rummy.solver.solve` on every hand)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from replay.cards import JOKER, card_of, parse_cards
from replay.rummy.groups import card_points
from replay.rummy.solver import _POINTS, best_discard, clear_caches, min_points, solve


@st.composite
def hands(draw, size=14):
    """``size`` cards from a shuffled two-deck shoe with two jokers, and a wild rank."""
    shoe = [card_of(r, s) for r in range(1, 14) for s in range(4)] * 2 + [JOKER, JOKER]
    idx = draw(st.lists(st.integers(0, len(shoe) - 1), min_size=size, max_size=size, unique=True))
    wild = draw(st.sampled_from([None] + list(range(1, 14))))
    high = draw(st.sampled_from([10, 11]))
    return tuple(shoe[i] for i in idx), wild, high


def every_discard(cards, wild, high):
    """The best discard by trying every card: least points, then most points, then lowest code."""
    best = None
    for i, card in enumerate(cards):
        key = (solve(cards[:i] + cards[i + 1:], wild, high=high).points, -card_points(card, wild, high=high), card.code)
        if best is None or key < best[0]:
            best = (key, card)
    return best[0][0], best[1]


# rules: the pruned search gives the same points and the same card
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_best_discard_matches_trying_every_card(hand):
    cards, wild, high = hand
    assert best_discard(cards, wild, high=high) == every_discard(cards, wild, high)


# rule R-12: a hand that is nearly complete, where most discards break a group
def test_best_discard_of_a_nearly_complete_hand():
    cards = parse_cards("AH 2H 3H 4H 7S 8S 9S 5C 5D 5S KD KC KH QS")
    assert best_discard(cards, None, high=10) == every_discard(cards, None, 10) == (0, parse_cards("QS")[0])


# rule R-12: min_points is solve's number, for any order of the same cards, memoised
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(size=13), st.randoms(use_true_random=False))
def test_min_points_is_solves_number_in_any_order(hand, rnd):
    cards, wild, high = hand
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert min_points(cards, wild, high=high) == min_points(shuffled, wild, high=high) \
        == solve(shuffled, wild, high=high).points


def test_clear_caches_empties_the_points_memo():
    cards = parse_cards("AH 2H 3H 4H 7S 8S 9S 5C 5D 5S KD KC KH")
    min_points(cards, None, high=10)
    assert _POINTS
    clear_caches()
    assert not _POINTS
    assert min_points(cards, None, high=10) == solve(cards, None, high=10).points
