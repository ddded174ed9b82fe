"""What binding the moves as played costs the operator: per hand and per move, as ratios
against a baseline measured in the same run.

    python bench/moves.py [--hands 100] [--moves 60] [--seats 4] [--rounds 3]

Two ledgers on fresh files in a temporary directory run the same ``--hands`` whole hand
lifecycles (new, commit, a seed commitment and reveal per seat, deal, finish, reveal):

* *baseline* -- the hand finished with its whole record (``finish`` alone: the record
  statement still carries the move chain's head, computed from the record's moves; no move
  receipt);
* *moves played* -- the same hands with each of their ``--moves`` moves sent to the ledger as
  it is played (:meth:`audit.operator.ledger.Ledger.play_move`: one durable row and one Ed25519 move
  receipt per move), then finished with the same record.

It prints the time per hand of each, the ratio (moves played / baseline), the extra time
per move and that extra as a fraction of the baseline hand, and the log leaves per hand of
each (the same: a move receipt is not a leaf).  Rounds are interleaved and the best of each
kept.  Numbers compare runs on one machine, never assertions.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from audit.operator.ledger import Ledger  # noqa: E402
from audit.tlog.store import TransparencyLog  # noqa: E402
from replay.fairness import commit_player_seed  # noqa: E402

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


def _moves(n: int, seats: int) -> list[dict]:
    # moves of a realistic size (a discard with its time); the ledger does not judge legality
    return [{"type": "discard", "seat": i % seats, "card": "AS", "time": f"2026-11-30T12:00:{i % 60:02d}.000Z"}
            for i in range(n)]


def run(path: str, hands: int, n_moves: int, seats: int, *, live: bool) -> tuple[float, int]:
    ledger = Ledger(path, clock=lambda: NOW, create=True)
    ledger.new_operator("bench")
    ledger.new_table("t", operator="bench", preset="kitti", seats=seats)
    moves = _moves(n_moves, seats)
    seeds = [bytes([s + 1]) * 16 for s in range(seats)]
    names = [f"p{s}" for s in range(seats)]
    start = time.perf_counter()
    for h in range(hands):
        hid = f"h{h}"
        ledger.new_hand("t", names, hand_id=hid)
        ledger.commit(hid)
        for s in range(seats):
            ledger.seed_commit(hid, s, commit_player_seed(hid, s, seeds[s]))
        for s in range(seats):
            ledger.seed_reveal(hid, s, seeds[s])
        ledger.deal(hid)
        if live:
            for m in moves:
                ledger.play_move(hid, m)
        ledger.finish(hid, {"hand_id": hid, "moves": moves})
        ledger.reveal(hid)
    elapsed = time.perf_counter() - start
    leaves = TransparencyLog(ledger.db, migrate=False).size()
    ledger.close()
    return elapsed, leaves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--moves", type=int, default=60, help="moves per hand (a Marriage hand plays 40-120)")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    best = {"baseline": float("inf"), "moves played": float("inf")}
    leaves = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.rounds):
            for name, live in (("baseline", False), ("moves played", True)):
                t, n = run(os.path.join(tmp, f"{r}-{live}.db"), a.hands, a.moves, a.seats, live=live)
                best[name] = min(best[name], t)
                leaves[name] = n
    per_hand = {k: v / a.hands for k, v in best.items()}
    extra = per_hand["moves played"] - per_hand["baseline"]
    per_move = extra / a.moves if a.moves else 0.0
    print(f"{a.hands} hands of {a.seats} seats, {a.moves} moves each, best of {a.rounds} rounds")
    print(f"baseline (finish with the record)   {per_hand['baseline'] * 1e3:10.2f} ms per hand")
    print(f"moves played one by one (receipts)  {per_hand['moves played'] * 1e3:10.2f} ms per hand"
          f"  (ratio {per_hand['moves played'] / per_hand['baseline']:.3g})")
    print(f"per move: {per_move * 1e6:,.0f} us extra = {per_move / per_hand['baseline']:.3g} of a baseline hand")
    print(f"log leaves per hand: baseline {leaves['baseline'] / a.hands:.0f}, "
          f"moves played {leaves['moves played'] / a.hands:.0f} (a move receipt is not a leaf)")


if __name__ == "__main__":
    main()
