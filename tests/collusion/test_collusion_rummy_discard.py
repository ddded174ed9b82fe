"""13-card Rummy's discard and drop signals (replay/rummy/discard_drop_signals.py): only
opponents who have not moved are redealt, with the closed stock; the scores checked against
the solver; a planted superuser seen on each signal and honest seats not."""
from __future__ import annotations

from collections import Counter

import pytest

from replay.fairness import hand_randomness
from replay.registry import game_for
from replay.rulesets import resolve
from replay.rummy.discard_drop_signals import (DISCARD_SIGNAL, DROP_SIGNAL, discard_observation,
                                               drop_observation, next_seat, redeal, unmoved)
from replay.rummy.moves import Discard, Drop, Pick
from replay.rummy.signals import use_of
from replay.rummy.solver import solve
from replay.stream import Stream

from audit.auditor.collusion import review
from audit.auditor.collusion.cheaters import account, played_observations

RS = resolve("rummy13")
HIGH = RS["high_card_points"]


def _start():
    s = Stream(b"r" * 32, b"d" * 32, "deal")
    randomness = hand_randomness(s.block(0), "rd1", RS, [s.block(i)[:16] for i in range(1, 5)])
    engine = game_for("rummy13").engine(RS)
    return engine, engine.start(randomness, dealer=3)


def _rng():
    return Stream(b"x" * 32, b"y" * 32, "z")


def test_a_redeal_splits_the_unmoved_hands_and_the_stock_afresh():
    engine, state = _start()
    seats = unmoved(state, state.turn)
    assert len(seats) == 3                       # nobody has moved: every opponent is redealt
    hands = redeal(state, seats, _rng())
    assert [len(h) for h in hands] == [13, 13, 13]
    pool = Counter(c for s in seats for c in state.hands[s]) + Counter(state.closed)
    dealt = Counter(c for h in hands for c in h)
    assert dealt <= pool and sum(dealt.values()) == 39
    assert hands != [tuple(state.hands[s]) for s in seats]


def test_the_discard_score_is_the_points_it_would_save_the_next_player():
    engine, state = _start()
    seat = state.turn
    state = engine.apply(state, Pick(seat, "closed"))
    card = state.hands[seat][0]
    obs = discard_observation(engine, state, Discard(seat, card), _rng())
    nxt = next_seat(state, seat)
    assert obs.signal == DISCARD_SIGNAL and obs.seat == seat
    # rule R-12: the next player's points now, less after taking the card and its best discard
    assert obs.actual == -use_of(tuple(state.hands[nxt]), card, state.wild, high=HIGH)
    assert len(obs.null) == 2 and all(x <= 0 for x in obs.null)
    assert discard_observation(engine, state, Discard(seat, card, auto=True), _rng()) is None


def test_a_discard_to_a_player_who_has_moved_gives_nothing():
    engine, state = _start()
    for _ in range(state.n_seats - 1):           # everyone but the last seat plays a turn
        s = state.turn
        state = engine.apply(state, Pick(s, "closed"))
        state = engine.apply(state, Discard(s, state.hands[s][-1]))
    last = state.turn
    state = engine.apply(state, Pick(last, "closed"))
    assert next_seat(state, last) not in unmoved(state, last)
    assert discard_observation(engine, state, Discard(last, state.hands[last][0]), _rng()) is None
    # and the last seat's first pick had no unmoved opponent either: no drop decision
    assert unmoved(state, last) == []


def test_the_drop_score_is_the_danger_of_the_unmoved_opponents_signed_by_the_choice():
    engine, state = _start()
    seat = state.turn
    others = unmoved(state, seat)
    least = min(solve(tuple(state.hands[s]), state.wild, high=HIGH).points for s in others)
    dropped = drop_observation(engine, state, Drop(seat), _rng())
    stayed = drop_observation(engine, state, Pick(seat, "closed"), _rng())
    assert dropped.signal == DROP_SIGNAL
    assert dropped.actual == -least and stayed.actual == least     # rule R-16: the first drop
    assert stayed.null == tuple(-x for x in dropped.null)
    assert drop_observation(engine, state, Drop(seat, auto=True), _rng()) is None
    later = engine.apply(engine.apply(state, Pick(seat, "closed")), Discard(seat, state.closed[0]))
    assert drop_observation(engine, later, Pick(later.turn, "closed"), _rng()) is not None


@pytest.mark.slow
def test_a_planted_superuser_is_flagged_on_its_discards_and_drops_and_an_honest_table_is_not():
    # docs/collusion.md (seed power0, two tables, the full review): at 100 hands of its table
    # the superuser's first drops (against strong hidden hands) are flagged; its discards
    # (which avoid feeding the next player) stand out at p < 0.001 but, in the one control
    # over accounts, signals and the pair tests (rummy13.soft_drop among them), are not yet
    # flagged; the same tables played honestly flag nobody
    peek = review(played_observations("rummy13", tables=2, players=4, hands=100, seed="power0",
                                      peek={(0, 0): 1000}))
    flagged = {(t.account, t.signal) for t in peek.flags}
    assert (account(0, 0), DROP_SIGNAL) in flagged
    assert {a for a, _ in flagged} == {account(0, 0)}
    discard = [t for t in peek.tests if t.account == account(0, 0) and t.signal == DISCARD_SIGNAL]
    assert len(discard) == 1 and discard[0].tested and discard[0].p < 0.001
    honest = review(played_observations("rummy13", tables=2, players=4, hands=100, seed="power0"))
    assert honest.flags == () and sum(t.tested for t in honest.tests if t.signal == DISCARD_SIGNAL) == 8
