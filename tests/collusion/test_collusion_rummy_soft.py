"""13-card Rummy's soft-play pair signal ``rummy13.soft_drop`` (replay/rummy/soft_signals.py):
a first drop scored against each unmoved seat's hidden strength, that seat's hand redealt with
the closed stock; the colluding pair of the simulator stands aside for its partner and is
seen; honest seats are not."""
from __future__ import annotations

from collections import Counter

import pytest

from replay.fairness import hand_randomness
from replay.registry import game_for
from replay.rulesets import resolve
from replay.rummy.discard_drop_signals import redeal, unmoved
from replay.rummy.moves import Discard, Drop, Pick
from replay.rummy.pair_signals import hand_pair_signals
from replay.rummy.soft_signals import SIGNAL, soft_drop_observations
from replay.rummy.solver import min_points
from replay.stream import Stream

from audit.auditor.collusion import review
from audit.auditor.collusion.cheaters import account, played_observations
from audit.operator.sim.collude import SOFT_OWN, SOFT_PARTNER, rummy_colluding

RS = resolve("rummy13")
HIGH = RS["high_card_points"]


def _start(label="soft"):
    s = Stream(b"r" * 32, b"s" * 32, label)
    randomness = hand_randomness(s.block(0), "rs1", RS, [s.block(i)[:16] for i in range(1, 5)])
    engine = game_for("rummy13").engine(RS)
    return engine, engine.start(randomness, dealer=3)


def _rng():
    return Stream(b"x" * 32, b"y" * 32, "z")


# rules: a first drop scores each unmoved seat's strength; the redeals are that
# seat's hand dealt afresh with the closed stock, every other hand kept
def test_a_first_drop_scores_each_unmoved_seat_s_strength_against_its_hand_redealt_with_the_stock():
    engine, state = _start()
    seat = state.turn
    targets = unmoved(state, seat)
    found = soft_drop_observations(engine, state, Drop(seat), _rng())
    assert [o.target for o in found] == targets and len(targets) == 3
    again = _rng()
    for obs in found:
        t = obs.target
        assert obs.signal == SIGNAL and obs.seat == seat
        assert obs.actual == -min_points(state.hands[t], state.wild, high=HIGH)
        hands = [redeal(state, [t], again)[0] for _ in range(2)]
        assert obs.null == tuple(-min_points(h, state.wild, high=HIGH) for h in hands)
        pool = Counter(state.hands[t]) + Counter(state.closed)
        assert all(Counter(h) <= pool and len(h) == 13 for h in hands)


def test_playing_on_scores_minus_the_strength_and_only_first_real_choices_count():
    engine, state = _start()
    seat = state.turn
    stayed = soft_drop_observations(engine, state, Pick(seat, "closed"), _rng())
    dropped = soft_drop_observations(engine, state, Drop(seat), _rng())
    assert [(o.actual, o.null) for o in stayed] == [(-o.actual, tuple(-x for x in o.null)) for o in dropped]
    assert soft_drop_observations(engine, state, Drop(seat, auto=True), _rng()) == []    # rule D-23
    later = engine.apply(state, Pick(seat, "closed"))
    assert soft_drop_observations(engine, later, Discard(seat, later.hands[seat][0]), _rng()) == []
    moved = engine.apply(later, Discard(seat, later.hands[seat][0]))
    second = soft_drop_observations(engine, moved, Drop(moved.turn), _rng())
    assert seat not in {o.target for o in second} and len(second) == 2      # who has moved is not redealt


def test_the_hand_s_pair_signals_include_the_first_drop_decisions():
    engine, state = _start()
    steps = []
    for _ in range(state.n_seats):
        s = state.turn
        for move in (Pick(s, "closed"),):
            steps.append((len(steps), state, move))
            state = engine.apply(state, move)
        move = Discard(s, state.hands[s][-1])
        steps.append((len(steps), state, move))
        state = engine.apply(state, move)
    soft = [o for o in hand_pair_signals(engine, steps, lambda i: _rng()) if o.signal == SIGNAL]
    assert len(soft) == 3 + 2 + 1                 # each first pick against the seats still to move


def test_the_colluding_seat_stands_aside_only_for_a_strong_unmoved_partner():
    # audit/operator/sim/collude.py: drop at the first pick when the partner counts at most
    # SOFT_PARTNER points and the seat at least SOFT_OWN; otherwise the honest move
    moves = Counter()
    for label in ("soft-0", "soft-1", "soft-2", "soft-3"):
        engine, state = _start(label)
        seat = state.turn
        honest = Pick(seat, "closed")
        for partner in unmoved(state, seat):
            move = rummy_colluding(engine, state, partner, honest)
            strong = min_points(state.hands[partner], state.wild, high=HIGH) <= SOFT_PARTNER
            poor = min_points(state.hands[seat], state.wild, high=HIGH) >= SOFT_OWN
            assert move == (Drop(seat) if strong and poor else honest)
            moves[type(move).__name__] += 1
    assert moves["Drop"] >= 2 and moves["Pick"] >= 6           # both ways were met
    assert rummy_colluding(engine, state, unmoved(state, seat)[0], Pick(seat, "closed", auto=True)).auto


def test_honest_tables_flag_no_soft_drop_pair():
    rep = review(played_observations("rummy13", tables=1, players=4, hands=60, seed="soft-honest"))
    soft = [t for t in rep.pair_tests if t.signal == SIGNAL]
    assert len(soft) == 6 and not any(t.flagged for t in soft)
    assert all(t.decisions >= 50 for t in soft) and all(t.tested for t in soft)
    # what `tiplu collusion --json` prints: the signal in words, and each pair row's tests
    data = rep.to_json()
    assert "soft play" in data["pair_signals"][SIGNAL]
    rows = [t for p in data["pairs"] for t in p["tests"] if t["signal"] == SIGNAL]
    assert len(rows) == 6 and all(r["tested"] and not r["flagged"] and not r["two_sided"] for r in rows)


@pytest.mark.slow   # 1,280 Rummy hands through the solver
def test_a_planted_soft_playing_pair_is_flagged_and_the_same_tables_played_honestly_are_not():
    # docs/collusion.md (bench/collusion_pairs.py power --preset rummy13 --tables 2 --signal
    # rummy13.soft_drop, seed pairs0): the pair that stands aside for each other is flagged on
    # rummy13.soft_drop at 320 hands of its table; the same tables played honestly flag no pair
    pair = {account(0, 0), account(0, 1)}
    rep = review(played_observations("rummy13", tables=2, players=4, hands=320, seed="pairs0",
                                     collude={0: (0, 1, 1000)}))
    soft = [t for t in rep.pair_flags if t.signal == SIGNAL]
    assert soft and all({t.account, t.target} == pair for t in soft)
    assert all({t.account, t.target} & pair for t in rep.pair_flags)     # no pair of honest accounts
    honest = review(played_observations("rummy13", tables=2, players=4, hands=320, seed="pairs0"))
    assert honest.pair_flags == () and honest.flags == ()
