"""Shared fixtures: small simulated archives, played through the real ledger."""
from __future__ import annotations

import pytest

from audit.operator.ledger import Ledger
from audit.operator.sim.tables import simulate_table


def simulated(preset: str, players: int, hands: int, *, seed: str = "tests", table_id: str = "t1",
              tamper_rate: float = 0.0):
    ledger = Ledger(":memory:")
    ledger.new_operator("demo-operator")
    out: list[tuple[dict, str | None]] = []
    run = simulate_table(ledger, preset=preset, players=players, hands=hands, seed=seed, table_id=table_id,
                         tamper_rate=tamper_rate, on_record=lambda r, k: out.append((r, k)))
    return ledger, run, out


@pytest.fixture(scope="session")
def kitti_archive():
    return simulated("kitti", 4, 4)


@pytest.fixture(scope="session")
def simulate():
    """``simulate(preset, players, hands, *, seed, table_id, tamper_rate)`` -> (ledger, run, records)."""
    return simulated
