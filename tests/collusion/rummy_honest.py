"""The honest 10,000-hand 13-card Rummy archive of the false-positive test
(``test_collusion_rummy_honest.py``) and of ``bench/collusion.py honest --preset rummy13``:
25 tables of four honest bots, 400 hands each, every table with its own four accounts (100 in
all), played in memory (:mod:`audit.auditor.collusion.cheaters`) and observed by every Rummy
signal.  Its observations are kept in a cache directory (``TIPLU_TEST_CACHE``, default
``<tmp>/tiplu-test-cache``, as the collusion pages' 10,000-hand ledger,
``tests/browser/collusion_scale.py``) under a name that changes with the plan **and with the
source of the code that plays and observes the hands**, so a change to a signal, the solver or
a bot builds it again rather than testing stale numbers.  Building took about 5.5 CPU-minutes
(about 33 ms a hand, bots and signals), split over two processes by table."""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

TABLES, PLAYERS, HANDS = 25, 4, 400
SEED = "rummy-honest-10k"
ROOT = Path(__file__).resolve().parents[2]
#: the code whose change changes the observations (the cache's name hashes it)
SOURCES = ("replay/rummy", "replay/signals.py", "replay/pair_signals.py", "replay/stream.py",
           "replay/fairness.py", "replay/settlement.py", "audit/operator/sim",
           "audit/auditor/collusion/observe.py", "audit/auditor/collusion/pair_signals.py",
           "audit/auditor/collusion/cheaters.py")


def cache_dir() -> Path:
    return Path(os.environ.get("TIPLU_TEST_CACHE") or Path(tempfile.gettempdir()) / "tiplu-test-cache")


def source_digest() -> str:
    h = hashlib.sha256(b"tiplu/test/rummy-honest/v1\n")
    for name in SOURCES:
        path = ROOT / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for f in files:
            h.update(f.relative_to(ROOT).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def play_tables(table_ids: list[int], hands: int = HANDS) -> dict:
    """The observations of these tables, as JSON-ready data (a worker's task)."""
    from audit.auditor.collusion.cheaters import played_observations

    return to_data(played_observations("rummy13", tables=TABLES, players=PLAYERS, hands=hands, seed=SEED,
                                       table_ids=table_ids))


def to_data(obs) -> dict:
    return {"excesses": [[a, s, [str(x) for x in xs], list(obs.hand_of[(a, s)])] for (a, s), xs in obs.excesses.items()],
            "pairs": [[a, b, s, [str(x) for x in xs]] for (a, b, s), xs in obs.pair_excesses.items()],
            "hands_by_account": dict(obs.hands_by_account),
            "together": [[a, b, n] for (a, b), n in obs.together.items()],
            "flows": [[a, b, str(v)] for (a, b), v in obs.flows.items()],
            "hands": obs.hands, "games": sorted(obs.games)}


def from_data(data: dict):
    from audit.auditor.collusion.observe import Observations

    obs = Observations()
    for a, s, xs, at in data["excesses"]:
        obs.excesses[(a, s)] = [Fraction(x) for x in xs]
        obs.hand_of[(a, s)] = list(at)
    for a, b, s, xs in data["pairs"]:
        obs.pair_excesses[(a, b, s)] = [Fraction(x) for x in xs]
    obs.hands_by_account.update(data["hands_by_account"])
    for a, b, n in data["together"]:
        obs.together[(a, b)] = n
    for a, b, v in data["flows"]:
        obs.flows[(a, b)] = Decimal(v)
    obs.hands = data["hands"]
    obs.games = set(data["games"])
    return obs


def build(path: Path, workers: int = 2) -> None:
    """Play every table (over ``workers`` processes) and write the merged observations at
    ``path`` (written beside it and renamed: whole or not at all)."""
    from audit.auditor.collusion.observe import Observations
    from audit.auditor.collusion.parallel import merge_into

    out = Observations()
    chunks = [list(range(t, min(t + 5, TABLES))) for t in range(0, TABLES, 5)]
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for data in pool.map(play_tables, chunks):   # in table order
            merge_into(out, from_data(data))
    tmp = path.with_suffix(".building")
    tmp.write_text(json.dumps(to_data(out)))
    tmp.rename(path)


def ten_thousand(workers: int = 2):
    """The cached observations (built first if they are not there), as
    :class:`~audit.auditor.collusion.observe.Observations`."""
    path = cache_dir() / f"rummy-honest-{SEED}-{TABLES}x{HANDS}-{source_digest()}.json"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        build(path, workers)
    return from_data(json.loads(path.read_text()))
