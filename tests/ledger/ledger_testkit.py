"""Shared helpers of the ledger tests: a fixed clock, a seeded hand, table snapshots."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from audit.operator.ledger import Ledger
from replay.fairness import commit_player_seed

T0 = datetime(2026, 11, 30, 14, 0, tzinfo=timezone.utc)
PLAYERS = ["asha", "bikash", "chandra", "dipa"]
SEEDS = [bytes([0x10 + i]) * 16 for i in range(4)]


class StepClock:
    """A clock that advances one second per reading (exact, repeatable statement times)."""

    def __init__(self, start: datetime = T0) -> None:
        self.t = start - timedelta(seconds=1)

    def __call__(self) -> datetime:
        self.t += timedelta(seconds=1)
        return self.t


def new_ledger(path=":memory:", **kw) -> Ledger:
    ledger = Ledger(path, clock=StepClock(), create=True, **kw)
    ledger.new_operator("acme")
    ledger.new_table("t1", operator="acme", preset="kitti", seats=4, point_value="0.25", commission_pct="5")
    return ledger


def advance(ledger: Ledger, hand_id: str, to: str, *, seeds=SEEDS, server_seed: bytes | None = None) -> None:
    """Walk a fresh hand forward up to (and including) step ``to`` (``server_seed``: a fixed
    seed for the commit, so the deal is the same on every run; default a fresh one)."""
    steps = ["new", "commit", "seed_commit", "seed_reveal", "deal", "finish", "reveal"]
    for step in steps[: steps.index(to) + 1]:
        if step == "new":
            ledger.new_hand("t1", PLAYERS, dealer=1, hand_id=hand_id)
        elif step == "commit":
            ledger.commit(hand_id) if server_seed is None else ledger.commit(hand_id, server_seed=server_seed)
        elif step == "seed_commit":
            for seat, seed in enumerate(seeds):
                ledger.seed_commit(hand_id, seat, commit_player_seed(hand_id, seat, seed))
        elif step == "seed_reveal":
            for seat, seed in enumerate(seeds):
                ledger.seed_reveal(hand_id, seat, seed)
        elif step == "deal":
            ledger.deal(hand_id)
        elif step == "finish":
            ledger.finish(hand_id, {"hand_id": hand_id, "moves": []})
        elif step == "reveal":
            ledger.reveal(hand_id)


def snapshot(ledger: Ledger) -> dict[str, list]:
    """Every row of every table (sqlite_sequence included): equal snapshots = nothing changed."""
    names = [r[0] for r in ledger.db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    # every table, rows in a stable order (some tables, like the log's, have no rowid)
    return {n: sorted(ledger.db.execute(f"SELECT * FROM [{n}]").fetchall(), key=repr) for n in names}


def private_seed(ledger: Ledger, hand_id: str) -> str:
    """The server seed, read straight from the secret store (tests only)."""
    return ledger._secrets().ensure().execute("SELECT seed FROM server_seeds WHERE hand_id = ?", [hand_id]).fetchone()[0]
