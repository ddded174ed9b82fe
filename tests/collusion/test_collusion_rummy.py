"""13-card Rummy's pick signal (replay/rummy/signals.py): what counts as a choice, the null
world drawn from the stock itself, the superuser seen and honest seats not."""
from __future__ import annotations

from replay.cards import parse_cards
from replay.fairness import hand_randomness
from replay.registry import game_for
from replay.rulesets import resolve
from replay.rummy.moves import Pick
from replay.rummy.signals import pick_observation, use_of
from replay.stream import Stream

from audit.auditor.collusion import review
from audit.auditor.collusion.cheaters import account, played_observations

RS = resolve("rummy13")


def _start():
    s = Stream(b"r" * 32, b"m" * 32, "deal")
    randomness = hand_randomness(s.block(0), "r1", RS, [s.block(i)[:16] for i in range(1, 5)])
    engine = game_for("rummy13").engine(RS)
    return engine, engine.start(randomness, dealer=3)


def test_a_card_never_costs_points_and_a_card_that_completes_a_sequence_saves_them():
    # rule R-12: a hand counts at its best arrangement, so adding a card and discarding the worst
    # can only keep or lower the points (discarding the new card gives the hand back)
    hand = tuple(parse_cards("2H 3H 5H 9S 9D 9C KS KD 4C 7D 8C JD QC"))
    assert use_of(hand, parse_cards("4H")[0], None, high=10) > 0     # 2H 3H 4H 5H: R-7's pure sequence
    for card in parse_cards("AS TD 6C 4H KC"):
        assert use_of(hand, card, None, high=10) >= 0


def test_the_null_world_draws_the_top_card_from_the_stock_itself():
    engine, state = _start()
    picks = []

    class Recorder:
        def randbelow(self, n):
            picks.append(n)
            return n - 1          # the stock's bottom card

    seat = state.turn
    obs = pick_observation(engine, state, Pick(seat, "closed"), Recorder(), redeals=2)
    assert picks == [len(state.closed)] * 2
    hand, high = tuple(state.hands[seat]), RS["high_card_points"]
    assert obs.actual == use_of(hand, state.closed[0], state.wild, high=high)
    assert obs.null == (use_of(hand, state.closed[-1], state.wild, high=high),) * 2
    left = pick_observation(engine, state, Pick(seat, "open", state.open_pile[-1]), Recorder(), redeals=2)
    assert left.actual == -obs.actual and left.null == tuple(-x for x in obs.null)


def test_only_a_choice_between_two_cards_counts():
    engine, state = _start()
    seat = state.turn
    rng = Stream(b"x" * 32, b"y" * 32, "z")
    assert pick_observation(engine, state, Pick(seat, "closed", auto=True), rng) is None   # D-23: the table's pick
    from dataclasses import replace
    assert pick_observation(engine, replace(state, open_pile=()), Pick(seat, "closed"), rng) is None
    assert pick_observation(engine, replace(state, closed=()), Pick(seat, "open"), rng) is None


def test_a_planted_rummy_superuser_is_flagged_and_honest_seats_are_not():
    # docs/collusion.md: a superuser that sees the stock at every pick, flagged within 40 hands
    obs = played_observations("rummy13", tables=2, players=4, hands=40, seed="test-rummy-peek",
                              peek={(0, 0): 1000})
    rep = review(obs)
    assert [t.account for t in rep.flags] == [account(0, 0)]
    assert sum(t.tested for t in rep.tests) == 8
