"""Marriage round engine: bot rounds played and replayed per second, against a baseline.

    python bench/marriage_rounds.py [--rounds N] [--players 4]

Baseline (same run): dealing and starting a round (``engine.start``: the v1 shuffle of
the shoe and the deal), the least any round costs.  Then, per preset:

* *played*   -- whole rounds chosen by the seeded bot (``audit.sim.bots.marriage``);
* *replayed* -- the same rounds re-applied from their JSON move lists through a fresh
  engine, as an audit does (parse, validate every move, score the outcome) on one working
  state (``engine.working``); and, for comparison, with a new frozen state per move (as
  the replay viewer does).  Best of three, interleaved.

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
from replay.rulesets import resolve  # noqa: E402
from replay.stream import Stream  # noqa: E402
from audit.sim.bots.marriage import choose_move  # noqa: E402
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


def replay(eng, r, moves, n: int):
    """As an audit replays (replay.replayer without a visitor): one working state."""
    state = eng.working(eng.start(r, dealer=first_dealer(n)))
    for text in moves:
        state = eng.apply(state, eng.parse_move(json.loads(text)))
    return eng.outcome(state.freeze())


def replay_frozen(eng, r, moves, n: int):
    """As the replay viewer replays (a visitor sees every state): a frozen state per move."""
    state = eng.start(r, dealer=first_dealer(n))
    for text in moves:
        state = eng.apply(state, eng.parse_move(json.loads(text)))
    return eng.outcome(state)


def best_rate(fn, eng_of, rands, games, n: int, rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for r, (_, moves) in zip(rands, games):
            fn(eng_of(), r, moves, n)
        best = min(best, time.perf_counter() - t)
    return len(rands) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    n = args.players
    for preset in ("marriage/nepal", "marriage/classic"):
        rs = resolve(preset)
        eng = MarriageEngine(rs)
        rands = [randomness(rs, k, n) for k in range(args.rounds)]

        best = float("inf")
        for _ in range(3):                      # best of three (the first warms up)
            t = time.perf_counter()
            for r in rands:
                eng.start(r, dealer=first_dealer(n))
            best = min(best, time.perf_counter() - t)
        deals = args.rounds / best

        t = time.perf_counter()
        games = [play(eng, r, k, n) for k, r in enumerate(rands)]
        played = args.rounds / (time.perf_counter() - t)

        replayed = frozen = 0.0
        for _ in range(3):        # interleaved, best of three each
            replayed = max(replayed, best_rate(replay, lambda: MarriageEngine(rs), rands, games, n, 1))
            frozen = max(frozen, best_rate(replay_frozen, lambda: MarriageEngine(rs), rands, games, n, 1))

        finished = sum(s.winner is not None for s, _ in games)
        turns = statistics.median(s.turns for s, _ in games)
        print(f"{preset} ({n} players, {args.rounds} rounds): baseline deal+start {deals:,.0f}/s; "
              f"bot rounds played {played:,.1f}/s (ratio {played / deals:.4f}); "
              f"replayed {replayed:,.1f}/s (ratio {replayed / deals:.4f}); "
              f"replayed with a frozen state per move {frozen:,.1f}/s; "
              f"finished {finished}/{args.rounds}, median {turns:g} turns")


if __name__ == "__main__":
    main()
