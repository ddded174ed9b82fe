"""The 10,000-hand ledger of the collusion pages' scale test (and ``bench/collusion.py page``):
25 Kitti tables of four, 400 hands each, every table with its own four accounts (100 in
all), a superuser in seat 1 of the first table -- built through the real ledger once and
kept in a cache directory (``TIPLU_TEST_CACHE``, default ``<tmp>/tiplu-test-cache``) under a
name that changes with the plan, so later sessions reuse it.  It takes about half an hour
on a 2-core machine (about 0.16 s a hand)."""
from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

TABLES, PLAYERS, HANDS = 25, 4, 400
SEED = "collusion-10k-v1"
SUPERUSER = "bikash-00"


def names(table: int) -> list[str]:
    from audit.operator.sim.tables import PLAYERS as SIM_PLAYERS

    return [f"{SIM_PLAYERS[s]}-{table:02d}" for s in range(PLAYERS)]


def cache_dir() -> Path:
    return Path(os.environ.get("TIPLU_TEST_CACHE") or Path(tempfile.gettempdir()) / "tiplu-test-cache")


def build(path: Path, *, tables: int = TABLES, hands: int = HANDS) -> None:
    """Build the ledger at ``path`` (written beside it and renamed: whole or not at all)."""
    from audit.operator.ledger import Ledger
    from audit.operator.sim.archive import OPERATOR, ensure_operator
    from audit.operator.sim.tables import EPOCH, simulate_table

    tmp = path.with_suffix(".building")
    tmp.unlink(missing_ok=True)
    with Ledger(str(tmp), create=True) as ledger:
        ensure_operator(ledger, seed=SEED)
        for t in range(tables):
            simulate_table(ledger, preset="kitti", players=PLAYERS, hands=hands, seed=SEED, table_id=f"kitti-t{t:02d}",
                           operator=OPERATOR, start=EPOCH + timedelta(days=t), names=names(t),
                           peek={1: 1000} if t == 0 else None)
        ledger.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        ledger._secrets().ensure().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    from audit.operator.ledger.secret_store import secrets_path_for

    secrets_path_for(tmp).rename(secrets_path_for(path))   # the secrets first, as the demo does
    tmp.rename(path)


def ten_thousand() -> Path:
    """The cached ledger, built first if it is not there."""
    path = cache_dir() / f"collusion-{SEED}-{TABLES}x{HANDS}.db"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        build(path)
    return path
