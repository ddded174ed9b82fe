"""Marriage's pick signal (replay/marriage/signals.py): the use of a card checked by hand,
the null world drawn from the stock itself, what counts as a choice, the planted superuser
seen and honest seats not."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from replay.cards import parse_cards
from replay.fairness import hand_randomness
from replay.marriage.moves import DISCARD, STOCK, Draw
from replay.marriage.signals import pick_observation, seat_use, use_of
from replay.registry import game_for
from replay.rulesets import resolve
from replay.stream import Stream

from audit.auditor.collusion import review
from audit.auditor.collusion.cheaters import account, played_observations

RS = resolve("marriage/nepal")


def _hand(text):
    return Counter(parse_cards(text))


def test_the_use_of_a_card_is_how_far_it_takes_a_pure_set():
    # rule MN-14: the show's sets are tunnelas (rule MC-4) and pure sequences (rule MC-5, rule MC-9)
    hand = _hand("5H 6H 9S 9S KD 2C 2D")
    assert use_of(hand, parse_cards("7H")[0], shown=False) == 2     # 5H 6H 7H: a pure sequence
    assert use_of(hand, parse_cards("4H")[0], shown=False) == 2     # 4H 5H 6H
    assert use_of(hand, parse_cards("8H")[0], shown=False) == 1     # 6H _ 8H: two of 6-7-8
    assert use_of(hand, parse_cards("9S")[0], shown=False) == 2     # the third 9S: a tunnela
    assert use_of(hand, parse_cards("KS")[0], shown=False) == 0     # nothing of a pure set
    assert use_of(hand, parse_cards("AD")[0], shown=False) == 1     # Q-K-A wraps: KD, AD
    # rule MC-20: after the show a trial (rule MC-7) finishes too, and a joker the seat knows
    # completes a dirty combination (rule MC-6, rule MC-8)
    assert use_of(hand, parse_cards("2S")[0], shown=False) == 0
    assert use_of(hand, parse_cards("2S")[0], shown=True) == 2      # 2C 2D 2S: a trial
    assert use_of(hand, parse_cards("JC")[0], shown=True, joker=True) == 2
    assert use_of(hand, parse_cards("JC")[0], shown=False, joker=True) == 0


def _start():
    s = Stream(b"m" * 32, b"n" * 32, "deal")
    randomness = hand_randomness(s.block(0), "m1", RS, [s.block(i)[:16] for i in range(1, 5)])
    game = game_for("marriage")
    engine = game.engine(RS)
    return engine, engine.start(randomness, dealer=3, **game.table_options(dict(game.carry)))


def test_the_null_world_draws_the_top_card_from_the_stock_itself():
    engine, state = _start()
    assert engine.can_take_discard(state)
    picks = []

    class Recorder:
        def randbelow(self, n):
            picks.append(n)
            return n - 1          # the stock's bottom card

    seat = state.turn_seat
    use = seat_use(engine, state, seat)
    obs = pick_observation(engine, state, Draw(seat, STOCK), Recorder(), redeals=2)
    assert picks == [len(state.stock)] * 2
    assert obs.actual == use(state.stock[0]) and obs.null == (use(state.stock[-1]),) * 2
    left = pick_observation(engine, state, Draw(seat, DISCARD, state.discards[-1]), Recorder(), redeals=2)
    assert left.actual == -obs.actual and left.null == tuple(-x for x in obs.null)


def test_only_a_choice_between_two_cards_counts():
    engine, state = _start()
    seat = state.turn_seat
    rng = Stream(b"x" * 32, b"y" * 32, "z")
    assert pick_observation(engine, state, Draw(seat, STOCK), rng) is not None
    assert pick_observation(engine, state, Draw(seat, STOCK, auto=True), rng) is None   # a timed-out turn
    assert pick_observation(engine, replace(state, discards=()), Draw(seat, STOCK), rng) is None
    assert pick_observation(engine, replace(state, stock=()), Draw(seat, DISCARD), rng) is None


@pytest.fixture(scope="module")
def honest_tables():
    """Two tables of four, 40 hands each, played honestly (the planted tests' seed)."""
    return review(played_observations("marriage/nepal", tables=2, players=4, hands=40, seed="test-marriage-peek"))


def test_a_planted_marriage_superuser_is_flagged_and_honest_seats_are_not(honest_tables):
    # docs/collusion.md: a superuser that sees the stock at every draw, flagged within 40 hands
    obs = played_observations("marriage/nepal", tables=2, players=4, hands=40, seed="test-marriage-peek",
                              peek={(0, 0): 1000})
    rep = review(obs)
    assert {t.account for t in rep.flags} == {account(0, 0)} and "marriage.pick" in {t.signal for t in rep.flags}
    assert Counter(t.signal for t in rep.tests if t.tested) == {"marriage.pick": 8, "marriage.joker": 8}
    assert honest_tables.flags == () and honest_tables.pair_flags == ()
    assert Counter(t.signal for t in honest_tables.tests if t.tested) == {"marriage.pick": 8, "marriage.joker": 8}


def test_a_planted_joker_hunter_is_flagged_on_the_joker_signal_alone(honest_tables):
    # docs/collusion.md: told only where the jokers are (the real tiplu's, before it has seen
    # it), it is flagged on marriage.joker within 40 hands of its table; marriage.pick, which
    # counts a joker only for a seat that has seen the tiplu, does not flag it
    obs = played_observations("marriage/nepal", tables=2, players=4, hands=40, seed="test-marriage-peek",
                              peek={(0, 0): 1000}, peek_role="joker_peeking")
    rep = review(obs)
    assert [(t.account, t.signal) for t in rep.flags] == [(account(0, 0), "marriage.joker")]
    assert honest_tables.flags == ()
