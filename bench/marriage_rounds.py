"""Marriage round engine: bot rounds played and replayed per second, against a baseline.

    python bench/marriage_rounds.py [--rounds N] [--players 4] [--repeat 5]

Baseline (same run): dealing and starting a round (``engine.start``: the v1 shuffle of
the shoe and the deal), the least any round costs.  Then, per preset:

* *played*   -- whole rounds chosen by the seeded bot (``audit.operator.sim.bots.marriage``);
* *replayed* -- the same rounds re-applied from their JSON through a fresh engine, as an
  audit does: the round's moves read from one JSON text by the reader an audit reads
  each record's line with (:func:`replay.jsontext.decode_json`, msgspec), each parsed,
  validated and applied on one working state (dealt into it, ``engine.start_working``,
  or ``engine.working`` of the frozen start on older code) move by move, as
  :func:`replay.replayer.replay_record` runs it, and the outcome scored; and, for comparison, with a new frozen
  state per move (as the replay viewer does).

Times are CPU seconds of this process (``time.process_time``: the machine is shared, and
wall-clock time measures the other processes too).  Each repetition measures the
baseline and both replays one after the other, and its ratio is taken within it; the
figures printed are the medians over the repetitions, with the range of the ratio.
Ratios against the baseline are what to compare between machines.  Rounds are seeded,
so every run measures the same games.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replay.fairness import hand_randomness  # noqa: E402
from replay.jsontext import decode_json  # noqa: E402
from replay.rulesets import resolve  # noqa: E402
from replay.stream import Stream  # noqa: E402
from audit.operator.sim.bots.marriage import choose_move  # noqa: E402
from replay.marriage.engine import MarriageEngine, first_dealer  # noqa: E402


def randomness(rs, k: int, n: int):
    return hand_randomness(bytes([k % 256, k // 256]) * 16, f"bench-{k}", rs, [bytes([k % 256, s]) * 8 for s in range(n)])


def play(eng, r, k: int, n: int):
    state = eng.start(r, dealer=first_dealer(n))
    rng = Stream(bytes([k % 256]) * 32, bytes(32), "bot")
    moves = []
    while not eng.is_over(state):
        move = choose_move(eng, state, rng)
        moves.append(json.dumps(move.to_json()))
        state = eng.apply(state, move)
    eng.outcome(state)
    return state, moves


def replay(rs, r, moves_text: str, n: int):
    """As an audit replays (replay.replayer without a visitor): a fresh engine, one
    working state."""
    eng = MarriageEngine(rs)
    start_working = getattr(eng, "start_working", None)   # the replayer's path (older code: a copy)
    state = start_working(r, dealer=first_dealer(n)) if start_working else eng.working(eng.start(r, dealer=first_dealer(n)))
    moves = decode_json(moves_text)
    parse = getattr(eng, "parse_record_move", None) or eng.parse_move
    for raw in moves:   # the replayer's one loop: each move parsed and applied in place
        state = eng.apply(state, parse(raw))
    return eng.outcome(state.freeze())


def replay_frozen(rs, r, moves_text: str, n: int):
    """As the replay viewer replays (a visitor sees every state): a frozen state per move."""
    eng = MarriageEngine(rs)
    state = eng.start(r, dealer=first_dealer(n))
    for raw in decode_json(moves_text):
        state = eng.apply(state, eng.parse_move(raw))
    return eng.outcome(state)


def cpu_rate(fn, items) -> float:
    """Items per CPU-second of ``fn`` over ``items``."""
    t = time.process_time()
    for item in items:
        fn(*item)
    return len(items) / max(time.process_time() - t, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n = args.players
    for preset in ("marriage/nepal", "marriage/classic"):
        rs = resolve(preset)
        eng = MarriageEngine(rs)
        rands = [randomness(rs, k, n) for k in range(args.rounds)]

        t = time.process_time()
        games = [play(eng, r, k, n) for k, r in enumerate(rands)]
        played = args.rounds / max(time.process_time() - t, 1e-9)
        texts = ["[" + ",".join(moves) + "]" for _, moves in games]

        starts = [(r,) for r in rands]
        work = [(rs, r, text, n) for r, text in zip(rands, texts)]
        cpu_rate(lambda r: eng.start(r, dealer=first_dealer(n)), starts)     # warm up  # noqa: B023 - called within this iteration
        deals, replayed, frozen, ratios = [], [], [], []
        for _ in range(max(1, args.repeat)):  # interleaved: each repetition has its own baseline
            d = cpu_rate(lambda r: eng.start(r, dealer=first_dealer(n)), starts)  # noqa: B023 - called within this iteration
            w = cpu_rate(replay, work)
            f = cpu_rate(replay_frozen, work)
            deals.append(d)
            replayed.append(w)
            frozen.append(f)
            ratios.append(w / d)

        med = statistics.median
        finished = sum(s.winner is not None for s, _ in games)
        turns = med(s.turns for s, _ in games)
        print(f"{preset} ({n} players, {args.rounds} rounds, {len(ratios)} repetitions, CPU time): "
              f"baseline deal+start {med(deals):,.0f}/s; "
              f"bot rounds played {played:,.1f}/s (ratio {played / med(deals):.4f}); "
              f"replayed {med(replayed):,.1f}/s (ratio {med(ratios):.4f}); "
              f"ratio range {min(ratios):.4f}-{max(ratios):.4f} ({min(replayed):,.0f}-{max(replayed):,.0f}/s); "
              f"replayed with a frozen state per move {med(frozen):,.1f}/s; "
              f"finished {finished}/{args.rounds}, median {turns:g} turns")


if __name__ == "__main__":
    main()
