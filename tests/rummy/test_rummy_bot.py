"""The seeded bot: legal, reproducible, and most of its deals end with a valid declaration."""
from collections import Counter

from replay.fairness import hand_randomness
from replay.game import engine_for
from replay.rulesets import resolve
from audit.operator.sim.bots.rummy13 import choose_move
from replay.stream import Stream

RS = resolve("rummy13")


def bot_deal(i, n):
    engine = engine_for(RS)
    r = hand_randomness(bytes([i]) * 32, f"bot-{i}", RS, [bytes([i, j]) * 8 for j in range(n)])
    s = engine.start(r, dealer=i % n)
    rng = Stream(bytes([i]) * 32, bytes(32), "bot")
    autos = 0
    while not engine.is_over(s):
        m = choose_move(engine, s, rng)
        assert m.seat == engine.to_move(s)
        autos += getattr(m, "auto", False)
        s = engine.apply(s, m)
    return engine.outcome(s), autos


def test_bot_deals_mostly_end_with_a_valid_declaration():  # rules, D-21
    ends = Counter()
    for i in range(9):
        out, _ = bot_deal(i, [4, 6, 8][i % 3])
        ends[out.detail["ended"]] += 1
        assert sum(out.net_points) == 0
        assert out.points[out.winner] == 0
    assert ends["declared"] >= 6


def test_bot_times_out_and_is_auto_dropped_somewhere():  # rules, D-23
    lefts = Counter()
    autos = 0
    for i in range(12, 22):
        out, a = bot_deal(i, 4)
        autos += a
        lefts.update(b["left"] for b in out.breakdown)
    assert autos > 0 and lefts["timeout_drop"] > 0 and lefts["first_drop"] > 0
